import assert from "node:assert/strict";
// Not on lib/app's door (no front end needs it): the test reaches the session's own wiring directly.
import { wireHooks } from "../../lib/app/hooks_wiring.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { loadHooks, type PluginHookSource } from "../../lib/hooks/mod.ts";
import { detectSandbox, type Platform, platform } from "../../lib/platform/mod.ts";
import { discardEvents } from "../../lib/shared/mod.ts";
import { resolvePermissionProfile } from "../../lib/tools/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

// HK-6: hooks run as the user; `[hooks] sandbox = "shell"` / `hooks_sandbox` confine them in the
// profile `shell` runs in, under real bwrap, PLUGIN_DATA staying writable.

// The command each hook runs: exit 2 with what it could write as the block reason.
const PROBE = `exec >&2; (echo x > "$HOME/log.txt" && echo home) 2>/dev/null; ` +
  `(echo x > "\${PLUGIN_DATA:-/nonexistent}/state" && echo data) 2>/dev/null; echo done; exit 2`;
const probeHooks = {
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: PROBE }] }] },
};

/**
 * #26 item 5: through the wiring a session uses (`wireHooks`: discovery, trust, confinement with the
 * process's environment), not an engine assembled here. `hook()` is the user's own hook
 * ($TRELLIS_HOME/hooks.json), `hook(id)` the same hook from plugin `id`; each trusted as
 * `trellis hooks trust` records it.
 */
async function setup(config: string, sandboxMode: string) {
  const { root, env } = await makeSandboxHome();
  const work = `${root}/work`;
  await platform.fs.mkdir(work);
  await platform.fs.mkdir(`${root}/tmp`);
  const dataDir = `${root}/plugin-data/demo`;
  await platform.fs.mkdir(dataDir);
  const configText = `sandbox_mode = "${sandboxMode}"\n${config}`;
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, configText);
  const source = (pluginId: string): PluginHookSource => ({
    pluginId,
    pluginRoot: `${root}/plugins/${pluginId}`,
    dataDir,
    sourcePath: "hooks/hooks.json",
    hooks: probeHooks,
    contentDigest: `sha256:${"0".repeat(64)}`,
  });
  const load = () => loadConfig(platform.fs, { cwd: work, env: (name) => env[name] });
  // The process environment the session hands its hooks, as a user's would be: this test's home.
  const userEnv = { PATH: platform.env("PATH") ?? "/usr/bin:/bin", SHELL: "/bin/sh", HOME: env.HOME };
  const session: Platform = {
    ...platform,
    env: (name) => userEnv[name as keyof typeof userEnv],
    envAll: () => userEnv,
  };
  const sandbox = await detectSandbox(platform);
  assert.deepStrictEqual(sandbox.available, true, "bwrap must work here (CI installs it)");
  const hook = (pluginId?: string) => pluginId;
  const run = async (pluginId?: string) => {
    await platform.fs.writeTextFile(
      `${env.TRELLIS_HOME}/hooks.json`,
      pluginId === undefined ? JSON.stringify(probeHooks) : "{}",
    );
    const pluginSources = pluginId === undefined ? [] : [source(pluginId)];
    // Trust what is declared, as `trellis hooks trust` writes it, then load again as a session does.
    const declared = await loadHooks({ loaded: await load(), platform, pluginSources });
    const state = declared.handlers.map((h) =>
      `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = "${h.hash}"\n` +
      (h.contentHash ? `content_hash = "${h.contentHash}"\n` : "")
    ).join("");
    await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, `${configText}\n${state}`);
    const loaded = await load();
    const profile = await resolvePermissionProfile(loaded.config, work, {
      fs: platform.fs,
      tempDir: `${root}/tmp`,
    });
    const hooks = wireHooks({
      platform: session,
      loaded,
      events: discardEvents,
      loadedHooks: await loadHooks({ loaded, platform: session, pluginSources }),
      sandbox,
      profile,
      threadId: "t",
    });
    const out = await hooks.preToolUse({
      sessionId: "s",
      turnId: "t",
      cwd: work,
      model: "m",
      permissionMode: "default",
      transcriptPath: null,
      signal: new AbortController().signal,
    }, { toolName: "Bash", aliases: [], toolInput: { command: "ls" }, toolUseId: "c" });
    assert.ok(out.block, "the trusted hook ran and blocked");
    return out.block.reason.split("\n").join(" ");
  };
  return { run, hook };
}

Deno.test("hooks run as the user by default: they write under ~ although shell is sandboxed (HK-6, #14)", async () => {
  const { run, hook } = await setup("", "workspace-write");
  assert.deepStrictEqual([await run(hook()), await run(hook("demo@test"))], ["home done", "home data done"]);
});

Deno.test('[hooks] sandbox = "shell" confines every hook in shell\'s profile, PLUGIN_DATA writable even read-only (#13, #14)', async () => {
  const workspace = await setup('[hooks]\nsandbox = "shell"\n', "workspace-write");
  assert.deepStrictEqual(
    [await workspace.run(workspace.hook()), await workspace.run(workspace.hook("demo@test"))],
    ["done", "data done"],
  );
  const readOnly = await setup('[hooks]\nsandbox = "shell"\n', "read-only");
  assert.deepStrictEqual(await readOnly.run(readOnly.hook("demo@test")), "data done");
});

Deno.test('[plugins."id"] hooks_sandbox = true confines that plugin\'s hooks only (HK-6)', async () => {
  const { run, hook } = await setup('[plugins."demo@test"]\nhooks_sandbox = true\n', "workspace-write");
  assert.deepStrictEqual(
    [await run(hook("demo@test")), await run(hook("other@test")), await run(hook())],
    ["data done", "home data done", "home done"],
  );
});
