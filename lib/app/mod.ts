/**
 * The composition root: config → plugins → skills/hooks/MCP → loop. The only place that wires
 * subsystems together; the CLI drives what it builds.
 *
 * @example
 * ```ts
 * import { Session } from "./lib/app/mod.ts";
 * // const session = await Session.open({ platform, loaded, events, approver });
 * // const result = await session.runTurn({ prompt: "hi", maxSteps: 20, signal });
 * ```
 * @module
 */
export { Session } from "./session.ts";
export type { CompactOutcome, CompactRequest, SessionInfo, SessionOptions, TurnRequest } from "./session.ts";
export { autoCompactTokenLimit, compactionSettings } from "./compaction_settings.ts";
export type { Attachment } from "./attachments.ts";
export { BASE_INSTRUCTIONS } from "./base_instructions.ts";
export { hookConfinement } from "./hooks_wiring.ts";
export { skillsInputFor } from "./capabilities.ts";
export { resolveContextWindow } from "./context_window.ts";
export { mcpCatalogFor, openMcpCommand } from "./mcp_command.ts";
export type { McpCommandOptions, McpCommandRuntime } from "./mcp_command.ts";
export { mcpSandboxCheck } from "./mcp_sandbox_check.ts";
export type { ExplainedDenial, McpSandboxCheck, McpSandboxCheckOptions } from "./mcp_sandbox_check.ts";
export { mcpConfinement } from "./mcp_confinement.ts";
export { serveMcp } from "./mcp_server/serve.ts";
export type { McpServeOptions } from "./mcp_server/serve.ts";
export type { CallConfig } from "./mcp_server/thread_registry.ts";
export { planImport, readImportSources } from "./import_plan.ts";
export type { ImportItem, ImportPlan, ImportSource, ImportSources } from "./import_plan.ts";
export { sessionContextLedger } from "./session_context_ledger.ts";
export type { EncodingImport } from "./token_counter.ts";
export { buildContextLedger, formatTokens } from "./context_ledger.ts";
export type { ContextLedger, LedgerRow, LedgerSource } from "./context_ledger.ts";
export type { InputPlace, RequestParts } from "./request_parts.ts";
export { runDoctor } from "./doctor/doctor.ts";
export type { DoctorOptions } from "./doctor/doctor.ts";
export type { DoctorReport, DoctorRow } from "./doctor/rows.ts";
