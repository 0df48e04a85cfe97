import * as path from "node:path";
import { compatEnabled, installedGeminiExtensions, type LoadedConfig } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import type { PluginContributions } from "../plugins/mod.ts";
import { type PluginSkillRoot, type SkillsInput, skillsInputFromConfig } from "../skills/mod.ts";
import { resolveContextWindow } from "./context_window.ts";

/**
 * The skills input of a session or a `skills` command: config, the active plugins' skill and
 * command roots, and the model's context window resolved here (config, else the model's family).
 */
export function skillsInputFor(
  fs: FileSystem,
  loaded: LoadedConfig,
  contributions: PluginContributions,
): SkillsInput {
  return skillsInputFromConfig(loaded, {
    pluginRoots: contributions.skillRoots,
    pluginCommandRoots: [...contributions.commandRoots, ...geminiCommandRoots(fs, loaded)],
    contextWindow: resolveContextWindow(loaded.config),
  });
}

/**
 * The `commands/` of each installed Gemini CLI extension enabled here (#24 item 3): its `*.toml`
 * commands, named `<extension>:<command>` as a plugin's are (Gemini itself shows them unprefixed).
 * A broken manifest is the hooks' warning to give (they read the same folder).
 */
function geminiCommandRoots(fs: FileSystem, loaded: LoadedConfig): PluginSkillRoot[] {
  if (!compatEnabled(loaded.config, "gemini")) return [];
  return installedGeminiExtensions(fs, loaded.paths)
    .map((extension) => ({ path: path.join(extension.dir, "commands"), extension }))
    .filter(({ path: dir }) => fs.sync.exists(dir))
    .map(({ path: dir, extension }) => ({
      path: dir,
      pluginId: `gemini-extension:${extension.name}`,
      namespace: extension.name,
      origin: "gemini" as const,
    }));
}
