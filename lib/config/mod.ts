/**
 * Layered TOML configuration: built-in defaults < /etc/trellis/config.toml < $TRELLIS_HOME/config.toml
 * < trusted project `.trellis/config.toml` (root → cwd) < profile < `-c` flags, validated with zod,
 * with the layer each value came from, plus format-preserving, locked, verified edits of config
 * files (`editConfigFile`), and the readers of another agent's files Trellis reads in place
 * (`$CODEX_HOME/config.toml`, `~/.claude.json`, switched by `[compat]`).
 *
 * @example
 * ```ts
 * import { loadConfig } from "./mod.ts";
 * import { platform } from "../platform/mod.ts";
 * const loaded = await loadConfig(platform.fs, { cwd: platform.cwd(), env: platform.env });
 * console.log(loaded.config.model, loaded.provenance.get("model"));
 * ```
 * @module
 */
export { loadConfig, readTomlFile, userControlledLayers } from "./load.ts";
export type { ConfigLayer, LoadedConfig } from "./load.ts";
export { resolvePaths, userProtectedPaths } from "./paths.ts";
export type { TrellisPaths } from "./paths.ts";
export { parseOverride, splitKeyPath } from "./overrides.ts";
export {
  BUILT_IN_PROVIDERS,
  DEFAULT_CHECKPOINTS,
  DEFAULT_MODEL,
  DEFAULT_MODEL_PROVIDER,
  DEFAULT_SANDBOX_MODE,
  DEFAULT_TOOL_SET,
} from "./defaults.ts";
export { APPROVAL_POLICIES, SANDBOX_MODES } from "./schema/policies.ts";
export { type CheckpointShellMode } from "./schema/checkpoints.ts";
export type { ApprovalPolicy, SandboxMode } from "./schema/policies.ts";
export { SessionSettings } from "./session_settings.ts";
export { MCP_SERVER_NAME, parseConfigTable } from "./schema/mod.ts";
export { mcpServerFieldNames } from "./schema/mcp_servers.ts";
export type { TrellisConfig } from "./schema/mod.ts";
export { validateLayer } from "./validate.ts";
export { formatKeyPath, isTable } from "./merge.ts";
export { parseDocument, removeKey, setKey } from "./config_edit.ts";
export type { ConfigEdit, TomlTable } from "./config_edit.ts";
export type { TomlValue } from "./toml_editor.ts";
export { editConfigFile } from "./user_config_file.ts";
export { setProjectTrust } from "./project_trust.ts";
export type { ProjectTrustResult } from "./project_trust.ts";
export { hashProjectLayers, readLayerText } from "./project_layers.ts";
export { loadProjectInstructions } from "./project_instructions.ts";
export type { ProjectInstructions } from "./project_instructions.ts";
export type { InstructionFile } from "./instruction_file.ts";
export { findImports } from "./claude_imports.ts";
export { compatEnabled, compatFiles } from "./compat.ts";
export type { CompatFile } from "./compat.ts";
export { hydrateExtensionVars, installedGeminiExtensions, readOptionalText } from "./gemini_extensions.ts";
export type { GeminiExtension } from "./gemini_extensions.ts";
export { codexNotTakenLine, readCodexConfig } from "./codex_config_file.ts";
export { readClaudeJson } from "./claude_json_file.ts";
