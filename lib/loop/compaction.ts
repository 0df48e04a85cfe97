import type {
  ConversationItem,
  EventSink,
  HookTurnContext,
  LifecycleHooks,
  ThreadItem,
  ToolDeclaration,
  Usage,
} from "../shared/mod.ts";
import { CancelledError, describeError, emptyUsage, isTrellisError } from "../shared/mod.ts";
import { type ContextMeter, estimateRequestTokens } from "./context_meter.ts";
import {
  applyCompaction,
  buildReplacementHistory,
  type CompactionRecord,
  USER_MESSAGES_MAX_TOKENS,
} from "./compacted_history.ts";
import { SUMMARIZATION_PROMPT, summarizationPrompt } from "./compaction_prompt.ts";
import type { ItemRecorder, ModelClient } from "./ports.ts";
import { requestSummary } from "./summary_request.ts";
import { elideOldToolOutputs } from "./tool_output_elision.ts";

export interface CompactionSettings {
  /** The context size, in tokens, at which a compaction runs by itself; null: only when asked. */
  autoLimit: number | null;
  /** Tool outputs from before the last N user turns are elided first, by an automatic compaction (0: never). */
  elideAfterTurns: number;
  /** The summarization prompt (`compact_prompt`); default SUMMARIZATION_PROMPT. */
  prompt?: string;
}

/** What a compaction works with: the session's model, hooks and event stream, and where it writes. */
export interface CompactionPorts {
  model: ModelClient;
  modelName: string;
  instructions: string;
  hooks: LifecycleHooks;
  hookContext: HookTurnContext;
  events: EventSink;
  meter: ContextMeter;
  settings: CompactionSettings;
  /** Writes the record (one transcript line) and replaces the history it describes, in that order. */
  apply: (record: CompactionRecord) => Promise<void>;
  /** Records an item into the new history (SessionStart "compact" contexts). */
  record: ItemRecorder;
  /** The id of the `context_compaction` item in the event stream. */
  itemId: string;
}

export interface CompactionRequest {
  trigger: "manual" | "auto";
  history: readonly ConversationItem[];
  /** The context's size now (the meter's figure), reported as `tokens_before`. */
  tokensBefore: number;
  /** A manual compaction's own instructions, appended to the prompt and given to PreCompact hooks. */
  instructions?: string;
  /** Declared tools, for the size estimate after the compaction. */
  tools?: readonly ToolDeclaration[];
  /** Kept around the last user message of a compaction in the middle of a turn (see buildReplacementHistory). */
  beforeLastUser?: ConversationItem[];
  afterLastUser?: ConversationItem[];
}

export interface CompactionResult {
  status: "compacted" | "failed" | "skipped";
  strategy?: "summary" | "elide_tool_outputs";
  summary?: string;
  tokensBefore: number;
  tokensAfter: number;
  /** What the summarization request consumed. */
  usage: Usage;
  error?: { message: string; code?: string };
}

/** Elision alone is enough when it brings the context this far under the threshold. */
const ELISION_TARGET = 0.8;

/**
 * Compacts the conversation with Codex's semantics: a summarization request to the session's model
 * (no tools), then the history replaced by the most recent user messages and the summary, recorded
 * so a resume rebuilds it. An automatic compaction first tries eliding old tool outputs, which needs
 * no request. PreCompact/PostCompact observe (HK-14); SessionStart runs with source "compact" and
 * its context joins the new history. A compaction that fails — the model errs, the summary is
 * empty, it is cancelled — leaves the history as it was and says so (a warning, a failed item).
 */
export async function compactConversation(
  ports: CompactionPorts,
  request: CompactionRequest,
): Promise<CompactionResult> {
  const base = { tokensBefore: request.tokensBefore, usage: emptyUsage() };
  if (!request.history.some((i) => i.type !== "message" || i.role !== "developer")) {
    const error = { message: "there is nothing to compact yet", code: "empty" };
    return { ...base, status: "skipped", tokensAfter: request.tokensBefore, error };
  }
  let source = request.history;
  if (request.trigger === "auto" && ports.settings.elideAfterTurns > 0) {
    const elision = elideOldToolOutputs(source, {
      keepTurns: ports.settings.elideAfterTurns,
      trigger: request.trigger,
    });
    const limit = ports.settings.autoLimit ?? Infinity;
    if (
      elision.record.elided.length > 0 && request.tokensBefore - elision.savedTokens <= limit * ELISION_TARGET
    ) {
      return await finish(ports, request, elision.record, base);
    }
    // Not enough alone: the summary is asked of the lighter history.
    if (elision.record.elided.length > 0) source = applyCompaction(source, elision.record);
  }
  const started = item(ports, request, { status: "in_progress" });
  ports.events({ type: "item.started", item: started });
  await ports.hooks.preCompact?.(ports.hookContext, {
    trigger: request.trigger,
    customInstructions: request.instructions ?? "",
  });
  let answer: Awaited<ReturnType<typeof requestSummary>>;
  try {
    answer = await requestSummary(ports.model, {
      modelName: ports.modelName,
      instructions: ports.instructions,
      history: source,
      prompt: summarizationPrompt(ports.settings.prompt ?? SUMMARIZATION_PROMPT, request.instructions),
    }, ports.hookContext.signal);
  } catch (error) {
    const cancelled = error instanceof CancelledError || ports.hookContext.signal.aborted;
    return failed(ports, request, {
      message: cancelled ? "cancelled" : describeError(error),
      code: cancelled ? "cancelled" : isTrellisError(error) ? error.code : "internal",
    });
  }
  if (answer.trimmed > 0) {
    ports.events({
      type: "notice",
      message:
        `compaction: left out the ${answer.trimmed} oldest items so the summary request fits the model's window`,
    });
  }
  if (answer.summary === "") {
    return failed(
      ports,
      request,
      { message: "the model returned an empty summary", code: "empty_summary" },
      answer.usage,
    );
  }
  const record: CompactionRecord = {
    strategy: "summary",
    trigger: request.trigger,
    message: answer.summary,
    replacement_history: buildReplacementHistory({
      history: request.history,
      summary: answer.summary,
      budget: userMessagesBudget(ports.settings.autoLimit),
      beforeLastUser: request.beforeLastUser,
      afterLastUser: request.afterLastUser,
    }),
  };
  return await finish(ports, request, record, { ...base, usage: answer.usage }, started);
}

/** Writes and applies the record, then runs the hooks that follow a compaction and reports it. */
async function finish(
  ports: CompactionPorts,
  request: CompactionRequest,
  record: CompactionRecord,
  base: { tokensBefore: number; usage: Usage },
  started?: ThreadItem,
): Promise<CompactionResult> {
  if (!started) ports.events({ type: "item.started", item: item(ports, request, { status: "in_progress" }) });
  try {
    await ports.apply(record);
  } catch (error) {
    return failed(ports, request, { message: describeError(error), code: "io" }, base.usage);
  }
  let history = applyCompaction(request.history, record);
  const summary = record.strategy === "summary" ? record.message : undefined;
  if (record.strategy === "summary") {
    await ports.hooks.postCompact?.(ports.hookContext, { trigger: request.trigger, summary });
    const start = await ports.hooks.sessionStart(ports.hookContext, { source: "compact" });
    for (const content of start.additionalContexts) {
      const context: ConversationItem = { type: "message", role: "developer", content };
      await ports.record(context);
      history = [...history, context];
    }
  }
  ports.meter.reset();
  const tokensAfter = estimateRequestTokens({
    instructions: ports.instructions,
    input: history,
    tools: request.tools,
  });
  ports.events({
    type: "item.completed",
    item: item(ports, request, {
      status: "completed",
      strategy: record.strategy,
      tokens_before: base.tokensBefore,
      tokens_after: tokensAfter,
      ...(summary !== undefined ? { summary } : {}),
    }),
  });
  return {
    ...base,
    status: "compacted",
    strategy: record.strategy,
    tokensAfter,
    ...(summary ? { summary } : {}),
  };
}

function failed(
  ports: CompactionPorts,
  request: CompactionRequest,
  error: { message: string; code?: string },
  usage = emptyUsage(),
): CompactionResult {
  ports.events({
    type: "item.completed",
    item: item(ports, request, { status: "failed", error: error.message }),
  });
  ports.events({
    type: "warning",
    message: `Cannot compact the conversation: ${error.message}; the history is unchanged`,
  });
  return {
    status: "failed",
    tokensBefore: request.tokensBefore,
    tokensAfter: request.tokensBefore,
    usage,
    error,
  };
}

function item(
  ports: CompactionPorts,
  request: CompactionRequest,
  fields: Omit<Extract<ThreadItem, { type: "context_compaction" }>, "id" | "type" | "trigger">,
): ThreadItem {
  return { id: ports.itemId, type: "context_compaction", trigger: request.trigger, ...fields };
}

/** Whether the context reached the automatic threshold (Codex: `total_tokens >= auto_compact_limit`). */
export function reachedAutoLimit(settings: CompactionSettings, tokens: number): boolean {
  return settings.autoLimit !== null && tokens >= settings.autoLimit;
}

/** What no compaction can shrink: the instructions and the tool declarations (estimated). */
export function fixedRequestTokens(instructions: string, tools: readonly ToolDeclaration[]): number {
  return estimateRequestTokens({ instructions, input: [], tools });
}

/** Why an automatic compaction was not asked for: the request is over the limit without history. */
export function fixedPartWarning(fixed: number, settings: CompactionSettings): string {
  return `the instructions and tool declarations alone take about ${fixed} tokens ` +
    `(model_auto_compact_token_limit ${settings.autoLimit}): compacting the history cannot bring the ` +
    `request under it, so it is not compacted; declare fewer tools (tool_search = true, or an MCP ` +
    `server's enabled_tools) or raise model_context_window`;
}

/**
 * Codex keeps up to 20,000 tokens of user messages: 7–8% of the threshold of its usual windows
 * (272k, 400k). A small window could not spare that much, so the budget is also capped at a tenth
 * of the threshold — the same share, which Codex's own figure reaches from a 200k threshold up.
 */
export function userMessagesBudget(autoLimit: number | null): number {
  return autoLimit === null
    ? USER_MESSAGES_MAX_TOKENS
    : Math.max(1, Math.min(USER_MESSAGES_MAX_TOKENS, Math.floor(autoLimit / 10)));
}
