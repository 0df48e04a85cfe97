import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { trustEntry } from "../helpers/trust_project.ts";
import { fixture } from "./_helpers.ts";

const ORIGINAL = `# my settings
model = "m" # inline comment

[mcp_servers.keep]
# keep this comment
command = "true"
`;

async function sandbox() {
  const { root, env } = await makeSandboxHome();
  const file = `${env.TRELLIS_HOME}/config.toml`;
  await platform.fs.writeTextFile(file, ORIGINAL);
  const cli = (...argv: string[]) => runCliCaptured(argv, { env, cwd: root });
  return { root, env, file, cli };
}

Deno.test("mcp add/enable/disable/remove edit config.toml keeping the rest byte-for-byte (MCP-18)", async () => {
  const { file, cli } = await sandbox();
  const add = await cli("mcp", "add", "docs", "--env", "A=1", "--", "node", "srv.js", "--flag");
  assert.deepStrictEqual([add.code, add.stderr], [0, ""]);
  const http = await cli(
    "mcp",
    "add",
    "web",
    "--url",
    "https://h/mcp",
    "--bearer-token-env-var",
    "TOK",
    "--header",
    "X-A=b",
  );
  assert.deepStrictEqual(http.code, 0, http.stderr);
  assert.deepStrictEqual((await cli("mcp", "disable", "web")).code, 0);
  assert.deepStrictEqual(
    await platform.fs.readTextFile(file),
    ORIGINAL + `
[mcp_servers.docs]
command = "node"
args = ["srv.js", "--flag"]
env = { A = "1" }

[mcp_servers.web]
url = "https://h/mcp"
bearer_token_env_var = "TOK"
http_headers = { X-A = "b" }
enabled = false
`,
  );
  const listed = JSON.parse((await cli("mcp", "list", "--json")).stdout);
  assert.deepStrictEqual(listed.map((s: { name: string; enabled: boolean }) => [s.name, s.enabled]), [
    ["docs", true],
    ["keep", true],
    ["web", false],
  ]);
  const web = JSON.parse((await cli("mcp", "get", "web", "--json")).stdout);
  assert.deepStrictEqual(web.transport, {
    type: "streamable_http",
    url: "https://h/mcp",
    bearer_token_env_var: "TOK",
    http_headers: { "X-A": "b" },
    env_http_headers: {},
  });
  assert.deepStrictEqual((await cli("mcp", "remove", "web")).code, 0);
  assert.deepStrictEqual((await cli("mcp", "remove", "docs")).code, 0);
  assert.deepStrictEqual(await platform.fs.readTextFile(file), ORIGINAL);
});

Deno.test("mcp commands exit 2 with one line for bad names, transports and unknown servers (MCP-18)", async () => {
  const { cli } = await sandbox();
  const cases: [string[], RegExp][] = [
    [["mcp", "add", "bad name", "--", "x"], /Cannot use MCP server name "bad name"/],
    [["mcp", "add", "x", "--url", "https://h", "--", "cmd"], /both --url and a command/],
    [["mcp", "add", "x"], /without a transport/],
    [["mcp", "add", "x", "--url", "https://h", "--env", "A=1"], /env is not supported for streamable_http/],
    [["mcp", "get", "nope"], /No MCP server named 'nope' found\./],
    [["mcp", "remove", "nope"], /No MCP server named 'nope' found\./],
    [["mcp", "enable", "nope"], /No MCP server named 'nope' found\./],
  ];
  for (const [argv, pattern] of cases) {
    const run = await cli(...argv);
    assert.deepStrictEqual(run.code, 2, argv.join(" "));
    assert.match(run.stderr, pattern);
    assert.doesNotMatch(run.stderr, /at .*\.ts/);
  }
});

Deno.test("a server with mixed transport fields is reported failed naming file, server and field; others work (MCP-4, #13)", async () => {
  const { file, cli } = await sandbox();
  await platform.fs.writeTextFile(
    file,
    '[mcp_servers.s]\ncommand = "x"\nurl = "https://h"\n\n[mcp_servers.ok]\ncommand = "echo"\n',
  );
  const run = await cli("mcp", "list");
  assert.deepStrictEqual(run.code, 0, run.stderr);
  assert.deepStrictEqual(
    run.stderr,
    `warning: Invalid config ${file}:3: mcp_servers.s.url: url is not supported for stdio (MCP server "s" is not started)\n`,
  );
  assert.match(run.stdout, /^ok +echo +enabled /m);
  assert.match(run.stdout, /^s +- +failed /m);
  assert.match(run.stdout, /^s failed: mcp_servers\.s\.url: url is not supported for stdio$/m);
  const listed = JSON.parse((await cli("mcp", "list", "--json")).stdout);
  assert.deepStrictEqual(listed.map((s: { name: string; status?: string }) => [s.name, s.status ?? "ok"]), [
    ["ok", "ok"],
    ["s", "failed"],
  ]);
});

Deno.test("mcp call/tools/resources run against a live fixture server (MCP-18)", async () => {
  const { cli } = await sandbox();
  await cli("mcp", "add", "fx", "--", "node", fixture("fixture_server.mjs"), "cursor");
  await cli("mcp", "add", "echo", "--", "node", fixture("fixture_server.mjs"), "echo");
  const call = await cli("mcp", "call", "echo", "echo", "--args", '{"text":"hello"}');
  assert.deepStrictEqual([call.code, call.stdout], [0, "hello\n"]);
  assert.match(call.stderr, /mcp: echo ready in \d+ ms/);
  const tools = JSON.parse((await cli("mcp", "tools", "echo", "--json")).stdout);
  const hidden = tools.tools.find((x: { tool: string }) => x.tool === "hidden");
  assert.deepStrictEqual([hidden.modelName, hidden.visible, hidden.allowed], [
    "mcp__echo__hidden",
    false,
    true,
  ]);
  assert.deepStrictEqual(tools.servers[0].state, "ready");
  // Issue #13: a cursor-looping server is a protocol error naming the server (exit 1), never "none".
  const resources = await cli("mcp", "resources", "fx", "--json");
  assert.deepStrictEqual([resources.code, JSON.parse(resources.stdout)], [1, []]);
  assert.match(resources.stderr, /MCP server 'fx': resources\/list returned duplicate cursor/);
  const text = await cli("mcp", "resources", "fx");
  assert.deepStrictEqual(text.code, 1);
  assert.doesNotMatch(text.stdout, /No resources/);
  const badArgs = await cli("mcp", "call", "echo", "echo", "--args", "{nope");
  assert.deepStrictEqual(badArgs.code, 2);
});

// Issue #21 item 9: a server read in place from Claude Code's or Codex's files is switched off for
// Trellis only by a bare `[mcp_servers.X] enabled = false` in Trellis's config; `mcp remove` refuses.
async function peerSandbox() {
  const { root, env } = await makeSandboxHome();
  const home = env.HOME;
  await platform.fs.writeTextFile(
    `${home}/.claude.json`,
    JSON.stringify({ mcpServers: { claudy: { command: "node", args: ["c.js"] } } }),
  );
  await platform.fs.mkdir(`${home}/.codex`);
  await platform.fs.writeTextFile(`${home}/.codex/config.toml`, `[mcp_servers.codexy]\ncommand = "true"\n`);
  const file = `${env.TRELLIS_HOME}/config.toml`;
  const cli = (...argv: string[]) => runCliCaptured(argv, { env, cwd: root });
  const listed = async () =>
    Object.fromEntries(
      JSON.parse((await cli("mcp", "list", "--json")).stdout).map((
        s: { name: string; enabled: boolean; source: string; switched_by: string | null },
      ) => [s.name, [s.enabled, s.switched_by === null ? null : "switched"]]),
    );
  return { home, file, cli, listed };
}

Deno.test("mcp disable of a server from ~/.claude.json writes a veto for Trellis only; enable removes it (#21 item 9)", async () => {
  const { home, file, cli, listed } = await peerSandbox();
  const claudeBefore = await platform.fs.readTextFile(`${home}/.claude.json`);
  const off = await cli("mcp", "disable", "claudy");
  assert.deepStrictEqual(off.code, 0, off.stderr);
  assert.match(off.stdout, /Disabled MCP server 'claudy' \(defined in .*\.claude\.json\) for Trellis only/);
  assert.deepStrictEqual(await platform.fs.readTextFile(file), "[mcp_servers.claudy]\nenabled = false\n");
  assert.deepStrictEqual(await platform.fs.readTextFile(`${home}/.claude.json`), claudeBefore);
  assert.deepStrictEqual(await listed(), { claudy: [false, "switched"], codexy: [true, null] });
  const text = await cli("mcp", "list");
  assert.match(text.stdout, /claudy is off for Trellis only/);
  assert.doesNotMatch(text.stdout + text.stderr, /invalid transport|failed/);
  const on = await cli("mcp", "enable", "claudy");
  assert.deepStrictEqual(on.code, 0, on.stderr);
  assert.deepStrictEqual((await platform.fs.readTextFile(file)).trim(), "");
  assert.deepStrictEqual(await listed(), { claudy: [true, null], codexy: [true, null] });
  // Enabling a server that is on already writes nothing.
  const again = await cli("mcp", "enable", "codexy");
  assert.deepStrictEqual([again.code, again.stdout], [
    0,
    `MCP server 'codexy' (from ${home}/.codex/config.toml) is already enabled\n`,
  ]);
});

Deno.test("a hand-written veto over a Codex server is a switch, not an invalid transport; mcp remove refuses it (#21 item 9)", async () => {
  const { home, file, cli, listed } = await peerSandbox();
  await platform.fs.writeTextFile(file, "[mcp_servers.codexy]\nenabled = false\n");
  assert.deepStrictEqual(await listed(), { claudy: [true, null], codexy: [false, "switched"] });
  const removed = await cli("mcp", "remove", "claudy");
  assert.deepStrictEqual(removed.code, 2);
  assert.match(removed.stderr, /Cannot remove MCP server 'claudy': it is defined in .*\.claude\.json/);
  assert.match(removed.stderr, /trellis mcp disable claudy/);
  assert.deepStrictEqual(
    await platform.fs.readTextFile(`${home}/.claude.json`).then((t) =>
      JSON.parse(t).mcpServers.claudy.command
    ),
    "node",
  );
  // A switch with no server behind it is named, and loses nothing else.
  await platform.fs.writeTextFile(file, "[mcp_servers.ghost]\nenabled = false\n");
  const list = await cli("mcp", "list");
  assert.match(
    list.stderr,
    /\[mcp_servers\.ghost\] in .*config\.toml only sets enabled, and no MCP server "ghost" is defined elsewhere/,
  );
  assert.deepStrictEqual(await listed(), { claudy: [true, null], codexy: [true, null] });
  // The neighbour: a table with other keys but no transport is still invalid, named.
  await platform.fs.writeTextFile(file, `[mcp_servers.half]\nenabled = true\nargs = ["x"]\n`);
  const half = await cli("mcp", "list");
  assert.match(half.stdout + half.stderr, /half.*invalid transport: set command \(stdio\) or url/s);
});

Deno.test("a project may switch a user's server off, never on (#21 item 9)", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(
    `${env.HOME}/.claude.json`,
    JSON.stringify({ mcpServers: { s: { command: "true" } } }),
  );
  await platform.fs.mkdir(`${root}/p/.trellis`);
  await platform.fs.writeTextFile(`${root}/p/.trellis/config.toml`, "[mcp_servers.s]\nenabled = true\n");
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.s]\nenabled = false\n${trustEntry(`${root}/p`)}`,
  );
  const out = await runCliCaptured(["mcp", "list", "--json"], { env, cwd: `${root}/p` });
  assert.deepStrictEqual(JSON.parse(out.stdout).map((s: { enabled: boolean }) => s.enabled), [false]);
  assert.match(out.stderr, /Ignored \[mcp_servers\.s\] enabled = true in .*p\/\.trellis\/config\.toml/);
});

Deno.test(".mcp.json entries with a wrong type/command/url combination are listed failed, as config.toml's are (#21 item 10)", async () => {
  const { root, env } = await makeSandboxHome();
  const project = `${root}/p`;
  await platform.fs.mkdir(project);
  await platform.fs.writeTextFile(
    `${project}/.mcp.json`,
    JSON.stringify({
      mcpServers: {
        http_with_command: { type: "http", command: "node" },
        stdio_without_command: { type: "stdio", args: ["x"] },
        shared: { type: "http" },
        good: { command: "true" },
      },
    }),
  );
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.toml_bad]\ncommand = "x"\nurl = "http://h/mcp"\n${trustEntry(project)}`,
  );
  // A working server of the same name elsewhere is never evicted by a broken entry.
  await platform.fs.writeTextFile(
    `${env.HOME}/.claude.json`,
    JSON.stringify({ mcpServers: { shared: { command: "true" } } }),
  );
  const cli = (...argv: string[]) => runCliCaptured(argv, { env, cwd: project });
  const listed = await cli("mcp", "list", "--json");
  assert.deepStrictEqual(listed.code, 0, listed.stderr);
  const rows = JSON.parse(listed.stdout).map((
    s: { name: string; status?: string; enabled: boolean; source: string; origin: string },
  ) => [s.name, s.status ?? (s.enabled ? "enabled" : "disabled"), s.source.replace(root, ""), s.origin]);
  assert.deepStrictEqual(rows, [
    ["good", "enabled", "/p/.mcp.json", "claude"],
    ["http_with_command", "failed", "/p/.mcp.json", "claude"],
    ["shared", "enabled", "/home/.claude.json", "claude"],
    ["stdio_without_command", "failed", "/p/.mcp.json", "claude"],
    ["toml_bad", "failed", "/home/.trellis/config.toml", "trellis"],
  ]);
  const text = await cli("mcp", "list");
  assert.match(text.stdout, /http_with_command failed: /);
  assert.match(text.stdout, /stdio_without_command failed: command: invalid transport/);
});

Deno.test("after import codex, the servers defined in both files are one note, not a line each (#21 item 11)", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.mkdir(`${env.HOME}/.codex`);
  const codex = `${env.HOME}/.codex/config.toml`;
  await platform.fs.writeTextFile(
    codex,
    `[mcp_servers.a]\ncommand = "true"\n[mcp_servers.b]\ncommand = "true"\n[mcp_servers.c]\ncommand = "true"\n`,
  );
  const cli = (...argv: string[]) => runCliCaptured(argv, { env, cwd: root });
  assert.deepStrictEqual((await cli("import", "codex")).code, 0);
  const list = await cli("mcp", "list");
  const notes = list.stderr.split("\n").filter((l) => /also defined|more than once/.test(l));
  assert.deepStrictEqual(notes, [
    `note: 3 MCP servers (a, b, c) are also defined in ${codex}; using ${env.TRELLIS_HOME}/config.toml`,
  ]);
  // (The neighbour — two plugins clashing over a name stay a warning each — is in mcp_json_test.ts.)
});
