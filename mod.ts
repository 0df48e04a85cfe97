/**
 * Trellis as a library: named re-exports of each subsystem's public API.
 *
 * @example
 * ```ts
 * import { loadConfig, noTtyApprover, platform, Session } from "./mod.ts";
 * const loaded = await loadConfig(platform.fs, { cwd: platform.cwd(), env: platform.env });
 * const session = await Session.open({ platform, loaded, events: console.log, approver: noTtyApprover });
 * await session.runTurn({ prompt: "list the files", maxSteps: 20, signal: new AbortController().signal });
 * await session.close();
 * ```
 * @module
 */
export { Session } from "./lib/app/mod.ts";
export type { SessionOptions, TurnRequest } from "./lib/app/mod.ts";
export { runCli, VERSION } from "./lib/cli/mod.ts";
export { editConfigFile, loadConfig, setProjectTrust } from "./lib/config/mod.ts";
export type { LoadedConfig, TrellisConfig } from "./lib/config/mod.ts";
export { noTtyApprover, runTurn, TranscriptStore, ttyApprover } from "./lib/loop/mod.ts";
export type { Approver, ModelClient, StepToolCatalog, TurnOptions, TurnResult } from "./lib/loop/mod.ts";
export { createModelClient, resolveProvider } from "./lib/model/mod.ts";
export { createBuiltinTools, resolvePermissionProfile } from "./lib/tools/mod.ts";
export type { PermissionProfile } from "./lib/tools/mod.ts";
export { createMcpRuntime, mcpServersFromConfig } from "./lib/mcp/mod.ts";
export type { McpRuntime, McpStepSnapshot } from "./lib/mcp/mod.ts";
export {
  createSkillsService,
  renderSkillsCatalog,
  selectSkills,
  skillsInputFromConfig,
} from "./lib/skills/mod.ts";
export { createHookEngine, loadHooks } from "./lib/hooks/mod.ts";
export { installPlugin, loadPlugins, parseManifest, PluginCache } from "./lib/plugins/mod.ts";
export { childEnv, detectSandbox, platform, runCommand, sandboxArgv } from "./lib/platform/mod.ts";
export type { Platform } from "./lib/platform/mod.ts";
export { CancelledError, noLifecycleHooks, TrellisError, UsageError } from "./lib/shared/mod.ts";
export type { LifecycleHooks, ToolDefinition, TrellisEvent } from "./lib/shared/mod.ts";
