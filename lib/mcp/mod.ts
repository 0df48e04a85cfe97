/**
 * The MCP client runtime on the official SDK: server catalog from config layers, a trusted
 * `.mcp.json` and plugins (MCP-1…5); a concurrent connection manager with startup statuses and
 * required servers (MCP-6/7); per-step snapshots and generation refresh (MCP-8); MCP tools and the
 * three resource tools as loop ToolDefinitions (MCP-9…14); elicitation routing (MCP-15);
 * task-augmented calls and the `tool_max_sec` cap; prompts (`$mcp__server__prompt`); pinned tool
 * definitions in `$TRELLIS_HOME/mcp_pins.json` (issue #17).
 *
 * @example
 * ```ts
 * import { createMcpRuntime, mcpServersFromConfig, noUiElicitationResponder } from "./mod.ts";
 * import { loadConfig } from "../config/mod.ts";
 * import { platform } from "../platform/mod.ts";
 * import { discardEvents as events } from "../shared/mod.ts";
 * const loaded = await loadConfig(platform.fs, { cwd: platform.cwd(), env: platform.env });
 * const { catalog } = mcpServersFromConfig(loaded, { platform, pluginServers: [] });
 * const mcp = createMcpRuntime({
 *   platform, catalog, events, cwd: loaded.paths.cwd, home: loaded.paths.home,
 *   elicitation: noUiElicitationResponder, approvalPolicy: "on-request",
 * });
 * mcp.start();
 * await mcp.awaitStartup({ graceMs: 2000 });
 * const step = mcp.captureStep(); // step.tools → the model; step.release() after the step
 * ```
 * @module
 */
export { mcpServersFromConfig } from "./servers_from_config.ts";
export type { PluginMcpServer } from "./servers_from_config.ts";
export { resolveCatalog } from "./catalog.ts";
export type { CatalogConflict, McpRegistration, ResolvedCatalog } from "./catalog.ts";
export { serverConfigFromTable } from "./server_config.ts";
export { checkServerName, serverEntryFromFlags } from "./transport_rules.ts";
export type { ServerEntryFlags } from "./transport_rules.ts";
export type { McpSandbox, McpServerConfig } from "./server_config.ts";
export { parseMcpJson, readMcpServerEntry } from "./mcp_json.ts";
export { importClaudeEntry, importCodexEntry } from "./import_entry.ts";
export type { ImportedEntry } from "./import_entry.ts";
export { createMcpRuntime } from "./runtime.ts";
export type { McpRuntime, McpRuntimeOptions, McpStepSnapshot } from "./runtime.ts";
export { askingAgentNote, ElicitationRouter, noUiElicitationResponder } from "./elicitation.ts";
export type { ElicitationRequest, ElicitationResponder, ElicitationResponse } from "./elicitation.ts";
export { ttyElicitationResponder } from "./tty_elicitation.ts";
export { callManagerTool, findServerTool, listManagerTools, mcpApprovalNeeded } from "./mcp_tools.ts";
export type { McpToolListing } from "./mcp_tools.ts";
export { type McpServerOverview, mcpServerOverview } from "./server_overview.ts";
export type { Tool } from "./_sdk.ts";
export { listEveryServer, readResourceOutput } from "./resource_tools.ts";
export { ToolPins } from "./tool_pins.ts";
export { visibleName } from "./tool_pin_policy.ts";
export type { PinningMode } from "./tool_pins.ts";
export { canonicalJson, toolFingerprint } from "./tool_fingerprint.ts";
export { diffServerTools } from "./tool_diff.ts";
export type { ToolDiff } from "./tool_diff.ts";
export {
  findPromptMentions,
  getManagerPrompt,
  listManagerPrompts,
  promptArguments,
  splitPromptArguments,
} from "./prompts.ts";
export type { McpPromptListing } from "./prompts.ts";
export { MAX_STDERR_LOG_BYTES, RotatingLog } from "./stderr_log.ts";
export { assignToolNames } from "./tool_names.ts";
export { convertCallResult, truncateHeadTail } from "./call_result.ts";
export { stderrLogPath } from "./client_factory.ts";
export { summarizeServer } from "./server_summary.ts";
export { type LastStartFailure, readLastStartFailure } from "./last_start.ts";
export { type ServerInstructions, serverInstructionsSection } from "./server_instructions.ts";
export type { SamplingRequest, SamplingResult } from "./sampling.ts";
export { CredentialStore } from "./credential_store.ts";
export { authStatus, authStatuses, loginServer } from "./oauth_login.ts";
export { probeServer } from "./probe.ts";
export type { ProbeOptions } from "./probe.ts";
export { checkServerSandbox } from "./sandbox_check.ts";
export type { SandboxCheckReport } from "./sandbox_check.ts";
export { type Denial, findDenials } from "./sandbox_denials.ts";
export type { ServerConfinement } from "./client_factory.ts";
export { shouldDeferTools } from "./tool_search.ts";
export type { McpServerSummary } from "./server_summary.ts";
export type { ServedTool, ServedToolCall, ServedToolResult, ServedToolsInfo } from "./tool_server.ts";
export { serveToolsOverStdio } from "./serve_stdio.ts";
export { serveToolsOverHttp } from "./serve_http.ts";
