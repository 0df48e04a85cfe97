import assert from "node:assert/strict";
import { runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

const SERVER = new URL("../../fixtures/mcp/sandbox_server.mjs", import.meta.url).pathname;

Deno.test("#17 item 2: `trellis mcp sandbox-check` starts the server in its profile, lists tools and names what it was denied", async () => {
  const setup = await e2eSetup();
  try {
    const cache = `${setup.root}/cache`;
    await Deno.mkdir(`${setup.workspace}/.git`);
    await Deno.writeTextFile(
      `${setup.env.TRELLIS_HOME}/config.toml`,
      `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(SERVER)}, "--startup-write", ${
        JSON.stringify(`${cache}/state`)
      }]\nsandbox = "workspace-write"\n`,
    );
    await Deno.mkdir(cache);
    const denied = await runTrellis([
      "mcp",
      "sandbox-check",
      "fx",
      "--call",
      "write_file",
      "--args",
      JSON.stringify({ path: `${setup.workspace}/.git/hooks-pwned`, text: "x" }),
    ], { env: setup.env, cwd: setup.workspace, timeoutMs: 60_000 });
    assert.deepStrictEqual(denied.code, 1, denied.stderr);
    const lines = denied.stdout.split("\n");
    assert.deepStrictEqual(
      lines[0],
      'MCP server "fx": sandbox = "workspace-write", sandbox_network = false, sandbox_writable = [] (from the config)',
    );
    assert.match(lines[1], /^started in \d+ ms; 3 tools: write_file, read_file, connect$/);
    assert.ok(
      denied.stdout.includes(`denied (2):\n  EROFS ${cache}/state: cannot write cache: EROFS`),
      denied.stdout,
    );
    assert.ok(
      denied.stdout.includes(`    fix: sandbox_writable = [${JSON.stringify(cache)}] (or a parent of it)`),
    );
    assert.ok(denied.stdout.includes(`  EROFS ${setup.workspace}/.git/hooks-pwned:`));
    assert.ok(denied.stdout.includes("    fix: .git stays read-only in every sandbox"));
    // The fix it names works: nothing denied, exit 0, and the server really wrote its cache.
    const fixed = await runTrellis(["mcp", "sandbox-check", "fx", "--writable", cache], {
      env: setup.env,
      cwd: setup.workspace,
      timeoutMs: 60_000,
    });
    assert.deepStrictEqual(fixed.code, 0, fixed.stdout + fixed.stderr);
    assert.ok(fixed.stdout.includes("denied: nothing seen"), fixed.stdout);
    assert.deepStrictEqual(await Deno.readTextFile(`${cache}/state`), "cache");
    const missing = await runTrellis(["mcp", "sandbox-check", "nope"], {
      env: setup.env,
      cwd: setup.workspace,
    });
    assert.deepStrictEqual([missing.code, missing.stderr.trim()], [
      2,
      "error: No MCP server named 'nope' found.",
    ]);
  } finally {
    await Deno.remove(setup.root, { recursive: true });
  }
});
