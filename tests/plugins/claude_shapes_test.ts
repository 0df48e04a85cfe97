import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { effectiveManifest, loadPlugins, parseManifest } from "../../lib/plugins/mod.ts";
import { CLAUDE_MARKET, pluginSandbox } from "./_helpers.ts";

// Issue 14 items 4 and 5 (PL-1/PL-3 as the issue revises them): the shapes of Anthropic's
// marketplaces — plugins without plugin.json, strict:false entries, lspServers, commands, agents.

const claudeBox = () => pluginSandbox({ fixture: CLAUDE_MARKET });

Deno.test("plugin install takes a plugin without plugin.json by Claude Code's default layout", async () => {
  const box = await claudeBox();
  const run = await box.cli("plugin", "install", "dev-kit@claude");
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /^Installed dev-kit@claude local \(sha256:[0-9a-f]{64}\): 1 skills, 1 hooks, 2 commands, 1 agents\n$/,
  );
  // Its agent is a subagent definition now (#22 item 1): nothing is "recorded but not run".
  assert.equal(run.stderr, "");
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/claude/dev-kit/local`;
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.diagnostics, []);
  const { skillRoots, commandRoots, agents, hookSources } = result.contributions;
  assert.deepStrictEqual(skillRoots, [{
    path: `${root}/skills`,
    pluginId: "dev-kit@claude",
    namespace: "dev-kit",
  }]);
  assert.deepStrictEqual(commandRoots, [
    { path: `${root}/commands`, pluginId: "dev-kit@claude", namespace: "dev-kit" },
  ]);
  assert.deepStrictEqual(agents, [
    {
      pluginId: "dev-kit@claude",
      namespace: "dev-kit",
      name: "plugin-validator",
      path: `${root}/agents/plugin-validator.md`,
    },
  ]);
  assert.deepStrictEqual(hookSources.map((h) => h.sourcePath), ["hooks/hooks.json"]);
  assert.deepStrictEqual(result.plugins[0].components, [
    { kind: "skills", name: "skills", status: "active" },
    { kind: "hooks", name: "hooks/hooks.json", status: "active", detail: "untrusted until trusted" },
    { kind: "commands", name: "dev-kit:check", status: "active", detail: "commands/check.md" },
    {
      kind: "commands",
      name: "dev-kit:create-plugin",
      status: "active",
      detail: "commands/create-plugin.md",
    },
    {
      kind: "agents",
      name: "plugin-validator",
      status: "active",
      detail: "subagent dev-kit:plugin-validator",
    },
  ]);
});

Deno.test("plugin show lists every component a plugin brought and what became of it", async () => {
  const box = await claudeBox();
  await box.cli("plugin", "install", "dev-kit@claude");
  const show = await box.cli("plugin", "show", "dev-kit@claude");
  assert.equal(show.code, 0, show.stderr);
  const home = box.env.TRELLIS_HOME;
  assert.equal(
    show.stdout.replace(/sha256:[0-9a-f]{64}/, "sha256:…"),
    [
      "dev-kit@claude  local  active",
      `root: ${home}/plugins/cache/claude/dev-kit/local`,
      `data: ${home}/plugins/data/dev-kit@claude`,
      "digest: sha256:…",
      "components:",
      "  skills    skills                 active",
      "  hooks     hooks/hooks.json       active  untrusted until trusted",
      "  commands  dev-kit:check          active  commands/check.md",
      "  commands  dev-kit:create-plugin  active  commands/create-plugin.md",
      "  agents    plugin-validator       active  subagent dev-kit:plugin-validator",
      "",
    ].join("\n"),
  );
});

Deno.test("a strict:false entry carries the manifest; lspServers are one note at install, never a refusal", async () => {
  const box = await claudeBox();
  const run = await box.cli("plugin", "install", "ts-lsp@claude");
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^Installed ts-lsp@claude 1\.0\.0 \(sha256:[0-9a-f]{64}\): 1 unsupported\n$/);
  assert.equal(
    run.stderr,
    "note: ts-lsp@claude: recorded but not run by Trellis: lspServers (typescript); it contributes nothing else\n",
  );
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.plugins.map((p) => [p.id, p.version, p.active, p.components]), [[
    "ts-lsp@claude",
    "1.0.0",
    true,
    [{
      kind: "lspServers",
      name: "typescript",
      status: "unsupported",
      detail: "LSP servers are not run by Trellis",
    }],
  ]]);
  const show = await box.cli("plugin", "show", "ts-lsp@claude");
  assert.match(
    show.stdout,
    /\n {2}lspServers {2}typescript {2}unsupported {2}LSP servers are not run by Trellis\n$/,
  );
});

Deno.test("a strict:false entry's skills name skill directories; unlisted ones stay out", async () => {
  const box = await claudeBox();
  assert.equal((await box.cli("plugin", "install", "skill-pack@claude")).code, 0);
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/claude/skill-pack/local`;
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.contributions.skillRoots.map((r) => r.path), [
    `${root}/first-skill`,
    `${root}/second-skill`,
  ]);
});

Deno.test("a plugin.json of the wrong shape is one warning naming the file; the plugin's skills still load", async () => {
  const box = await claudeBox();
  const run = await box.cli("plugin", "install", "bad-shape@claude");
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stderr,
    `warning: bad-shape@claude: ignoring ${box.market}/plugins/bad-shape/.claude-plugin/plugin.json: expected a JSON object, found an array; using the default layout\n`,
  );
  assert.equal((await box.cli("plugin", "install", "dev-kit@claude")).code, 0);
  const result = await loadPlugins({ loaded: await box.config(), platform });
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/claude/bad-shape/local`;
  assert.deepStrictEqual(result.diagnostics.map((d) => d.message), [
    `bad-shape@claude: ignoring ${root}/.claude-plugin/plugin.json: expected a JSON object, found an array; using the default layout`,
  ]);
  assert.deepStrictEqual(result.contributions.skillRoots.map((r) => r.namespace), ["bad-shape", "dev-kit"]);
});

Deno.test("a plugin .mcp.json that is an array is one warning naming the file; the rest loads", async () => {
  const box = await claudeBox();
  assert.equal((await box.cli("plugin", "install", "bad-mcp@claude")).code, 0);
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.diagnostics.map((d) => d.message), [
    "bad-mcp@claude: ignoring ./.mcp.json: expected an object of MCP servers, found an array",
  ]);
  assert.deepStrictEqual(result.contributions.mcpServers, []);
  assert.deepStrictEqual(result.contributions.skillRoots.map((r) => r.namespace), ["bad-mcp"]);
});

Deno.test("effectiveManifest(): strict:true entries supplement plugin.json; strict:false replaces its components", () => {
  const file = {
    ...parseManifest(JSON.stringify({ name: "p", version: "2.0.0", skills: "./own", commands: "./cmds" })),
    location: ".claude-plugin/plugin.json",
  };
  const fields = { skills: ["./extra"], version: "9.9.9", lspServers: { go: { command: "gopls" } } };
  const strict = effectiveManifest(file, { name: "p", entry: { strict: true, fields } }).manifest;
  assert.deepStrictEqual([strict.version, strict.skills, strict.commands, strict.unsupported], [
    "2.0.0",
    ["extra", "own"],
    ["cmds"],
    { lspServers: { go: { command: "gopls" } } },
  ]);
  const whole = effectiveManifest(file, { name: "p", entry: { strict: false, fields } });
  assert.deepStrictEqual([whole.manifest.skills, whole.manifest.commands], [["extra"], undefined]);
  assert.deepStrictEqual(whole.diagnostics.map((d) => d.message), [
    "the marketplace entry is the plugin's whole definition (strict: false); the components .claude-plugin/plugin.json declares are ignored",
  ]);
});

Deno.test("a plugin with no manifest and no marketplace fields is the default layout under its entry name", () => {
  const none = { manifest: null, location: null, diagnostics: [] };
  assert.deepStrictEqual(effectiveManifest(none, { name: "plugin-dev" }), {
    manifest: { name: "plugin-dev", keywords: [], skills: [], metadata: {} },
    diagnostics: [],
  });
});
