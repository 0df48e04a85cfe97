/**
 * Issue 14 item 9: the config-level readers of other agents' files — where they are (CODEX_HOME,
 * CLAUDE_CONFIG_DIR), what Trellis takes from them, and bad input as one warning naming the file.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import {
  compatFiles,
  loadConfig,
  loadProjectInstructions,
  readClaudeJson,
  readCodexConfig,
  resolvePaths,
} from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { claudeJsonValue, FIXTURE_MCP, writePeerHome } from "../helpers/peer_home.ts";

const fs = platform.fs;
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

async function peerSandbox() {
  const root = await fs.realPath(await fs.makeTempDir("trellis-peer-"));
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
  const load = (extra: Record<string, string> = {}, overrides: string[] = []) =>
    loadConfig(fs, { cwd: project, env: (n) => ({ ...env, ...extra })[n], overrides });
  return { root, home, project, peer, env, load };
}

Deno.test("resolvePaths() finds Codex's and Claude Code's files at their defaults, or where CODEX_HOME and CLAUDE_CONFIG_DIR say", () => {
  const at = (env: Record<string, string>) => {
    const p = resolvePaths(fs, { cwd: "/", env: (n) => env[n] });
    return [p.codexHome, p.claudeDir, p.claudeJson];
  };
  assert.deepStrictEqual(at({ HOME: "/h" }), ["/h/.codex", "/h/.claude", "/h/.claude.json"]);
  // With CLAUDE_CONFIG_DIR set, Claude Code keeps .claude.json inside that dir, not beside it.
  assert.deepStrictEqual(at({ HOME: "/h", CODEX_HOME: "/c", CLAUDE_CONFIG_DIR: "/cc" }), [
    "/c",
    "/cc",
    "/cc/.claude.json",
  ]);
  // An empty variable is unset, as both peers treat it.
  assert.deepStrictEqual(at({ HOME: "/h", CODEX_HOME: "", CLAUDE_CONFIG_DIR: "" }), [
    "/h/.codex",
    "/h/.claude",
    "/h/.claude.json",
  ]);
});

Deno.test("readCodexConfig() takes [mcp_servers], [hooks] and the model keys as written and leaves every other Codex key alone", async () => {
  const { load, peer } = await peerSandbox();
  const loaded = await load();
  const read = readCodexConfig(fs, loaded.paths);
  assert.deepStrictEqual(read.diagnostics, []);
  assert.deepStrictEqual(read.items?.file, `${peer.codexHome}/config.toml`);
  // smol-toml builds null-prototype tables: compare the plain values.
  assert.deepStrictEqual(plain(read.items?.mcpServers), {
    codex_fx: {
      command: "node",
      args: [FIXTURE_MCP, "echo", "${NOT_EXPANDED}"],
      env: { LOG_LEVEL: "warn" },
      startup_timeout_sec: 20,
      tool_timeout_sec: 60,
    },
  });
  assert.deepStrictEqual(Object.keys(read.items?.hooks ?? {}).sort(), ["PreToolUse", "state"]);
  // Its model keys are taken in place (#21 item 8), with their origin; none of its approval, sandbox
  // or trust settings reach Trellis's config.
  assert.deepStrictEqual(plain(read.items?.modelKeys), { model: "o3", model_reasoning_effort: "high" });
  assert.deepStrictEqual(read.items?.notTaken, ["approval_policy", "sandbox_mode", "projects"]);
  assert.deepStrictEqual(
    [loaded.config.model, loaded.config.model_reasoning_effort, loaded.provenance.get("model")],
    ["o3", "high", `${peer.codexHome}/config.toml`],
  );
  assert.deepStrictEqual(
    [loaded.config.approval_policy, loaded.config.sandbox_mode, loaded.projectTrusted],
    ["on-request", "workspace-write", false],
  );
  assert.deepStrictEqual(loaded.diagnostics, []);
});

Deno.test("Codex's model keys sit beneath Trellis's own config and go with [compat] codex_config = false (#21 item 8)", async () => {
  const { load, home } = await peerSandbox();
  await fs.writeTextFile(`${home}/.trellis/config.toml`, 'model_reasoning_effort = "low"\n');
  const mine = await load();
  assert.deepStrictEqual([mine.config.model, mine.config.model_reasoning_effort], ["o3", "low"]);
  assert.deepStrictEqual(mine.layers.map((l) => l.kind), ["default", "codex", "user"]);
  await fs.writeTextFile(`${home}/.trellis/config.toml`, "[compat]\ncodex_config = false\n");
  const off = await load();
  assert.deepStrictEqual([off.config.model, off.config.model_reasoning_effort], ["gpt-5", undefined]);
  // The switch given with -c works too.
  await fs.writeTextFile(`${home}/.trellis/config.toml`, "");
  const flag = await load({}, ["compat.codex_config=false"]);
  assert.deepStrictEqual(flag.config.model, "gpt-5");
});

Deno.test("a Codex model_provider Trellis does not know, or a bad model value, is one warning; the rest is taken (#21 item 8)", async () => {
  const { load, peer } = await peerSandbox();
  const file = `${peer.codexHome}/config.toml`;
  await fs.writeTextFile(
    file,
    'model = "qwen3"\nmodel_provider = "azure-east"\nmodel_context_window = "big"\nmodel_reasoning_effort = "medium"\n',
  );
  const unknown = await load();
  assert.deepStrictEqual(
    [unknown.config.model, unknown.config.model_provider, unknown.config.model_reasoning_effort],
    ["qwen3", "openai", "medium"],
  );
  assert.deepStrictEqual(unknown.config.model_context_window, undefined);
  const warnings = unknown.diagnostics.filter((d) => d.level === "warning").map((d) =>
    [d.field, d.message] as const
  );
  assert.deepStrictEqual(warnings.length, 2, JSON.stringify(warnings));
  assert.match(warnings[0][1] as string, /^Ignored model_context_window in Codex config ".*config\.toml": /);
  assert.match(
    warnings[1][1] as string,
    /^Ignored model_provider = "azure-east" in Codex config .*known: anthropic, ollama, openai/,
  );
  // Defined in the same file (with a key of Codex's that Trellis lacks), the provider is taken.
  await fs.writeTextFile(
    file,
    'model_provider = "azure-east"\n[model_providers.azure-east]\nname = "Azure"\nbase_url = "https://a/openai"\nenv_key = "AZ_KEY"\nrequires_openai_auth = false\n',
  );
  const known = await load();
  assert.deepStrictEqual(known.config.model_provider, "azure-east");
  assert.deepStrictEqual(plain(known.config.model_providers), {
    "azure-east": { name: "Azure", base_url: "https://a/openai", env_key: "AZ_KEY" },
  });
  assert.deepStrictEqual(known.diagnostics.filter((d) => d.level === "warning"), []);
});

Deno.test("readCodexConfig() is one warning naming the file when config.toml does not parse or a table has the wrong type", async () => {
  const { load, peer } = await peerSandbox();
  const file = `${peer.codexHome}/config.toml`;
  await fs.writeTextFile(file, 'model = "o3"\n[mcp_servers.x\ncommand = "y"\n');
  // Loading the config peeks at the file (its model keys) and leaves the warning to this reader.
  const loaded = await load();
  assert.deepStrictEqual(loaded.diagnostics, []);
  const broken = readCodexConfig(fs, loaded.paths);
  assert.deepStrictEqual(broken.items, null);
  assert.deepStrictEqual(broken.diagnostics.length, 1);
  assert.deepStrictEqual(broken.diagnostics[0].file, file);
  assert.match(
    broken.diagnostics[0].message,
    /^Cannot read Codex config ".*config\.toml": invalid TOML at line 2/,
  );
  await fs.writeTextFile(file, 'mcp_servers = "oops"\n[hooks]\n');
  const shape = readCodexConfig(fs, (await load({}, ["compat.codex_config=false"])).paths);
  assert.deepStrictEqual(plain(shape.items), {
    file,
    modelKeys: {},
    notTaken: [],
    mcpServers: {},
    hooks: {},
  });
  assert.deepStrictEqual(shape.diagnostics.map((d) => [d.level, d.file, d.field]), [[
    "warning",
    file,
    "mcp_servers",
  ]]);
});

Deno.test("readClaudeJson() reads user and this project's mcpServers from the real shape, passing over null entries and other projects", async () => {
  const { load, peer, project } = await peerSandbox();
  const read = readClaudeJson(fs, (await load()).paths);
  assert.deepStrictEqual(read.diagnostics, []);
  assert.deepStrictEqual(read.items, {
    file: peer.claudeJson,
    userServers: {
      claude_fx: {
        type: "stdio",
        command: "node",
        args: [FIXTURE_MCP, "${FX_MODE:-echo}"],
        env: { LOG_LEVEL: "warn" },
      },
    },
    projectServers: [{
      project,
      servers: { claude_local: { command: "node", args: [FIXTURE_MCP, "echo"] } },
    }],
  });
});

Deno.test("readClaudeJson() reads the file once per process (per resolved paths); its warning goes to the first reader only", async () => {
  const { load, peer } = await peerSandbox();
  const loaded = await load();
  await fs.writeTextFile(peer.claudeJson, "{ not json");
  const first = readClaudeJson(fs, loaded.paths);
  assert.deepStrictEqual(first.diagnostics.length, 1);
  // Fixed on disk meanwhile: this process keeps what it read, and does not warn again.
  await fs.writeTextFile(peer.claudeJson, JSON.stringify({ mcpServers: { late: { command: "x" } } }));
  assert.deepStrictEqual(readClaudeJson(fs, loaded.paths), { items: null, diagnostics: [] });
  // A new process (a new config) reads it again.
  assert.deepStrictEqual(Object.keys(readClaudeJson(fs, (await load()).paths).items!.userServers), ["late"]);
});

Deno.test("readClaudeJson() is one warning naming the file when it is unreadable, not JSON, or of the wrong shape", async () => {
  const { load, peer } = await peerSandbox();
  const file = peer.claudeJson;
  const warnings = async () => {
    const read = readClaudeJson(fs, (await load()).paths);
    return {
      items: read.items,
      diagnostics: read.diagnostics.map((d) => [d.level, d.file ?? "", d.message]),
    };
  };
  await fs.writeTextFile(file, "[1, 2]");
  assert.deepStrictEqual(await warnings(), {
    items: null,
    diagnostics: [[
      "warning",
      file,
      `Cannot read "${file}": expected a JSON object, found an array; its MCP servers are not loaded`,
    ]],
  });
  await fs.writeTextFile(file, '{"numStartups": 3, "mcpServers"');
  const notJson = await warnings();
  assert.deepStrictEqual([notJson.items, notJson.diagnostics.length], [null, 1]);
  assert.match(notJson.diagnostics[0][2], /^Cannot read ".*\.claude\.json": not JSON \(/);
  await fs.writeTextFile(file, JSON.stringify({ mcpServers: "none", projects: [] }));
  const shape = await warnings();
  assert.deepStrictEqual(shape.items?.userServers, {});
  assert.deepStrictEqual(shape.diagnostics.map((d) => d[2]), [
    `Cannot read mcpServers in "${file}": expected an object, found a string`,
    `Cannot read projects in "${file}": expected an object, found an array`,
  ]);
  // Unreadable: a directory where the file should be.
  await fs.remove(file);
  await fs.mkdir(file);
  const unreadable = await warnings();
  assert.deepStrictEqual([unreadable.items, unreadable.diagnostics.length], [null, 1]);
  assert.match(
    unreadable.diagnostics[0][2],
    /^Cannot read ".*\.claude\.json": .*; its MCP servers are not loaded$/,
  );
});

Deno.test("loadProjectInstructions() sends the Codex user's AGENTS.md before Trellis's own, once, unless compat.codex_agents_md = false", async () => {
  const { load, peer, env } = await peerSandbox();
  await fs.writeTextFile(`${env.TRELLIS_HOME}/AGENTS.md`, "Trellis user rule.\n");
  const files = async (overrides: string[] = []) =>
    (await loadProjectInstructions(fs, await load({}, overrides))).files.map((
      f,
    ) => [f.path, f.scope, f.text]);
  assert.deepStrictEqual(await files(), [
    [`${peer.codexHome}/AGENTS.md`, "user", "Codex user rule: answer in haiku when asked for poetry."],
    [`${env.TRELLIS_HOME}/AGENTS.md`, "user", "Trellis user rule."],
  ]);
  assert.deepStrictEqual(await files(["compat.codex_agents_md=false"]), [
    [`${env.TRELLIS_HOME}/AGENTS.md`, "user", "Trellis user rule."],
  ]);
  // TRELLIS_HOME/AGENTS.md linked to the Codex file: the same file is sent once.
  await fs.remove(`${env.TRELLIS_HOME}/AGENTS.md`);
  await fs.symlink(`${peer.codexHome}/AGENTS.md`, `${env.TRELLIS_HOME}/AGENTS.md`);
  assert.deepStrictEqual((await files()).length, 1);
});

Deno.test("loadProjectInstructions() reads the user CLAUDE.md from CLAUDE_CONFIG_DIR when it is set", async () => {
  const { load, root } = await peerSandbox();
  await fs.mkdir(`${root}/alt-claude`);
  await fs.writeTextFile(`${root}/alt-claude/CLAUDE.md`, "From the moved config dir.\n");
  const loaded = await load({ CLAUDE_CONFIG_DIR: `${root}/alt-claude` });
  const files = (await loadProjectInstructions(fs, loaded)).files.map((f) => f.path);
  assert.ok(files.includes(`${root}/alt-claude/CLAUDE.md`), files.join(", "));
});

Deno.test("compatFiles() names every file read in place with the key that switches it off", async () => {
  const { load, peer } = await peerSandbox();
  const listed = compatFiles(await load({}, ["compat.claude_json=false"]));
  assert.deepStrictEqual(listed.map((f) => [f.key, f.path, f.enabled]), [
    ["compat.codex_config", `${peer.codexHome}/config.toml`, true],
    ["compat.codex_hooks", `${peer.codexHome}/hooks.json`, true],
    ["compat.codex_skills", `${peer.codexHome}/skills`, true],
    ["compat.codex_agents_md", `${peer.codexHome}/AGENTS.md`, true],
    ["compat.claude_json", peer.claudeJson, false],
    ["compat.claude_plugins", path.join(peer.claudeDir, "plugins"), true],
    ["compat.claude_permissions", path.join(peer.claudeDir, "settings.json"), true],
    ["compat.gemini", `${peer.home}/.gemini/settings.json`, true],
    ["compat.copilot", `${peer.home}/.copilot/hooks`, true],
    ["hooks.claude_code", path.join(peer.claudeDir, "settings.json"), true],
    ["skills.claude_code", path.join(peer.claudeDir, "skills"), true],
    ["project_doc_claude_md", path.join(peer.claudeDir, "CLAUDE.md"), true],
  ]);
});

Deno.test("[compat] rejects a switch that is not a boolean, naming the key", async () => {
  const { load } = await peerSandbox();
  await assert.rejects(() => load({}, ['compat.claude_json="no"']), /compat\.claude_json/);
});

Deno.test("readClaudeJson() parses a large, settled ~/.claude.json once and reuses what it kept until the file changes", async () => {
  const { load, peer, env } = await peerSandbox();
  const value = claudeJsonValue(peer.project);
  // Megabytes of per-project history, as a long-time user's file has.
  (value.projects as Record<string, unknown>)["/srv/history"] = {
    history: Array.from({ length: 3000 }, (_, i) => ({ display: `prompt ${i} ${"x".repeat(100)}` })),
  };
  const text = JSON.stringify(value);
  await fs.writeTextFile(peer.claudeJson, text);
  const old = new Date(Date.now() - 60_000);
  await Deno.utime(peer.claudeJson, old, old);
  const first = readClaudeJson(fs, (await load()).paths);
  assert.deepStrictEqual(Object.keys(first.items!.userServers), ["claude_fx"]);
  const cacheFile = `${env.TRELLIS_HOME}/cache/claude_json.json`;
  assert.ok((await fs.stat(cacheFile))?.isFile, "the extract is cached");
  // Same size and time, other content: the cached extract answers (the file is not parsed again).
  await fs.writeTextFile(peer.claudeJson, text.replace('"claude_fx"', '"claude_fy"'));
  await Deno.utime(peer.claudeJson, old, old);
  assert.deepStrictEqual(Object.keys(readClaudeJson(fs, (await load()).paths).items!.userServers), [
    "claude_fx",
  ]);
  // Changed (a new modification time): parsed again.
  const later = new Date(Date.now() - 30_000);
  await Deno.utime(peer.claudeJson, later, later);
  const again = readClaudeJson(fs, (await load()).paths);
  assert.deepStrictEqual(Object.keys(again.items!.userServers), ["claude_fy"]);
  assert.deepStrictEqual(again.items!.projectServers.map((p) => p.project), [peer.project]);
});

Deno.test("readClaudeJson() does not cache a file that just changed, nor a small one", async () => {
  const { load, peer, env } = await peerSandbox();
  const cacheFile = `${env.TRELLIS_HOME}/cache/claude_json.json`;
  readClaudeJson(fs, (await load()).paths);
  assert.deepStrictEqual(await fs.stat(cacheFile), null);
  const big = claudeJsonValue(peer.project, { padding: "y".repeat(300_000) });
  await fs.writeTextFile(peer.claudeJson, JSON.stringify(big));
  readClaudeJson(fs, (await load()).paths);
  assert.deepStrictEqual(await fs.stat(cacheFile), null);
});
