/**
 * Trellis as a library: the public API of each subsystem, re-exported by name.
 * @module
 */
export { runCli, VERSION } from "./lib/cli/mod.ts";
export { editConfigFile, loadConfig } from "./lib/config/mod.ts";
export type { LoadedConfig, TrellisConfig } from "./lib/config/mod.ts";
export { platform } from "./lib/platform/mod.ts";
export type { Platform } from "./lib/platform/mod.ts";
export { CancelledError, TrellisError, UsageError } from "./lib/shared/mod.ts";
export type { ToolDefinition, TrellisEvent } from "./lib/shared/mod.ts";
