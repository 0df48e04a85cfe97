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
}

export interface SkillRootContribution {
  path: string;
  pluginId: string;
  namespace: string;
}

export interface McpServerContribution {
  pluginId: string;
  pluginRoot: string;
  name: string;
  /** Raw Codex-shape server table; the MCP subsystem validates the transport. */
  config: unknown;
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
}

export interface PluginContributions {
  skillRoots: SkillRootContribution[];
  /** Claude plugins' `commands/` directories; each `*.md` becomes an explicit-only skill (issue 14). */
  commandRoots?: Array<
    { path: string /* a plugin's commands/ directory */; pluginId: string; namespace: string }
  >;
  mcpServers: McpServerContribution[];
  hookSources: HookSourceContribution[];
  summaries: CapabilitySummary[];
}

export interface PluginLoadResult {
  plugins: LoadedPlugin[];
  contributions: PluginContributions;
  diagnostics: Diagnostic[];
}
