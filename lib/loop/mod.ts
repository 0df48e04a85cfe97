/**
 * The turn/step state machine: samples the model, runs tool calls through hooks and approval,
 * feeds outputs back, and records the transcript. It owns its ports (ModelClient, StepToolCatalog,
 * Approver, LifecycleHooks) and knows nothing of who implements them.
 *
 * @example
 * ```ts
 * import { runTurn, noTtyApprover } from "./lib/loop/mod.ts";
 * // const result = await runTurn({ model, captureTools, approver: noTtyApprover, ... });
 * ```
 * @module
 */
export { runTurn } from "./turn.ts";
export type { TurnOptions, TurnResult, TurnStatus } from "./turn.ts";
export { noTtyApprover, ttyApprover } from "./approvers.ts";
export type { PromptIo } from "./approvers.ts";
export type {
  ApprovalDecision,
  ApprovalRequest,
  Approver,
  ItemRecorder,
  ModelClient,
  StepToolCatalog,
} from "./ports.ts";
export { Transcript, TranscriptStore } from "./transcript.ts";
export type { SessionMeta } from "./transcript.ts";
export { ContextMeter, estimateRequestTokens } from "./context_meter.ts";
export { compactConversation, reachedAutoLimit } from "./compaction.ts";
export type { CompactionRequest, CompactionResult, CompactionSettings } from "./compaction.ts";
export type { CompactionRecord } from "./compacted_history.ts";
export { SUMMARIZATION_PROMPT, SUMMARY_PREFIX } from "./compaction_prompt.ts";
export type { TurnCompaction } from "./turn_compaction.ts";
