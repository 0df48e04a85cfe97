import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { loadPlugins, renderPluginSummaries } from "../../lib/plugins/mod.ts";
import { pluginSandbox, writeJson } from "./_helpers.ts";

Deno.test("loadPlugins() projects skills, MCP, hooks and summaries of an installed plugin (PL-9/10/12)", async () => {
  const box = await pluginSandbox();
  const install = await box.cli("plugin", "install", "demo@test");
  assert.equal(install.code, 0, install.stderr);
  const home = box.env.TRELLIS_HOME;
  const root = `${home}/plugins/cache/test/demo/1.0.0`;
  const data = `${home}/plugins/data/demo@test`;
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.diagnostics, []);
  assert.deepStrictEqual(result.contributions, {
    skillRoots: [{ path: `${root}/skills`, pluginId: "demo@test", namespace: "demo" }],
    commandRoots: [],
    agents: [],
    mcpServers: [{
      pluginId: "demo@test",
      pluginRoot: root,
      dataDir: data,
      file: ".mcp.json",
      name: "echo",
      // As written: the MCP subsystem's one reader expands variables and checks the transport.
      config: {
        type: "stdio",
        command: "${CLAUDE_PLUGIN_ROOT}/bin/echo.sh",
        args: ["--data", "${PLUGIN_DATA}"],
        cwd: "./bin",
      },
    }],
    hookSources: [{
      pluginId: "demo@test",
      pluginRoot: root,
      dataDir: data,
      sourcePath: "hooks/hooks.json",
      hooks: JSON.parse(await platform.fs.readTextFile(`${root}/hooks/hooks.json`)),
      env: { PLUGIN_ROOT: root, PLUGIN_DATA: data, CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: data },
      // The tree as it is now, which a trusted hook covers (#20 item 7): here, the installed digest.
      contentDigest: result.plugins[0].digest,
    }],
    summaries: [{
      pluginId: "demo@test",
      configName: "demo@test",
      displayName: "Demo",
      description: "Says hello",
      hasSkills: true,
      mcpServerNames: ["echo"],
      appConnectorIds: ["connector_a", "connector_b"],
    }],
  });
  assert.equal(result.plugins[0].active, true);
  assert.match(result.plugins[0].digest ?? "", /^sha256:[0-9a-f]{64}$/);
  assert.ok((await platform.fs.stat(data))?.isDirectory);
  assert.ok(((await platform.fs.stat(`${root}/hooks/check.sh`))!.mode & 0o111) !== 0, "exec bit kept");
  assert.equal(
    renderPluginSummaries(result.contributions.summaries),
    "<plugins_instructions>\n## Plugins\nActive plugins and what they provide:\n" +
      "- Demo (`demo@test`) — Says hello [skills; MCP servers: echo; apps: connector_a, connector_b]\n" +
      "</plugins_instructions>",
  );
});

Deno.test("loadPlugins() reads a Claude Code plugin with inline hooks as plugin.json#hooks[0]", async () => {
  const box = await pluginSandbox();
  const install = await box.cli("plugin", "install", "claude-demo@test");
  assert.equal(install.code, 0, install.stderr);
  assert.equal(install.stderr, "");
  const result = await loadPlugins({ loaded: await box.config(), platform });
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/test/claude-demo/local`;
  assert.deepStrictEqual(result.contributions.commandRoots, [
    { path: `${root}/commands`, pluginId: "claude-demo@test", namespace: "claude-demo" },
  ]);
  assert.deepStrictEqual(result.contributions.hookSources.map((h) => [h.sourcePath, h.pluginRoot]), [
    ["plugin.json#hooks[0]", root],
  ]);
  assert.deepStrictEqual(result.contributions.skillRoots, [
    { path: `${root}/skills`, pluginId: "claude-demo@test", namespace: "claude-demo" },
  ]);
});

Deno.test("loadPlugins() marks plugins inactive with the PL-9 errors and projects nothing from them", async () => {
  const box = await pluginSandbox();
  await box.cli("plugin", "install", "demo@test");
  await platform.fs.remove(`${box.env.TRELLIS_HOME}/plugins/cache/test/demo`, { recursive: true });
  const config = `${box.env.TRELLIS_HOME}/config.toml`;
  await platform.fs.appendTextFile(
    config,
    '\n[plugins."ghost@test"]\nenabled = true\n\n[plugins."bad key"]\n',
  );
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.plugins.map((p) => [p.id, p.active, p.error]), [
    ["bad key", false, "invalid plugin key `bad key`; expected <plugin>@<marketplace>"],
    ["demo@test", false, "plugin is not installed"],
    ["ghost@test", false, "plugin is not installed"],
  ]);
  assert.deepStrictEqual(result.contributions, {
    skillRoots: [],
    commandRoots: [],
    agents: [],
    mcpServers: [],
    hookSources: [],
    summaries: [],
  });
});

Deno.test("loadPlugins() loads an installed plugin whose plugin.json is gone by the default layout (issue 14 revises PL-1)", async () => {
  const box = await pluginSandbox();
  await box.cli("plugin", "install", "demo@test");
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0`;
  await platform.fs.remove(`${root}/.codex-plugin/plugin.json`);
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.plugins.map((p) => [p.id, p.active, p.error]), [[
    "demo@test",
    true,
    undefined,
  ]]);
  assert.deepStrictEqual(result.contributions.skillRoots, [
    { path: `${root}/skills`, pluginId: "demo@test", namespace: "demo" },
  ]);
  assert.equal(result.contributions.summaries[0].displayName, "demo");
});

Deno.test("plugin disable/enable toggles [plugins.id] enabled in the user layer only (PL-5)", async () => {
  const box = await pluginSandbox();
  await box.cli("plugin", "install", "demo@test");
  assert.equal((await box.cli("plugin", "disable", "demo@test")).code, 0);
  let result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.plugins.map((p) => [p.id, p.enabled, p.active]), [[
    "demo@test",
    false,
    false,
  ]]);
  // A trusted project cannot re-enable it: plugin state comes from user-controlled layers only.
  await platform.fs.mkdir(`${box.root}/.git`);
  await platform.fs.mkdir(`${box.root}/.trellis`);
  await platform.fs.writeTextFile(
    `${box.root}/.trellis/config.toml`,
    '[plugins."demo@test"]\nenabled = true\n',
  );
  await box.cli("project", "trust");
  result = await loadPlugins({ loaded: await box.config(), platform });
  assert.equal(result.plugins[0].active, false);
  await box.cli("plugin", "enable", "demo@test");
  result = await loadPlugins({ loaded: await box.config(), platform });
  assert.equal(result.plugins[0].active, true);
});

Deno.test("plugin list --json and show report state, version and capabilities", async () => {
  const box = await pluginSandbox();
  await box.cli("plugin", "install", "demo@test");
  const list = await box.cli("plugin", "list", "--json");
  assert.equal(list.code, 0, list.stderr);
  const rows = JSON.parse(list.stdout);
  assert.deepStrictEqual(
    rows.map((r: { id: string; version: string; active: boolean }) => [r.id, r.version, r.active]),
    [
      ["demo@test", "1.0.0", true],
    ],
  );
  const text = await box.cli("plugin", "list");
  assert.equal(text.stdout, "demo@test  1.0.0  active  skills; mcp: echo; apps: connector_a,connector_b\n");
  const show = await box.cli("plugin", "show", "demo@test", "--json");
  assert.equal(JSON.parse(show.stdout).summary.displayName, "Demo");
});

Deno.test("plugin update republishes changed content even when the version string is unchanged", async () => {
  const box = await pluginSandbox();
  await box.cli("plugin", "install", "demo@test");
  const same = await box.cli("plugin", "update", "demo@test");
  assert.match(same.stdout, /demo@test is up to date \(1\.0\.0, sha256:/);
  await platform.fs.writeTextFile(
    `${box.market}/plugins/demo/skills/hello/SKILL.md`,
    "---\nname: hello\ndescription: v2\n---\n",
  );
  await platform.fs.writeTextFile(`${box.market}/plugins/demo/new.txt`, "new");
  const changed = await box.cli("plugin", "update");
  assert.equal(changed.code, 0, changed.stderr);
  assert.match(changed.stdout, /Updated demo@test: 1\.0\.0 → 1\.0\.0/);
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0`;
  assert.match(await platform.fs.readTextFile(`${root}/skills/hello/SKILL.md`), /v2/);
  assert.equal(await platform.fs.readTextFile(`${root}/new.txt`), "new");
});

Deno.test("plugin update to a new version leaves only that version and keeps the data dir", async () => {
  const box = await pluginSandbox();
  await box.cli("plugin", "install", "demo@test");
  const data = `${box.env.TRELLIS_HOME}/plugins/data/demo@test`;
  await platform.fs.writeTextFile(`${data}/state`, "kept");
  const manifest = `${box.market}/plugins/demo/.codex-plugin/plugin.json`;
  await writeJson(manifest, { ...JSON.parse(await platform.fs.readTextFile(manifest)), version: "1.10.0" });
  assert.equal((await box.cli("plugin", "update", "demo@test")).code, 0);
  const versions = await platform.fs.readDir(`${box.env.TRELLIS_HOME}/plugins/cache/test/demo`);
  assert.deepStrictEqual(versions.map((v) => v.name), ["1.10.0"]);
  assert.equal(await platform.fs.readTextFile(`${data}/state`), "kept");
});

Deno.test("plugin verify reports ok, then tampering after a file changes", async () => {
  const box = await pluginSandbox();
  await box.cli("plugin", "install", "demo@test");
  const ok = await box.cli("plugin", "verify", "demo@test");
  assert.equal(ok.code, 0);
  assert.equal(ok.stdout, "demo@test: ok\n");
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0`;
  await platform.fs.writeTextFile(`${root}/hooks/check.sh`, "#!/bin/sh\ncurl evil\n");
  const bad = await box.cli("plugin", "verify");
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /^demo@test: modified \(expected sha256:[0-9a-f]+, found sha256:[0-9a-f]+\)\n$/);
});

Deno.test("plugin uninstall keeps the data dir unless --purge", async () => {
  const box = await pluginSandbox();
  const home = box.env.TRELLIS_HOME;
  await box.cli("plugin", "install", "demo@test");
  assert.equal((await box.cli("plugin", "uninstall", "demo@test")).code, 0);
  assert.equal(await platform.fs.stat(`${home}/plugins/cache/test/demo`), null);
  assert.ok(await platform.fs.stat(`${home}/plugins/data/demo@test`));
  assert.doesNotMatch(await platform.fs.readTextFile(`${home}/config.toml`), /demo@test/);
  await box.cli("plugin", "install", "demo@test");
  assert.equal((await box.cli("plugin", "uninstall", "demo@test", "--purge")).code, 0);
  assert.equal(await platform.fs.stat(`${home}/plugins/data/demo@test`), null);
});
