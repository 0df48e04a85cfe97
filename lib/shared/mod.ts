/**
 * Leaf types shared by every subsystem: errors, outcomes, conversation items, the tool contract and
 * the event stream.
 *
 * @example
 * ```ts
 * import { UsageError } from "./mod.ts";
 * throw new UsageError('Cannot read config "x.toml": not found', { file: "x.toml" });
 * ```
 * @module
 */
export { CancelledError, describeError, isTrellisError, TrellisError, UsageError } from "./errors.ts";
export type { ErrnoCode, ErrorData, TrellisErrorCode } from "./errors.ts";
export { errorDiagnostic, warning } from "./outcome.ts";
export type { Diagnostic } from "./outcome.ts";
export { addUsage, emptyUsage, STRUCTURED_OUTPUT_TOOL } from "./conversation.ts";
export type {
  ConversationItem,
  HostedTools,
  ImageInput,
  JsonSchema,
  ModelRequest,
  ModelStreamEvent,
  OutputPart,
  ToolDeclaration,
  Usage,
} from "./conversation.ts";
export type {
  ApprovalNeed,
  ToolDefinition,
  ToolResult,
  ToolRunContext,
  ToolSource,
} from "./tool_contract.ts";
export type { UserAnswer, UserQuestion, UserQuestioner } from "./user_questions.ts";
export type { ApprovalSubject, CommandSandbox, NamedFileState, SessionScope } from "./approval_subject.ts";
export type { FileChangeRecorder } from "./file_changes.ts";
export { terminalText } from "./terminal_text.ts";
export { closestWord } from "./closest_word.ts";
export { parseJsoncText, parseJsonText } from "./json_text.ts";
export { jsonExact } from "./json_exact.ts";
export { BUILD_ID } from "./build_id.ts";
export { discardEvents, EVENT_SCHEMA_VERSION, eventUsage } from "./events.ts";
export type {
  CallFields,
  CallStatus,
  EventSink,
  EventUsage,
  ThreadItem,
  TrellisEventBody,
} from "./events.ts";
export { noLifecycleHooks } from "./lifecycle_hooks.ts";
export { blockedToolMessage, hookPromptMessage } from "./hook_messages.ts";
export { ruleRefusal } from "./permission_rules.ts";
export type { PermissionRuleHit, PermissionRuleKind, PermissionRules } from "./permission_rules.ts";
export type {
  BackgroundResults,
  CompactHookInput,
  ContextOutcome,
  HookTurnContext,
  LifecycleHooks,
  ObservedHookEvent,
  ObservedHookOutcome,
  PermissionRequestOutcome,
  PostToolUseOutcome,
  PreToolUseOutcome,
  PromptExpansion,
  StopOutcome,
  ToolHookInput,
  UserPromptOutcome,
} from "./lifecycle_hooks.ts";
export { describeSchema, z } from "./zod.ts";
export { memo } from "./memo.ts";
export { type ToolSetFace, unknownToolMessage } from "./tool_set_names.ts";
export { settle } from "./settle.ts";
export { deadline } from "./deadline.ts";
export { shellTokens, shellWord, singleQuoted } from "./shell_words.ts";
export type { ShellToken } from "./shell_words.ts";
export { commandPathWords } from "./command_paths.ts";
export { splitQuotedWords } from "./quoted_words.ts";
export {
  extractFrontmatter,
  frontmatterClosedIn,
  parseFrontmatterYaml,
  sanitizeSingleLine,
} from "./frontmatter.ts";
export type { FrontmatterSplit, YamlParse } from "./frontmatter.ts";
export { type FullYamlParse, loadYamlParser } from "./yaml_library.ts";
