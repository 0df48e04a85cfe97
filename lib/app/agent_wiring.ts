import {
  type AgentDefinition,
  agentHookSource,
  agentSources,
  loadAgents,
  type LoadedAgents,
  resolveAgentModel,
} from "../agents/mod.ts";
import { type HookHandlerInfo, loadScopedHooks } from "../hooks/mod.ts";
import { DEFAULT_MODEL, type LoadedConfig } from "../config/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";
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
  // An alias with no mapping is named once, at load (the spawn then runs on the session's model).
  const aliases = loaded.config.agents?.model_aliases;
  const parent = loaded.config.model ?? DEFAULT_MODEL;
  const unmapped = result.agents.flatMap((a) => {
    const w = resolveAgentModel(a, aliases, parent).warning;
    return w ? [warning(w, a.path ? { file: a.path } : {})] : [];
  });
  return { agents: result.agents, diagnostics: [...notes, ...result.diagnostics, ...unmapped] };
}

/** Every agent's frontmatter hooks, judged as `loadScopedHooks` judges them (for `trellis hooks list|trust`). */
export function agentScopedHooks(loaded: LoadedConfig, agents: AgentDefinition[]) {
  const handlers: HookHandlerInfo[] = [];
  const diagnostics: Diagnostic[] = [];
  let needsReview = 0;
  for (const agent of agents) {
    const source = agentHookSource(agent);
    if (!source) continue;
    const scoped = loadScopedHooks({ loaded, source });
    handlers.push(...scoped.handlers);
    diagnostics.push(...scoped.diagnostics);
    needsReview += scoped.needsReview;
  }
  return { handlers, diagnostics, needsReview };
}
