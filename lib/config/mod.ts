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
export type { ConfigLayer, LayerKind, LoadConfigOptions, LoadedConfig } from "./load.ts";
export { dirsBetween, resolvePaths, userProtectedPaths } from "./paths.ts";
export type { TrellisPaths } from "./paths.ts";
export { parseOverride, splitKeyPath } from "./overrides.ts";
export {
  BUILT_IN_DEFAULTS,
  BUILT_IN_PROVIDERS,
  DEFAULT_APPROVAL_POLICY,
  DEFAULT_CHECKPOINTS,
  DEFAULT_MODEL,
  DEFAULT_MODEL_PROVIDER,
  DEFAULT_SANDBOX_MODE,
  DEFAULT_TOOL_SET,
  HOME_WORKSPACE_SANDBOX_MODE,
} from "./defaults.ts";
export { APPROVAL_POLICIES, SANDBOX_MODES } from "./schema/policies.ts";
export { CHECKPOINT_SHELL_MODES, type CheckpointShellMode } from "./schema/checkpoints.ts";
export type { ApprovalPolicy, SandboxMode } from "./schema/policies.ts";
export { SessionSettings } from "./session_settings.ts";
export { workspaceHoldsHome } from "./home_workspace.ts";
export { knownKeysAt, MCP_SERVER_NAME, parseConfigTable } from "./schema/mod.ts";
export { mcpServerFieldNames } from "./schema/mcp_servers.ts";
export type { ConfigTableResult, TrellisConfig } from "./schema/mod.ts";
export { findKeyLine, validateLayer } from "./validate.ts";
export type { InvalidMcpServer } from "./validate.ts";
export { formatKeyPath, isTable } from "./merge.ts";
export { parseDocument, removeKey, setKey } from "./config_edit.ts";
export type { ConfigEdit, TomlTable } from "./config_edit.ts";
export type { TomlValue } from "./toml_editor.ts";
export { editConfigFile } from "./user_config_file.ts";
export type { ConfigFileEdit } from "./user_config_file.ts";
export { setProjectTrust } from "./project_trust.ts";
export type { ProjectTrustResult } from "./project_trust.ts";
export {
  hashProjectLayers,
  PROJECT_LAYER_FOLDERS,
  PROJECT_LAYER_NAMES,
  readLayerText,
  TRUST_WALK_MAX_DIRS,
} from "./project_layers.ts";
export type { TrustChanges } from "./project_layers.ts";
export { DEFAULT_PROJECT_DOC_MAX_BYTES, loadProjectInstructions } from "./project_instructions.ts";
export type { ProjectInstructions } from "./project_instructions.ts";
export type { InstructionFile } from "./instruction_file.ts";
export { findImports } from "./claude_imports.ts";
export { codexConfigFile, compatEnabled, compatFiles } from "./compat.ts";
export type { CompatFile } from "./compat.ts";
export type { CompatSwitch } from "./schema/compat.ts";
export { codexNotTakenLine, readCodexConfig } from "./codex_config_file.ts";
export type { CodexConfigFile } from "./codex_config_file.ts";
export { readClaudeJson } from "./claude_json_file.ts";
export type { ClaudeJsonFile } from "./claude_json_file.ts";
