import { type ConfigLayer, type LoadedConfig, readTomlFile, type TrellisConfig } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";

/**
 * The thread's config with `[plugins]` re-read from the user config. The rest of the configuration
 * stays frozen for the thread (SPEC timescales); only the plugin set may change mid-thread, when an
 * install the user approved wrote `[plugins."<id>"] enabled` (PL-11, PL-13).
 */
export function withFreshPluginSettings(fs: FileSystem, loaded: LoadedConfig): LoadedConfig {
  const plugins = (userConfigTable(fs, loaded)?.raw as TrellisConfig | undefined)?.plugins;
  if (!plugins) return loaded;
  const hasUser = loaded.layers.some((l) => l.kind === "user");
  const layers: ConfigLayer[] = hasUser
    ? loaded.layers.map((l) => l.kind === "user" ? { ...l, table: { ...l.table, plugins } } : l)
    : [
      ...loaded.layers.filter((l) => l.kind === "default" || l.kind === "system"),
      { kind: "user", source: loaded.paths.userConfig, table: { plugins } },
      ...loaded.layers.filter((l) => l.kind !== "default" && l.kind !== "system"),
    ];
  return {
    ...loaded,
    layers,
    config: { ...loaded.config, plugins: { ...loaded.config.plugins, ...plugins } },
  };
}

function userConfigTable(fs: FileSystem, loaded: LoadedConfig) {
  try {
    return readTomlFile(fs, loaded.paths.userConfig);
  } catch {
    return null; // unreadable or malformed now: the thread keeps the plugin set it has
  }
}
