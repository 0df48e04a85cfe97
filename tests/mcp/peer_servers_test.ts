/**
 * Issue 14 item 9 (MCP-1): the servers a Codex or Claude Code user already configured join the
 * catalog from their own files — `~/.claude.json` (user and, for a trusted project, per-project) and
 * `$CODEX_HOME/config.toml` — through the one entry reader, below Trellis's own config.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config/mod.ts";
import { mcpServersFromConfig, summarizeServer } from "../../lib/mcp/mod.ts";
import { type Platform, platform } from "../../lib/platform/mod.ts";
import { FIXTURE_MCP, writePeerHome } from "../helpers/peer_home.ts";
import { trustEntry } from "../helpers/trust_project.ts";

const fs = platform.fs;

async function sandbox(options: { trusted?: boolean; trellisToml?: string } = {}) {
  const root = await fs.realPath(await fs.makeTempDir("trellis-peer-mcp-"));
  const home = `${root}/home`;
  const project = `${root}/repo`;
  await fs.mkdir(`${project}/.git`);
  await fs.mkdir(`${home}/.trellis`);
  const peer = await writePeerHome(home, project);
  const trust = options.trusted ? `[projects."${project}"]\ntrust_level = "trusted"\n` : "";
  await fs.writeTextFile(`${home}/.trellis/config.toml`, (options.trellisToml ?? "") + "\n" + trust);
  const env: Record<string, string> = {
    HOME: home,
    TRELLIS_HOME: `${home}/.trellis`,
    TRELLIS_SYSTEM_DIR: `${root}/etc`,
  };
  const local: Platform = { ...platform, env: (n) => env[n] };
  const catalog = async (overrides: string[] = []) => {
    const loaded = await loadConfig(fs, { cwd: project, env: local.env, overrides });
    return mcpServersFromConfig(loaded, { platform: local, pluginServers: [] });
  };
  return { root, home, project, peer, catalog, env };
}

Deno.test("mcpServersFromConfig() adds ~/.claude.json's user servers and Codex's [mcp_servers], each with its origin and file", async () => {
  const { peer, catalog } = await sandbox();
  const { catalog: resolved, diagnostics } = await catalog();
  assert.deepStrictEqual(
    resolved.servers.map((s) => [s.config.name, s.tier, s.origin, s.source]),
    [
      ["claude_fx", "config", "claude", peer.claudeJson],
      ["codex_fx", "config", "codex", `${peer.codexHome}/config.toml`],
    ],
  );
  const [claude, codex] = resolved.servers.map((s) => summarizeServer(s, true));
  // Claude Code's ${VAR:-default} is expanded; Codex's file is taken literally, as Codex does.
  assert.deepStrictEqual(claude.transport, {
    type: "stdio",
    command: "node",
    args: [FIXTURE_MCP, "echo"],
    env: { LOG_LEVEL: "warn" },
    env_vars: [],
    cwd: null,
  });
  assert.deepStrictEqual(
    [
      codex.transport.type === "stdio" && codex.transport.args,
      codex.startup_timeout_sec,
      codex.tool_timeout_sec,
    ],
    [[FIXTURE_MCP, "echo", "${NOT_EXPANDED}"], 20, 60],
  );
  assert.deepStrictEqual([claude.origin, codex.origin], ["claude", "codex"]);
  // The project's own entry is project scope: skipped in an untrusted project, with a note naming why.
  assert.deepStrictEqual(diagnostics.map((d) => [d.level, d.message]), [[
    "info",
    `Skipped 1 MCP server(s) for ${peer.project} in ${peer.claudeJson}: this project is not trusted (run \`trellis project trust\` to load them)`,
  ]]);
});

Deno.test("mcpServersFromConfig() loads this project's ~/.claude.json servers only for a trusted project, never another project's", async () => {
  const { peer, catalog } = await sandbox({ trusted: true });
  const { catalog: resolved, diagnostics } = await catalog();
  assert.deepStrictEqual(resolved.servers.map((s) => [s.config.name, s.origin, s.source]), [
    ["claude_fx", "claude", peer.claudeJson],
    ["claude_local", "claude", peer.claudeJson],
    ["codex_fx", "codex", `${peer.codexHome}/config.toml`],
  ]);
  assert.deepStrictEqual(diagnostics, []);
});

Deno.test("mcpServersFromConfig(): Trellis's own entry of the same name wins, noted (not warned); a project .mcp.json beats the user files", async () => {
  const { project, peer, catalog, home } = await sandbox({
    trusted: true,
    trellisToml: '[mcp_servers.claude_fx]\ncommand = "mine"\n',
  });
  await fs.writeTextFile(
    `${project}/.mcp.json`,
    JSON.stringify({ mcpServers: { codex_fx: { command: "proj" } } }),
  );
  await fs.writeTextFile(
    `${home}/.trellis/config.toml`,
    '[mcp_servers.claude_fx]\ncommand = "mine"\n\n' + trustEntry(project),
  );
  const { catalog: resolved, diagnostics } = await catalog();
  const byName = Object.fromEntries(
    resolved.servers.map((s) => [s.config.name, [s.origin ?? "trellis", s.source]]),
  );
  assert.deepStrictEqual(byName, {
    claude_fx: ["trellis", `${peer.home}/.trellis/config.toml`],
    claude_local: ["claude", peer.claudeJson],
    codex_fx: ["claude", `${project}/.mcp.json`],
  });
  // One note for both shadowed servers (#21 item 11), not a line each.
  assert.deepStrictEqual(diagnostics.map((d) => [d.level, d.subject]), [["info", "claude_fx, codex_fx"]]);
});

Deno.test("mcpServersFromConfig() reads neither file with [compat] claude_json and codex_config off", async () => {
  const { catalog } = await sandbox({ trusted: true });
  const { catalog: resolved } = await catalog(["compat.claude_json=false", "compat.codex_config=false"]);
  assert.deepStrictEqual(resolved.servers, []);
});

Deno.test("mcpServersFromConfig(): a broken ~/.claude.json is one warning naming it, and Codex's servers still load", async () => {
  const { peer, catalog } = await sandbox();
  await fs.writeTextFile(peer.claudeJson, '{"numStartups": 9, "mcpServers": {');
  const { catalog: resolved, diagnostics } = await catalog();
  assert.deepStrictEqual(resolved.servers.map((s) => s.config.name), ["codex_fx"]);
  assert.deepStrictEqual(diagnostics.map((d) => [d.level, d.file]), [["warning", peer.claudeJson]]);
});

Deno.test("mcpServersFromConfig(): a Codex config.toml that does not parse is one warning, and ~/.claude.json's servers still load", async () => {
  const { peer, catalog } = await sandbox();
  await fs.writeTextFile(`${peer.codexHome}/config.toml`, "[mcp_servers.x\n");
  const { catalog: resolved, diagnostics } = await catalog();
  assert.deepStrictEqual(resolved.servers.map((s) => s.config.name), ["claude_fx"]);
  const warnings = diagnostics.filter((d) => d.level === "warning");
  assert.deepStrictEqual(warnings.map((d) => d.file), [`${peer.codexHome}/config.toml`]);
});

Deno.test("mcpServersFromConfig() honours CODEX_HOME and CLAUDE_CONFIG_DIR (then .claude.json lives inside that dir)", async () => {
  const { root, project, env } = await sandbox();
  await fs.mkdir(`${root}/cx`);
  await fs.writeTextFile(`${root}/cx/config.toml`, '[mcp_servers.moved_codex]\ncommand = "c"\n');
  await fs.mkdir(`${root}/cc`);
  await fs.writeTextFile(
    `${root}/cc/.claude.json`,
    JSON.stringify({ mcpServers: { moved_claude: { command: "d" } } }),
  );
  const moved: Record<string, string> = { ...env, CODEX_HOME: `${root}/cx`, CLAUDE_CONFIG_DIR: `${root}/cc` };
  const local: Platform = { ...platform, env: (n) => moved[n] };
  const loaded = await loadConfig(fs, { cwd: project, env: local.env });
  const { catalog } = mcpServersFromConfig(loaded, { platform: local, pluginServers: [] });
  assert.deepStrictEqual(catalog.servers.map((s) => s.config.name), ["moved_claude", "moved_codex"]);
});
