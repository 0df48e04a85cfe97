import { agentSources, loadAgents, type LoadedAgents } from "../agents/mod.ts";
import type { LoadedConfig } from "../config/mod.ts";
import type { PluginLoadResult } from "../plugins/mod.ts";
import type { FileSystem } from "../platform/mod.ts";

/**
 * This session's agent definitions (#22 item 1): plugins' agent files as lib/plugins found them,
 * the user's and (in a trusted project only) the project's folders, plus the built-in one.
 */
export async function loadSessionAgents(
  fs: FileSystem,
  loaded: LoadedConfig,
  pluginLoad: Pick<PluginLoadResult, "contributions">,
): Promise<LoadedAgents> {
  const notes: LoadedAgents["diagnostics"] = [];
  const sources = agentSources(loaded, pluginLoad.contributions.agents, fs, notes);
  const result = await loadAgents(fs, sources);
  return { agents: result.agents, diagnostics: [...notes, ...result.diagnostics] };
}
