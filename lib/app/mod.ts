/**
 * The composition root: config → plugins → skills/hooks/MCP → loop. The only place that wires
 * subsystems together: the Workspace assembles them (each part opened when first asked for), the
 * CLI drives what it builds, and `Trellis` (the library face, root mod.ts) wraps it for embedders.
 *
 * @example
 * ```ts
 * import { noTtyApprover, Workspace } from "./mod.ts";
 * import { platform } from "../platform/mod.ts";
 * const ws = await Workspace.open(platform, { overrides: ['model="gpt-5.1"'] });
 * console.log((await ws.hooks()).handlers.length, (await ws.skills()).snapshot.skills.length);
 * const session = await ws.openSession({ events: console.log, approver: noTtyApprover });
 * await session.start(new AbortController().signal); // SessionStart hooks
 * await session.runTurn({ prompt: "hi", maxSteps: 20, signal: new AbortController().signal });
 * await session.close();
 * ```
 * @module
 */
export { Trellis, TrellisSession } from "./embedding.ts";
export type {
  ApprovalQuestion,
  ConfigMessage,
  HookInfo,
  McpServerInfo,
  McpToolInfo,
  OpenOptions,
  PluginInfo,
  SessionOpenOptions,
  SkillInfo,
  SubagentInfo,
  TokenUsage,
  TurnOptions,
  TurnOutcome,
} from "./embedding.ts";
export { Workspace } from "./workspace.ts";
export { checkGitRepo } from "./git_repo_check.ts";
export { loadOutputSchema, repairPrompt } from "./output_schema.ts";
export type { OutputSchema } from "./output_schema.ts";
export { agentDetail, agentRow } from "./agent_listing.ts";
export type { WorkspaceSessionOptions } from "./workspace.ts";
export { editMcpServer } from "./mcp_config_edits.ts";
export { listMcpServers, loginMcpServer, logoutMcpServer } from "./mcp_inspection.ts";
export { PluginAdmin } from "./plugin_admin.ts";
// What the CLI's commands do beyond the Workspace (#26 item 2): each an operation over what the
// Workspace loaded, returning data the front end prints — never a subsystem function passed through.
export {
  callMcpTool,
  listMcpPrompts,
  listMcpResources,
  mcpPinDiff,
  mcpPromptMentionError,
  mcpToolsReport,
  probeMcpUrl,
  readMcpResource,
  trustMcpTools,
} from "./mcp_operations.ts";
export { showSkill, skillsDoctorReport, skillsListReport } from "./skill_reports.ts";
export type { SkillProblems } from "./skill_reports.ts";
export { doctorWorkspaceHooks, hookReviewNotice, testHooks } from "./hook_reports.ts";
export { configReport } from "./config_report.ts";
// The contracts a front end implements or renders: the loop's approver and its prompt text, MCP's
// form responder, and the display-safe form of a server-supplied name.
export type { LoadedConfig } from "../config/mod.ts";
export type { HookHandlerInfo, HookRunRecord, HookStateChange, PermissionRuleEntry } from "../hooks/mod.ts";
export {
  approvalChoices,
  approvalPromptLines,
  checkResumeId,
  noTtyApprover,
  promptingApprover,
  ttyApprover,
} from "../loop/mod.ts";
export type { ApprovalAnswer, ApprovalChoice, ApprovalRequest, Approver, TurnResult } from "../loop/mod.ts";
export { askingAgentNote, visibleName } from "../mcp/mod.ts";
export type {
  ElicitationRequest,
  ElicitationResponder,
  ElicitationResponse,
  McpSandbox,
  McpServerOverview,
  ToolDiff,
} from "../mcp/mod.ts";
export type { LoadedPlugin, PluginComponent } from "../plugins/mod.ts";
export { Session } from "./session.ts";
// The names `/approvals` and `/sandbox` accept, from the config's one list.
export { APPROVAL_POLICIES, SANDBOX_MODES } from "../config/mod.ts";
export { isTypedPrompt, listSessions, resolveResume } from "./session_listing.ts";
export type { SessionSummary } from "./session_listing.ts";
export { describeUntrusted, untrustedParts } from "./trust_offer.ts";
export type { SessionOptions } from "./session.ts";
export type { SubagentStatus } from "./subagent_board.ts";
export type { Attachment } from "./attachments.ts";
// The file names `@path` reads as images (#23 item 3); the bytes still decide.
export { IMAGE_EXTENSIONS } from "../tools/mod.ts";
export type { UserAnswer, UserQuestion, UserQuestioner } from "../shared/mod.ts";
export { BASE_INSTRUCTIONS } from "./base_instructions.ts";
export { skillsInputFor } from "./skills_input.ts";
export { resolveContextWindow } from "./context_window.ts";
export type { McpCommandRuntime } from "./mcp_command.ts";
export { mcpSandboxCheck } from "./mcp_sandbox_check.ts";
export { mcpConfinement } from "./mcp_confinement.ts";
export { workingTreeDiff } from "./working_diff.ts";
export { serveMcp } from "./mcp_server/serve.ts";
export { importInto, planImport, readImportSources } from "./import_plan.ts";
export type { ImportItem, ImportPlan, ImportSources } from "./import_plan.ts";
export { sessionContextLedger } from "./session_context_ledger.ts";
export type { ContextLedger, LedgerSource } from "./context_ledger.ts";
export { runDoctor } from "./doctor/doctor.ts";
export type { DoctorReport, DoctorRow } from "./doctor/rows.ts";
export { serveAcpAgent } from "./acp_host.ts";
// Checkpoints and rewind (#25 item 2): the one operation `trellis rewind`, `/rewind` and ACP call.
export { rewindSession } from "./rewind.ts";
export type { RewindPoint, SessionRewindOutcome } from "./rewind.ts";
export type { FileRestore, RewindOutcome, RewindPlan } from "../checkpoints/mod.ts";
export type { LiveRewindRequest } from "./session.ts";
