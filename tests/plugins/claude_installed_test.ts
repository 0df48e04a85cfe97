/**
 * Issue 14 item 9 (PL-9): the plugins a Claude Code user installed are read in place from
 * `~/.claude/plugins` — what `installed_plugins.json` lists, on when `enabledPlugins` says so — and
 * projected like Trellis's own, marked as Claude Code's.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { loadConfig } from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { mcpServersFromConfig } from "../../lib/mcp/mod.ts";
import { loadPlugins, readClaudeInstalledPlugins } from "../../lib/plugins/mod.ts";
import { writePeerHome } from "../helpers/peer_home.ts";
import { trustEntry } from "../helpers/trust_project.ts";

const fs = platform.fs;

async function sandbox(extraToml = "") {
  const root = await fs.realPath(await fs.makeTempDir("trellis-claude-plugins-"));
  const home = `${root}/home`;
  const project = `${root}/repo`;
  await fs.mkdir(`${project}/.git`);
  await fs.mkdir(`${home}/.trellis`);
  const peer = await writePeerHome(home, project);
  await fs.writeTextFile(`${home}/.trellis/config.toml`, extraToml);
  const env: Record<string, string> = {
    HOME: home,
    TRELLIS_HOME: `${home}/.trellis`,
    TRELLIS_SYSTEM_DIR: `${root}/etc`,
  };
  const load = (overrides: string[] = [], extra: Record<string, string> = {}) =>
    loadConfig(fs, { cwd: project, env: (n) => ({ ...env, ...extra })[n], overrides });
  const plugins = path.join(peer.claudeDir, "plugins");
  return { root, home, project, peer, load, plugins };
}

Deno.test("readClaudeInstalledPlugins() lists what installed_plugins.json holds, enabled as settings.json's enabledPlugins says", async () => {
  const { load, peer, plugins } = await sandbox();
  const read = await readClaudeInstalledPlugins(fs, await load());
  assert.deepStrictEqual(read.diagnostics, []);
  assert.deepStrictEqual(
    read.items.map((p) => [p.id.key, p.enabled, p.root, p.version, p.dataDir]),
    [
      ["lint-kit@acme-tools", false, null, "1.2.0", `${plugins}/data/lint-kit-acme-tools`],
      ["notes-kit@acme-tools", true, peer.pluginRoot, "1.2.0", `${plugins}/data/notes-kit-acme-tools`],
    ],
  );
  // The marketplace clone's entry (strict: it supplements plugin.json) is found through known_marketplaces.json.
  assert.deepStrictEqual(read.items[1].entry, {
    strict: true,
    fields: { commands: ["./extra-commands/"], description: "Notes." },
  });
});

Deno.test("loadPlugins() projects an enabled Claude Code plugin's skills, commands, hooks and MCP servers, marked origin claude", async () => {
  const { load, peer, plugins } = await sandbox();
  const result = await loadPlugins({ loaded: await load(), platform });
  assert.deepStrictEqual(
    result.plugins.map((p) => [p.id, p.origin, p.enabled, p.active]),
    [["lint-kit@acme-tools", "claude", false, false], ["notes-kit@acme-tools", "claude", true, true]],
  );
  const c = result.contributions;
  const dataDir = `${plugins}/data/notes-kit-acme-tools`;
  assert.deepStrictEqual(c.skillRoots, [
    {
      path: `${peer.pluginRoot}/skills`,
      pluginId: "notes-kit@acme-tools",
      namespace: "notes-kit",
      origin: "claude",
    },
  ]);
  assert.deepStrictEqual(c.commandRoots.map((r) => [r.path, r.origin]), [[
    `${peer.pluginRoot}/extra-commands`,
    "claude",
  ]]);
  assert.deepStrictEqual(
    c.mcpServers.map((s) => [s.name, s.pluginRoot, s.dataDir, s.origin]),
    [["notes_kit_fx", peer.pluginRoot, dataDir, "claude"]],
  );
  assert.deepStrictEqual(
    c.hookSources.map((h) => [h.sourcePath, h.env.CLAUDE_PLUGIN_ROOT, h.env.CLAUDE_PLUGIN_DATA, h.origin]),
    [["hooks/hooks.json", peer.pluginRoot, dataDir, "claude"]],
  );
  assert.deepStrictEqual(result.diagnostics, []);
});

Deno.test('loadPlugins(): [plugins."<id>"] enabled = false turns a Claude Code plugin off; its mcp_servers overrides apply', async () => {
  const { load } = await sandbox(
    '[plugins."notes-kit@acme-tools".mcp_servers.notes_kit_fx]\nenabled = false\n\n[plugins."lint-kit@acme-tools"]\nenabled = false\n',
  );
  const loaded = await load();
  const tuned = await loadPlugins({ loaded, platform });
  // Not a Trellis plugin that is missing: the entry tunes the Claude Code plugin of that id.
  assert.deepStrictEqual(tuned.diagnostics, []);
  const { catalog } = mcpServersFromConfig(loaded, {
    platform,
    pluginServers: tuned.contributions.mcpServers,
  });
  assert.deepStrictEqual(catalog.disabled.map((r) => [r.config.name, r.origin]), [[
    "notes_kit_fx",
    "claude",
  ]]);
  assert.deepStrictEqual(tuned.plugins.map((p) => [p.id, p.origin, p.enabled, p.active]), [
    ["lint-kit@acme-tools", "claude", false, false],
    ["notes-kit@acme-tools", "claude", true, true],
  ]);
  const { load: loadOff } = await sandbox('[plugins."notes-kit@acme-tools"]\nenabled = false\n');
  const off = await loadPlugins({ loaded: await loadOff(), platform });
  assert.deepStrictEqual(off.plugins.map((p) => [p.id, p.enabled, p.active]), [
    ["lint-kit@acme-tools", false, false],
    ["notes-kit@acme-tools", false, false],
  ]);
  assert.deepStrictEqual(off.contributions.skillRoots, []);
});

Deno.test("loadPlugins(): Trellis's own install of the same id wins, with a note; [compat] claude_plugins = false reads none", async () => {
  const { load, home } = await sandbox('[plugins."notes-kit@acme-tools"]\nenabled = true\n');
  const own = `${home}/.trellis/plugins/cache/acme-tools/notes-kit/9.0.0`;
  await fs.mkdir(`${own}/skills/own`);
  await fs.writeTextFile(`${own}/skills/own/SKILL.md`, "---\nname: own\ndescription: Trellis's copy.\n---\n");
  const shadowed = await loadPlugins({ loaded: await load(), platform });
  assert.deepStrictEqual(shadowed.plugins.map((p) => [p.id, p.origin ?? "trellis", p.version, p.active]), [
    ["notes-kit@acme-tools", "trellis", "9.0.0", true],
    ["lint-kit@acme-tools", "claude", "1.2.0", false],
  ]);
  assert.match(
    shadowed.diagnostics.map((d) => d.message).join("\n"),
    /Claude Code plugin notes-kit@acme-tools is not loaded from ~\/\.claude: Trellis has its own install of it/,
  );
  assert.deepStrictEqual(shadowed.contributions.skillRoots.map((r) => r.path), [`${own}/skills`]);
  const off = await loadPlugins({ loaded: await load(["compat.claude_plugins=false"]), platform });
  assert.deepStrictEqual(off.plugins.map((p) => [p.id, p.origin ?? "trellis"]), [[
    "notes-kit@acme-tools",
    "trellis",
  ]]);
});

Deno.test("readClaudeInstalledPlugins(): a missing installed copy is one warning naming installed_plugins.json; the rest loads", async () => {
  const { load, peer, plugins } = await sandbox();
  const settings = path.join(peer.claudeDir, "settings.json");
  const value = JSON.parse(await fs.readTextFile(settings));
  value.enabledPlugins["lint-kit@acme-tools"] = true;
  await fs.writeTextFile(settings, JSON.stringify(value));
  await fs.remove(path.join(plugins, "cache", "acme-tools", "lint-kit"), { recursive: true });
  const result = await loadPlugins({ loaded: await load(), platform });
  const file = path.join(plugins, "installed_plugins.json");
  assert.deepStrictEqual(result.diagnostics.map((d) => [d.level, d.file, d.subject]), [
    ["warning", file, "lint-kit@acme-tools"],
  ]);
  assert.match(
    result.diagnostics[0].message,
    /Claude Code plugin lint-kit@acme-tools: its installed copy ".*lint-kit\/1\.2\.0" is missing/,
  );
  assert.deepStrictEqual(result.plugins.map((p) => [p.id, p.active, p.error ?? null]), [
    ["lint-kit@acme-tools", false, "installed copy is missing"],
    ["notes-kit@acme-tools", true, null],
  ]);
  assert.deepStrictEqual(result.contributions.mcpServers.map((s) => s.name), ["notes_kit_fx"]);
});

Deno.test("readClaudeInstalledPlugins(): an install list that is not JSON, or of the wrong shape, is one warning naming it", async () => {
  const { load, plugins } = await sandbox();
  const file = path.join(plugins, "installed_plugins.json");
  for (
    const [text, pattern] of [["{ nope", /not JSON/], [
      '{"version": 2, "plugins": []}',
      /expected \{"plugins"/,
    ]] as const
  ) {
    await fs.writeTextFile(file, text);
    const read = await readClaudeInstalledPlugins(fs, await load());
    assert.deepStrictEqual(read.items, []);
    assert.deepStrictEqual(read.diagnostics.map((d) => [d.level, d.file]), [["warning", file]]);
    assert.match(read.diagnostics[0].message, pattern);
  }
});

Deno.test("readClaudeInstalledPlugins() reads version 1's one object per id, and counts a project-scoped install only in that project", async () => {
  const { load, plugins, project, peer } = await sandbox();
  await fs.writeTextFile(
    path.join(plugins, "installed_plugins.json"),
    JSON.stringify({
      version: 1,
      plugins: {
        "notes-kit@acme-tools": {
          version: "1.2.0",
          installPath: peer.pluginRoot,
          installedAt: "x",
          isLocal: false,
        },
        "lint-kit@acme-tools": [{
          scope: "local",
          projectPath: "/srv/other",
          installPath: "/nowhere",
          version: "1",
        }],
      },
    }),
  );
  const read = await readClaudeInstalledPlugins(fs, await load());
  assert.deepStrictEqual(read.items.map((p) => [p.id.key, p.enabled, p.root]), [[
    "notes-kit@acme-tools",
    true,
    peer.pluginRoot,
  ]]);
  assert.ok(project);
});

Deno.test("readClaudeInstalledPlugins(): a project's .claude/settings.json turns plugins on only when the project is trusted", async () => {
  const { load, project, home, plugins } = await sandbox();
  await fs.mkdir(`${project}/.claude`);
  await fs.writeTextFile(
    `${project}/.claude/settings.json`,
    JSON.stringify({ enabledPlugins: { "lint-kit@acme-tools": true } }),
  );
  const untrusted = await readClaudeInstalledPlugins(fs, await load());
  assert.deepStrictEqual(untrusted.items.map((p) => [p.id.key, p.enabled]), [
    ["lint-kit@acme-tools", false],
    ["notes-kit@acme-tools", true],
  ]);
  assert.deepStrictEqual(untrusted.diagnostics.map((d) => d.level), ["info"]);
  assert.match(
    untrusted.diagnostics[0].message,
    /Skipped enabledPlugins in .*\(lint-kit@acme-tools\): this project is not trusted/,
  );
  await fs.writeTextFile(`${home}/.trellis/config.toml`, trustEntry(project));
  const trusted = await readClaudeInstalledPlugins(fs, await load());
  assert.deepStrictEqual(trusted.items.map((p) => [p.id.key, p.enabled, p.root !== null]), [
    ["lint-kit@acme-tools", true, true],
    ["notes-kit@acme-tools", true, true],
  ]);
  assert.ok(plugins);
});

Deno.test("readClaudeInstalledPlugins() looks under CLAUDE_CONFIG_DIR when it is set", async () => {
  const { load, root, peer } = await sandbox();
  await fs.rename(peer.claudeDir, `${root}/moved-claude`);
  assert.deepStrictEqual((await readClaudeInstalledPlugins(fs, await load())).items, []);
  const moved = await readClaudeInstalledPlugins(
    fs,
    await load([], { CLAUDE_CONFIG_DIR: `${root}/moved-claude` }),
  );
  // installPath still names the old place; the copy is found at its conventional cache path instead.
  assert.deepStrictEqual(moved.items.map((p) => [p.id.key, p.enabled, p.root]), [
    ["lint-kit@acme-tools", false, null],
    ["notes-kit@acme-tools", true, `${root}/moved-claude/plugins/cache/acme-tools/notes-kit/1.2.0`],
  ]);
});
