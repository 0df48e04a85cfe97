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
export type { McpServersFromConfigOptions, PluginMcpServer } from "./servers_from_config.ts";
export { MCP_TIERS, resolveCatalog } from "./catalog.ts";
export type {
  CatalogConflict,
  FailedRegistration,
  McpOrigin,
  McpRegistration,
  McpTier,
  ResolvedCatalog,
} from "./catalog.ts";
export {
  DEFAULT_SAMPLING_MAX_TOKENS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_MAX_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  serverConfigFromTable,
} from "./server_config.ts";
/** The one server-name rule (config validates with it; lib/mcp and the CLI re-use it). */
export { MCP_SERVER_NAME } from "../config/mod.ts";
export {
  checkServerName,
  isValidServerName,
  serverEntryFromFlags,
  TRANSPORT_TYPES,
  transportType,
} from "./transport_rules.ts";
export type { ServerEntryFlags } from "./transport_rules.ts";
export type {
  ApprovalMode,
  McpSandbox,
  McpServerConfig,
  McpTransportConfig,
  SamplingPolicy,
} from "./server_config.ts";
export { expandVariables, parseMcpJson, readMcpServerEntry } from "./mcp_json.ts";
export { peerMcpServers } from "./peer_servers.ts";
export { importClaudeEntry, importCodexEntry } from "./import_entry.ts";
export type { ImportedEntry } from "./import_entry.ts";
export type { PeerServers } from "./peer_servers.ts";
export { createMcpRuntime } from "./runtime.ts";
export type { McpRuntime, McpRuntimeOptions, McpStepSnapshot } from "./runtime.ts";
export { ConnectionManager } from "./connection_manager.ts";
export type { ServerStatus } from "./server_connection.ts";
export { ElicitationRouter, noUiElicitationResponder } from "./elicitation.ts";
export type {
  ElicitationPolicy,
  ElicitationRequest,
  ElicitationResponder,
  ElicitationResponse,
} from "./elicitation.ts";
export { ttyElicitationResponder } from "./tty_elicitation.ts";
export type { ElicitationIo } from "./tty_elicitation.ts";
export { callManagerTool, findServerTool, listManagerTools, mcpApprovalNeeded } from "./mcp_tools.ts";
export type { McpToolListing } from "./mcp_tools.ts";
export { type McpServerOverview, mcpServerOverview } from "./server_overview.ts";
export type { Tool } from "./_sdk.ts";
export { listEveryServer, listResourcesOutput, readResourceOutput } from "./resource_tools.ts";
export { PINS_FILE, ToolPins } from "./tool_pins.ts";
export { visibleName } from "./tool_pin_policy.ts";
export type { PinningMode, PinRecord, PinState } from "./tool_pins.ts";
export { canonicalJson, pinnedDefinition, toolFingerprint } from "./tool_fingerprint.ts";
export type { PinnedDefinition } from "./tool_fingerprint.ts";
export { diffDefinitions, diffServerTools, MAX_CHANGES } from "./tool_diff.ts";
export type { FieldChange, ToolDiff } from "./tool_diff.ts";
export {
  findPromptMentions,
  getManagerPrompt,
  listManagerPrompts,
  promptArguments,
  splitPromptArguments,
} from "./prompts.ts";
export type { McpPromptListing, PromptMention } from "./prompts.ts";
export { MAX_STDERR_LOG_BYTES, RotatingLog } from "./stderr_log.ts";
export { assignToolNames, MAX_TOOL_NAME_BYTES, sanitizeNamePart } from "./tool_names.ts";
export { convertCallResult, DEFAULT_OUTPUT_BUDGET_BYTES, truncateHeadTail } from "./call_result.ts";
export { stderrLogPath } from "./client_factory.ts";
export { summarizeServer } from "./server_summary.ts";
export { type LastStartFailure, readLastStartFailure } from "./last_start.ts";
export {
  MAX_SERVER_INSTRUCTIONS_CHARS,
  SERVER_INSTRUCTIONS_HEADING,
  type ServerInstructions,
  serverInstructionsSection,
} from "./server_instructions.ts";
export { SamplingGate, summarize as summarizeSamplingRequest } from "./sampling.ts";
export type { SamplingOptions, SamplingRequest, SamplingResult, SamplingVerdict } from "./sampling.ts";
export { rootsFromPaths } from "./roots.ts";
export { CredentialStore } from "./credential_store.ts";
export type { StoredCredentials } from "./credential_store.ts";
export { AuthorizationDeniedError, codeFromRedirect, TrellisOAuthProvider } from "./oauth_provider.ts";
export type { TrellisOAuthOptions } from "./oauth_provider.ts";
export { MAX_AUTH_ATTEMPTS, oauthFetch } from "./oauth_fetch.ts";
export { authStatus, authStatuses, loginServer, storedOAuthFetch } from "./oauth_login.ts";
export type { LoginOptions, McpAuthStatus } from "./oauth_login.ts";
export { browserCommand, openInBrowser } from "./open_browser.ts";
export type { OpenBrowserOptions } from "./open_browser.ts";
export { probeServer } from "./probe.ts";
export { checkServerSandbox } from "./sandbox_check.ts";
export type { SandboxCheckOptions, SandboxCheckReport } from "./sandbox_check.ts";
export { type Denial, findDenials } from "./sandbox_denials.ts";
export type { ServerConfinement, TransportContext } from "./client_factory.ts";
export type { ProbeOptions } from "./probe.ts";
export { argumentsFromSchema, defaultsFromSchema } from "./schema_values.ts";
export {
  declarationTokens,
  DEFAULT_TOOL_SEARCH_SHARE,
  SEARCH_TOOLS_NAME,
  searchTools,
  shouldDeferTools,
} from "./tool_search.ts";
export type { ToolSearchOptions } from "./tool_search.ts";
export type { McpServerSummary } from "./server_summary.ts";
export { CLIENT_ELICITATION_TIMEOUT_MS } from "./tool_server.ts";
export type {
  ClientElicitation,
  ServedTool,
  ServedToolCall,
  ServedToolResult,
  ServedToolsInfo,
} from "./tool_server.ts";
export { serveToolsOverStdio } from "./serve_stdio.ts";
export type { ServedConnection } from "./serve_stdio.ts";
export { MCP_HTTP_PATH, serveToolsOverHttp } from "./serve_http.ts";
export type { ServedHttp } from "./serve_http.ts";
