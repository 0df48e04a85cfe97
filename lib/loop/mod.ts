/**
 * The turn/step state machine: samples the model, runs tool calls through hooks and approval,
 * feeds outputs back, and records the transcript. It owns its ports (ModelClient, StepToolCatalog,
 * Approver, LifecycleHooks) and knows nothing of who implements them.
 *
 * @example
 * ```ts
 * import { runTurn, noTtyApprover } from "./mod.ts";
 * // const result = await runTurn({ model, captureTools, approver: noTtyApprover, ... });
 * ```
 * @module
 */
export { runTurn } from "./turn.ts";
export type { TurnInbox, TurnOptions, TurnResult, TurnStatus } from "./turn.ts";
export { noTtyApprover, promptingApprover, rememberingApprover, ttyApprover } from "./approvers.ts";
export { approvalRequest, approves } from "./approval_request.ts";
export {
  agentNote,
  approvalChoices,
  approvalPromptLines,
  commandText,
  renderApprovalPrompt,
} from "./approval_prompt.ts";
export type { ApprovalChoice } from "./approval_prompt.ts";
export type { ApprovalRequestInput } from "./approval_request.ts";
export { scopeCovers, SessionApprovals, sessionScopesFor } from "./session_scopes.ts";
export type { PromptIo } from "./approvers.ts";
export type {
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalRequest,
  ApprovalSubject,
  Approver,
  ItemRecorder,
  ModelClient,
  RequestingAgent,
  SessionScope,
  StepToolCatalog,
} from "./ports.ts";
export { checkResumeId, checkSessionId, isSessionId, Transcript, TranscriptStore } from "./transcript.ts";
export { historyLines, rebuildHistory } from "./transcript_history.ts";
export type { SessionMeta } from "./transcript.ts";
export { transcriptTurns, truncateTranscript } from "./transcript_turns.ts";
export type { TranscriptTurn } from "./transcript_turns.ts";
export { ContextMeter, estimateRequestTokens } from "./context_meter.ts";
export { compactConversation, fixedRequestTokens, reachedAutoLimit } from "./compaction.ts";
export type { CompactionRequest, CompactionResult, CompactionSettings } from "./compaction.ts";
export type { CompactionRecord } from "./compacted_history.ts";
export { isSummaryMessage, SUMMARIZATION_PROMPT, SUMMARY_PREFIX } from "./compaction_prompt.ts";
export type { TurnCompaction } from "./turn_compaction.ts";
