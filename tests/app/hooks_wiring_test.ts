import assert from "node:assert/strict";
import { hookConfinement } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { createHookEngine, type HookHandlerInfo, hookTrustHash } from "../../lib/hooks/mod.ts";
import { detectSandbox, platform } from "../../lib/platform/mod.ts";
import { discardEvents } from "../../lib/shared/mod.ts";
import { resolvePermissionProfile } from "../../lib/tools/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

// HK-6: hooks run as the user; `[hooks] sandbox = "shell"` / `hooks_sandbox` confine them in the
// profile `shell` runs in, under real bwrap, PLUGIN_DATA staying writable.

async function setup(config: string, sandboxMode: string) {
  const { root, env } = await makeSandboxHome();
  const work = `${root}/work`;
  await platform.fs.mkdir(work);
  await platform.fs.mkdir(`${root}/tmp`);
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    `sandbox_mode = "${sandboxMode}"\n${config}`,
  );
  const loaded = await loadConfig(platform.fs, { cwd: work, env: (name) => env[name] });
  const profile = await resolvePermissionProfile(loaded.config, work, {
    fs: platform.fs,
    tempDir: `${root}/tmp`,
  });
  const sandbox = await detectSandbox(platform);
  assert.deepStrictEqual(sandbox.available, true, "bwrap must work here (CI installs it)");
  const dataDir = `${root}/plugin-data/demo`;
  const hook = (pluginId?: string): HookHandlerInfo => {
    const base = {
      key: `k:${pluginId ?? "user"}`,
      event: "PreToolUse" as const,
      // Exit 2 with what it could write as the block reason.
      command: `exec >&2; (echo x > "$HOME/log.txt" && echo home) 2>/dev/null; ` +
        `(echo x > "\${PLUGIN_DATA:-/nonexistent}/state" && echo data) 2>/dev/null; echo done; exit 2`,
      timeoutSec: 30,
      onFailure: "ignore" as const,
      sourcePath: "/hooks.json",
      sourceKind: pluginId ? "plugin" as const : "user" as const,
      managed: false,
      groupIndex: 0,
      handlerIndex: 0,
      displayOrder: 0,
      trust: "trusted" as const,
      enabled: true,
      runnable: true,
      ...(pluginId ? { plugin: { pluginId, pluginRoot: root, dataDir } } : {}),
    };
    return { ...base, hash: hookTrustHash(base) };
  };
  const run = async (handler: HookHandlerInfo) => {
    const engine = createHookEngine({
      handlers: [handler],
      platform,
      events: discardEvents,
      home: env.TRELLIS_HOME,
      threadId: "t",
      baseEnv: { PATH: platform.env("PATH") ?? "/usr/bin:/bin", SHELL: "/bin/sh", HOME: env.HOME },
      confine: hookConfinement(loaded, sandbox, profile),
    });
    const signal = new AbortController().signal;
    const ctx = {
      sessionId: "s",
      turnId: "t",
      cwd: work,
      model: "m",
      permissionMode: "default",
      transcriptPath: null,
      signal,
    };
    const out = await engine.preToolUse(ctx, {
      toolName: "Bash",
      aliases: [],
      toolInput: { command: "ls" },
      toolUseId: "c",
    });
    return out.block?.reason.split("\n").join(" ");
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
