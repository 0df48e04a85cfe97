/**
 * Issue 14 item 9 (HK-2, HK-3): a Codex user's hooks ($CODEX_HOME/hooks.json and config.toml
 * [hooks]), a Claude Code user's settings hooks and their installed plugins' hooks are found in
 * place, with their origin — and like every unmanaged hook they run only once trusted.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config/mod.ts";
import { loadHooks } from "../../lib/hooks/mod.ts";
import { type Platform, platform } from "../../lib/platform/mod.ts";
import { loadPlugins } from "../../lib/plugins/mod.ts";
import { writePeerHome } from "../helpers/peer_home.ts";

const fs = platform.fs;

async function sandbox() {
  const root = await fs.realPath(await fs.makeTempDir("trellis-peer-hooks-"));
  const home = `${root}/home`;
  const project = `${root}/repo`;
  await fs.mkdir(`${project}/.git`);
  await fs.mkdir(`${home}/.trellis`);
  const peer = await writePeerHome(home, project);
  const env: Record<string, string> = {
    HOME: home,
    TRELLIS_HOME: `${home}/.trellis`,
    TRELLIS_SYSTEM_DIR: `${root}/etc`,
  };
  const local: Platform = { ...platform, env: (n) => env[n] };
  const hooks = async (overrides: string[] = []) => {
    const loaded = await loadConfig(fs, { cwd: project, env: local.env, overrides });
    const { contributions } = await loadPlugins({ loaded, platform: local });
    return await loadHooks({ loaded, platform: local, pluginSources: contributions.hookSources });
  };
  return { root, home, peer, hooks };
}

Deno.test("loadHooks() lists Codex's and Claude Code's hooks with their origin and file, every one untrusted until trusted", async () => {
  const { peer, hooks } = await sandbox();
  const loaded = await hooks();
  assert.deepStrictEqual(
    loaded.handlers.map((h) => [h.origin, h.sourceKind, h.event, h.command, h.key, h.trust, h.runnable]),
    [
      [
        "codex",
        "codex_user",
        "Stop",
        "echo codex-stop",
        `${peer.codexHome}/hooks.json:stop:0:0`,
        "untrusted",
        false,
      ],
      [
        "codex",
        "codex_user",
        "PreToolUse",
        "echo codex-guard",
        `${peer.codexHome}/config.toml:pre_tool_use:0:0`,
        "untrusted",
        false,
      ],
      [
        "claude",
        "claude_user",
        "PostToolUse",
        "echo claude-formatter",
        `${peer.claudeDir}/settings.json:post_tool_use:0:0`,
        "untrusted",
        false,
      ],
      [
        "claude",
        "plugin",
        "SessionStart",
        "${CLAUDE_PLUGIN_ROOT}/scripts/start.sh",
        "notes-kit@acme-tools:hooks/hooks.json:session_start:0:0",
        "untrusted",
        false,
      ],
    ],
  );
  assert.deepStrictEqual(loaded.needsReview, 4);
  // Codex's own trust records in its config.toml are never Trellis's; Codex's rule for a layer
  // written in two files is kept.
  assert.deepStrictEqual(loaded.diagnostics.map((d) => d.message), [
    `loading hooks from both ${peer.codexHome}/hooks.json and ${peer.codexHome}/config.toml; prefer a single representation for this layer`,
  ]);
});

Deno.test("loadHooks() runs a Codex hook once its hash is trusted in Trellis's user config", async () => {
  const { home, hooks } = await sandbox();
  const first = (await hooks()).handlers.find((h) => h.command === "echo codex-guard")!;
  await fs.writeTextFile(
    `${home}/.trellis/config.toml`,
    `[hooks.state."${first.key}"]\ntrusted_hash = "${first.hash}"\n`,
  );
  const again = (await hooks()).handlers.find((h) => h.command === "echo codex-guard")!;
  assert.deepStrictEqual([again.trust, again.runnable], ["trusted", true]);
});

Deno.test("loadHooks() reads no Codex file with [compat] codex_hooks and codex_config off, and no Claude settings with hooks.claude_code off", async () => {
  const { hooks } = await sandbox();
  const loaded = await hooks([
    "compat.codex_hooks=false",
    "compat.codex_config=false",
    "hooks.claude_code=false",
  ]);
  assert.deepStrictEqual(loaded.handlers.map((h) => [h.origin, h.sourceKind]), [["claude", "plugin"]]);
  assert.deepStrictEqual(loaded.diagnostics, []);
});

Deno.test("loadHooks(): a Codex config.toml that does not parse is one warning naming it; hooks.json still loads", async () => {
  const { peer, hooks } = await sandbox();
  await fs.writeTextFile(`${peer.codexHome}/config.toml`, "[[hooks.PreToolUse]\n");
  const loaded = await hooks();
  assert.deepStrictEqual(loaded.handlers.filter((h) => h.origin === "codex").map((h) => h.command), [
    "echo codex-stop",
  ]);
  assert.deepStrictEqual(loaded.diagnostics.map((d) => [d.level, d.file]), [[
    "warning",
    `${peer.codexHome}/config.toml`,
  ]]);
});
