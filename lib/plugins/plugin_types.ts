import type { Diagnostic } from "../shared/mod.ts";

/** What the model and `trellis plugin list` learn about an active plugin (never its hooks). */
export interface CapabilitySummary {
  pluginId: string;
  /** The config key, `<plugin>@<marketplace>`. */
  configName: string;
  displayName: string;
  description?: string;
  hasSkills: boolean;
  mcpServerNames: string[];
  appConnectorIds: string[];
}

/** What became of one component a plugin brought (`plugin show`, and the install report). */
export type ComponentStatus = "active" | "unsupported" | "error";

export interface PluginComponent {
  /** The manifest key it belongs to: skills, commands, agents, hooks, mcpServers, apps, lspServers, … */
  kind: string;
  /** A path relative to the plugin root, a server name, a `<namespace>:<command>` name, … */
  name: string;
  status: ComponentStatus;
  detail?: string;
}

export interface LoadedPlugin {
  id: string;
  version: string | null;
  root: string | null;
  dataDir: string | null;
  enabled: boolean;
  /** Content digest from the install record, when there is one. */
  digest?: string;
  /** Enabled and no error (PL-9). */
  active: boolean;
  error?: string;
  summary?: CapabilitySummary;
  /** Every component an active plugin brought and what became of it. */
  components?: PluginComponent[];
  /** "claude": installed by Claude Code and read in place from `~/.claude/plugins`; absent: Trellis's. */
  origin?: "claude";
}

export interface SkillRootContribution {
  path: string;
  pluginId: string;
  namespace: string;
  /** "claude" when the plugin is one Claude Code installed (read in place). */
  origin?: "claude";
}

/** A plugin's Claude Code `commands/` directory: each `*.md` there is an explicit-only skill. */
export interface CommandRootContribution {
  /** The commands directory. */
  path: string;
  pluginId: string;
  namespace: string;
  /** "claude" when the plugin is one Claude Code installed (read in place). */
  origin?: "claude";
}

/** A Claude Code subagent definition file (#22 item 1): lib/agents loads it as `namespace:name`. */
export interface AgentContribution {
  pluginId: string;
  /** The plugin's manifest name, the agent's namespace. */
  namespace: string;
  name: string;
  path: string;
}

export interface McpServerContribution {
  pluginId: string;
  pluginRoot: string;
  /** The plugin's data dir, for `${PLUGIN_DATA}` / `${CLAUDE_PLUGIN_DATA}`. */
  dataDir: string;
  /** Where it was declared, relative to the plugin root (`.mcp.json`, `plugin.json#mcpServers`). */
  file: string;
  name: string;
  /** The entry as written (Claude Code or Codex keys); the MCP subsystem's one reader validates it. */
  config: unknown;
  /** "claude" when the plugin is one Claude Code installed (read in place). */
  origin?: "claude";
}

export interface HookSourceContribution {
  pluginId: string;
  pluginRoot: string;
  dataDir: string;
  /** Relative to the plugin root ("hooks/hooks.json") or "plugin.json#hooks[N]"; part of hook keys. */
  sourcePath: string;
  /** Parsed `{hooks: {…}}`. */
  hooks: unknown;
  /** PLUGIN_ROOT, PLUGIN_DATA and their CLAUDE_ aliases, for the hook's environment (PL-12). */
  env: Record<string, string>;
  /** "claude" when the plugin is one Claude Code installed (read in place). */
  origin?: "claude";
  /**
   * The plugin tree's content as it is now (content_digest.ts, never the install record: an edit in
   * place counts too): a hook's trust covers it (#20 item 7). Absent when the tree cannot be read.
   */
  contentDigest?: string;
  /** Why the tree could not be hashed (its directory vanished, a permission): its hooks do not run. */
  contentError?: string;
}

export interface PluginContributions {
  skillRoots: SkillRootContribution[];
  commandRoots: CommandRootContribution[];
  agents: AgentContribution[];
  mcpServers: McpServerContribution[];
  hookSources: HookSourceContribution[];
  summaries: CapabilitySummary[];
}

export interface PluginLoadResult {
  plugins: LoadedPlugin[];
  contributions: PluginContributions;
  diagnostics: Diagnostic[];
}
