import type { LoadedConfig } from "../config/mod.ts";
import type { PluginContributions } from "../plugins/mod.ts";
import { type SkillsInput, skillsInputFromConfig } from "../skills/mod.ts";
import { resolveContextWindow } from "./context_window.ts";

/**
 * The skills input of a session or a `skills` command: config, the active plugins' skill and
 * command roots, and the model's context window resolved here (config, else the model's family).
 */
export function skillsInputFor(loaded: LoadedConfig, contributions: PluginContributions): SkillsInput {
  return skillsInputFromConfig(loaded, {
    pluginRoots: contributions.skillRoots,
    pluginCommandRoots: contributions.commandRoots,
    contextWindow: resolveContextWindow(loaded.config),
  });
}
