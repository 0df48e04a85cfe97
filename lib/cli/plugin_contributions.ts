import type { LoadedConfig } from "../config/mod.ts";
import { loadPlugins, type PluginLoadResult } from "../plugins/mod.ts";
import type { Platform } from "../platform/mod.ts";

/**
 * What installed, enabled plugins contribute, for the commands that list skills, hooks or MCP
 * servers outside a session (a session gets the same through the app's PluginCache).
 */
export async function pluginContributions(
  platform: Platform,
  loaded: LoadedConfig,
): Promise<PluginLoadResult["contributions"]> {
  return (await loadPlugins({ loaded, platform })).contributions;
}
