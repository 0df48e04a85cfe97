/**
 * Layered TOML configuration: built-in defaults < /etc/trellis/config.toml < $TRELLIS_HOME/config.toml
 * < trusted project `.trellis/config.toml` (root → cwd) < profile < `-c` flags, validated with zod,
 * with the layer each value came from, plus format-preserving edits of config files.
 *
 * @example
 * ```ts
 * import { loadConfig } from "./lib/config/mod.ts";
 * import { platform } from "./lib/platform/mod.ts";
 * const loaded = await loadConfig(platform.fs, { cwd: platform.cwd(), env: platform.env });
 * console.log(loaded.config.model, loaded.provenance.get("model"));
 * ```
 * @module
 */
export { loadConfig, readTomlFile, userControlledLayers } from "./load.ts";
export type { ConfigLayer, LayerKind, LoadConfigOptions, LoadedConfig } from "./load.ts";
export { dirsBetween, resolvePaths } from "./paths.ts";
export type { TrellisPaths } from "./paths.ts";
export { parseOverride, splitKeyPath } from "./overrides.ts";
export { BUILT_IN_DEFAULTS, BUILT_IN_PROVIDERS } from "./defaults.ts";
export { parseConfigTable } from "./schema/mod.ts";
export { mcpServerFieldNames } from "./schema/mcp_servers.ts";
export type { ConfigTableResult, TrellisConfig } from "./schema/mod.ts";
export { findKeyLine, validateLayer } from "./validate.ts";
export { formatKeyPath, isTable } from "./merge.ts";
export {
  formatKey,
  formatTablePath,
  formatValue,
  removeTomlTable,
  removeTomlValue,
  setTomlTable,
  setTomlValue,
} from "./toml_edit.ts";
export type { TomlValue } from "./toml_edit.ts";
export { editConfigFile } from "./user_config_file.ts";
export { setProjectTrust } from "./project_trust.ts";
