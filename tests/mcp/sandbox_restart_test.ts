import assert from "node:assert/strict";
import { mcpConfinement } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { callManagerTool, type McpRuntime, resolveCatalog } from "../../lib/mcp/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { fixture, startRuntime, stdio } from "./_helpers.ts";

/**
 * #20 item 18: a server whose `sandbox` is tightened in the config runs under the new profile from
 * the next refresh on — a running connection is reused only when its profile is the same (its
 * identity covers the profile), with real bwrap and a real server that writes files.
 */

const SERVER = fixture("sandbox_server.mjs");

async function write(runtime: McpRuntime, path: string) {
  const result = await callManagerTool(
    runtime.manager,
    { server: "fx", tool: "write_file", args: { path, text: "x" } },
    { callId: "c", signal: new AbortController().signal },
    { events: () => {} },
  );
  return result;
}

const exists = async (path: string) => (await platform.fs.lstat(path)) !== null;

// Fails when connectionIdentity stops covering the profile (`sandbox` dropped from it): the
// workspace-write process is reused after the tightening and the write into the workspace succeeds.
Deno.test("#20 item 18: tightening a server's sandbox restarts it read-only; a policy-only change keeps the process", async () => {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  const cache = `${root}/cache`;
  await platform.fs.mkdir(`${ws}/.git`);
  await platform.fs.mkdir(cache);
  const loaded = await loadConfig(platform.fs, { cwd: ws, env: (n) => env[n] });
  // Each start of the server writes `started` into its one writable directory.
  const server = (extra: Record<string, unknown>) =>
    stdio("fx", [SERVER, "--startup-write", `${cache}/started`], {
      sandbox_writable: [cache],
      required: true,
      ...extra,
    });
  const catalog = (extra: Record<string, unknown>) =>
    resolveCatalog([{ tier: "config", source: "test", config: server(extra) }]);
  const { runtime } = await startRuntime([server({ sandbox: "workspace-write" })], {
    extra: { cwd: ws, confine: mcpConfinement(platform, loaded) },
  });
  try {
    await runtime.awaitStartup({ graceMs: 30_000 });
    const before = await write(runtime, `${ws}/a.txt`);
    assert.deepStrictEqual(before.status, "success", before.output);
    assert.ok(await exists(`${cache}/started`));
    await platform.fs.remove(`${cache}/started`);

    // The neighbour: a change that is not the profile reuses the running server (no new start).
    await runtime.refresh(catalog({ sandbox: "workspace-write", disabled_tools: ["connect"] }), {
      strict: true,
    });
    assert.deepStrictEqual((await write(runtime, `${ws}/b.txt`)).status, "success");
    assert.equal(await exists(`${cache}/started`), false, "a policy-only change restarted the server");

    // Tightened: a new process, in the read-only profile.
    await runtime.refresh(catalog({ sandbox: "read-only" }), { strict: true });
    const after = await write(runtime, `${ws}/c.txt`);
    assert.deepStrictEqual(after.status, "error");
    assert.match(after.output, /EROFS/);
    assert.equal(await exists(`${ws}/c.txt`), false);
    assert.ok(await exists(`${cache}/started`), "the tightened server was not started again");
  } finally {
    await runtime.shutdown();
    await platform.fs.remove(root, { recursive: true });
  }
});
