import assert from "node:assert/strict";
import * as fs from "node:fs";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

// Regression tests for #13's config-editing defects: each failed on the hand-written editor.

async function sandbox(text?: string) {
  const { root, env } = await makeSandboxHome();
  const file = `${env.TRELLIS_HOME}/config.toml`;
  if (text !== undefined) await platform.fs.writeTextFile(file, text);
  const cli = (...argv: string[]) => runCliCaptured(argv, { env, cwd: root });
  return { root, env, file, cli, read: () => platform.fs.readTextFile(file) };
}

Deno.test("mcp remove keeps a multi-line string that mentions the table, and every other key (#13)", async () => {
  const text = 'model = "gpt-5"\ninstructions = """\nUse the docs server:\n[mcp_servers.docs]\n' +
    'command = "not this"\n"""\n\n[mcp_servers.docs]\ncommand = "npx"\n';
  const { cli, read } = await sandbox(text);
  const run = await cli("mcp", "remove", "docs");
  assert.deepStrictEqual([run.code, run.stderr], [0, ""]);
  assert.deepStrictEqual(
    await read(),
    'model = "gpt-5"\ninstructions = """\nUse the docs server:\n[mcp_servers.docs]\ncommand = "not this"\n"""\n',
  );
});

Deno.test("mcp remove takes the server's own comment, not the next section's (#13)", async () => {
  const { cli, read } = await sandbox(
    '# My config\n\n# docs server\n[mcp_servers.docs]\ncommand = "a"\n\n# the web one\n[mcp_servers.web]\nurl = "https://h"\n',
  );
  assert.deepStrictEqual((await cli("mcp", "remove", "docs")).code, 0);
  assert.deepStrictEqual(
    await read(),
    '# My config\n\n# the web one\n[mcp_servers.web]\nurl = "https://h"\n',
  );
});

Deno.test("mcp disable/remove reach servers written as dotted keys or inline tables (#13)", async () => {
  const { cli, read } = await sandbox(
    'mcp_servers.dot.command = "x" # dotted\nmodel = "m"\n\n[plugins."p@m"]\nmcp_servers = { inl = { command = "y" } }\n',
  );
  assert.deepStrictEqual((await cli("mcp", "disable", "dot")).code, 0);
  assert.deepStrictEqual(
    await read(),
    'mcp_servers.dot.command = "x" # dotted\nmcp_servers.dot.enabled = false\nmodel = "m"\n\n[plugins."p@m"]\nmcp_servers = { inl = { command = "y" } }\n',
  );
  assert.deepStrictEqual((await cli("mcp", "remove", "dot")).code, 0);
  assert.deepStrictEqual(
    await read(),
    'model = "m"\n\n[plugins."p@m"]\nmcp_servers = { inl = { command = "y" } }\n',
  );
  const { cli: cli2, read: read2 } = await sandbox('[mcp_servers]\ndocs = { command = "z" } # inline\n');
  assert.deepStrictEqual((await cli2("mcp", "disable", "docs")).code, 0);
  assert.deepStrictEqual(await read2(), '[mcp_servers]\ndocs = { command = "z", enabled = false} # inline\n');
  assert.deepStrictEqual((await cli2("mcp", "remove", "docs")).code, 0);
  assert.deepStrictEqual(await read2(), "[mcp_servers]\n");
});

Deno.test("config edits keep a 0600 mode, the owner and a symbolic link (#13 item 14)", async () => {
  const { root, env, cli } = await sandbox();
  const real = `${root}/dotfiles/trellis.toml`;
  await platform.fs.mkdir(`${root}/dotfiles`);
  await platform.fs.writeTextFile(real, "# mine\n");
  fs.chmodSync(real, 0o600);
  fs.chownSync(real, 4321, 4322);
  await platform.fs.symlink(real, `${env.TRELLIS_HOME}/config.toml`);
  const run = await cli("mcp", "add", "gh", "--env", "TOKEN=secret", "--", "gh-mcp");
  assert.deepStrictEqual([run.code, run.stderr], [0, ""]);
  const link = fs.lstatSync(`${env.TRELLIS_HOME}/config.toml`);
  const target = fs.statSync(real);
  assert.deepStrictEqual(
    [link.isSymbolicLink(), target.mode & 0o777, target.uid, target.gid],
    [true, 0o600, 4321, 4322],
  );
  assert.deepStrictEqual(
    await platform.fs.readTextFile(real),
    '# mine\n\n[mcp_servers.gh]\ncommand = "gh-mcp"\nenv = { TOKEN = "secret" }\n',
  );
});

Deno.test("a new config file is created 0600 (it may hold a token) (#13 item 14)", async () => {
  const { file, cli } = await sandbox();
  assert.deepStrictEqual((await cli("mcp", "add", "gh", "--env", "TOKEN=secret", "--", "gh-mcp")).code, 0);
  assert.deepStrictEqual(fs.statSync(file).mode & 0o777, 0o600);
});

Deno.test("project trust refuses a missing directory and trusts a name with U+007F (#13)", async () => {
  const { root, cli, read } = await sandbox("# keep\n");
  const missing = await cli("project", "trust", `${root}/nope`);
  assert.deepStrictEqual(missing.code, 2);
  assert.deepStrictEqual(missing.stderr, `error: Cannot trust "${root}/nope": no such directory\n`);
  assert.deepStrictEqual(await read(), "# keep\n");
  const odd = `${root}/odd\u007fname`;
  await platform.fs.mkdir(odd);
  const run = await cli("project", "trust", odd);
  assert.deepStrictEqual([run.code, run.stderr], [0, ""]);
  assert.deepStrictEqual(
    await read(),
    `# keep\n\n[projects."${root}/odd\\u007Fname"]\ntrust_level = "trusted"\nlayer_hashes = {}\n`,
  );
  assert.deepStrictEqual((await cli("project", "untrust", odd)).code, 0);
  assert.deepStrictEqual(await read(), "# keep\n\n");
});

Deno.test("mcp add refuses a bad URL, an existing server without --force, and SSE in config.toml (#13, #16)", async () => {
  const { file, cli, read } = await sandbox('[mcp_servers.docs]\ncommand = "old"\n');
  const cases: [string[], string][] = [
    [
      ["mcp", "add", "x", "--url", "notaurl"],
      `error: Cannot add MCP server 'x': url "notaurl" is not an http:// or https:// URL\n`,
    ],
    [
      ["mcp", "add", "docs", "--", "new"],
      `error: Cannot add MCP server 'docs': it already exists in ${file} (--force replaces it)\n`,
    ],
    [
      ["mcp", "add", "x", "--transport", "ftp", "u"],
      `error: Cannot use --transport "ftp": expected stdio, http or sse\n`,
    ],
  ];
  for (const [argv, stderr] of cases) {
    const run = await cli(...argv);
    assert.deepStrictEqual([run.code, run.stderr], [2, stderr], argv.join(" "));
  }
  const sse = await cli("mcp", "add", "--transport", "sse", "s", "https://h/sse");
  assert.deepStrictEqual(sse.code, 2);
  assert.match(sse.stderr, /no SSE transport; declare it in the project's \.mcp\.json/);
  assert.deepStrictEqual(await read(), '[mcp_servers.docs]\ncommand = "old"\n');
  const forced = await cli("mcp", "add", "docs", "--force", "--transport", "http", "https://h/mcp");
  assert.deepStrictEqual([forced.code, forced.stderr], [0, ""]);
  assert.deepStrictEqual(await read(), '[mcp_servers.docs]\nurl = "https://h/mcp"\n');
});

Deno.test("mcp add --scope project writes the project's .trellis/config.toml (#16 item 8)", async () => {
  const { root, cli, read } = await sandbox("");
  await platform.fs.mkdir(`${root}/.git`);
  const run = await cli("mcp", "add", "--scope", "project", "local", "--", "srv", "--flag");
  assert.deepStrictEqual([run.code, run.stderr], [0, ""]);
  assert.deepStrictEqual(
    await platform.fs.readTextFile(`${root}/.trellis/config.toml`),
    '[mcp_servers.local]\ncommand = "srv"\nargs = ["--flag"]\n',
  );
  assert.deepStrictEqual(await read(), "");
  assert.deepStrictEqual((await cli("mcp", "remove", "-s", "project", "local")).code, 0);
});

Deno.test("an edit of a file that is not valid TOML is refused naming file and line, nothing written (#13)", async () => {
  const { env, file, cli, read } = await sandbox('model = "m"\nthis is not toml\n');
  const run = await cli("mcp", "add", "x", "--", "y");
  assert.deepStrictEqual(run.code, 2);
  assert.match(run.stderr, new RegExp(`^error: Cannot edit "${file}": invalid TOML at ${file}:2:`));
  assert.deepStrictEqual(await read(), 'model = "m"\nthis is not toml\n');
  assert.deepStrictEqual((await platform.fs.readDir(env.TRELLIS_HOME)).map((e) => e.name).sort(), [
    "config.toml",
    "config.toml.lock",
  ]);
});
