import type {
  BackgroundResults,
  ConversationItem,
  EventSink,
  HookTurnContext,
  LifecycleHooks,
  PermissionRules,
  PromptExpansion,
  StopOutcome,
  ToolDefinition,
  Usage,
} from "../shared/mod.ts";
import {
  addUsage,
  CancelledError,
  describeError,
  emptyUsage,
  eventUsage,
  hookPromptMessage,
  isTrellisError,
} from "../shared/mod.ts";
import type { Approver, ItemRecorder, ModelClient, StepToolCatalog } from "./ports.ts";
import { InterruptedAnswer, sampleStep } from "./sampling.ts";
import { type CallOutcome, runToolCall } from "./tool_call.ts";
import { runCallsInOrder } from "./call_scheduler.ts";
import { type TurnCompaction, TurnCompactor } from "./turn_compaction.ts";

export interface TurnOptions {
  turnId: string;
  model: ModelClient;
  modelName: string;
  /** This turn's reasoning effort over the client's (a subagent's own, #22); unset: the client's. */
  reasoningEffort?: string;
  instructions: string;
  /** Everything recorded before this turn (resumed transcript + earlier turns). */
  history: ConversationItem[];
  /** The user's prompt for this turn. */
  prompt: string;
  /** Context recorded just before the prompt once it is accepted (catalogs, summaries). */
  preamble?: ConversationItem[];
  /** Items injected after the prompt (selected skill bodies, plugin summaries …). */
  injected: ConversationItem[];
  /**
   * Slash commands, plugin commands and MCP prompts the prompt expanded into: each fires
   * UserPromptExpansion after UserPromptSubmit; a block ends the turn before anything is recorded,
   * the others' items are recorded before `injected` (#24 item 1).
   */
  expansions?: PromptExpansion[];
  /** Called before every sampling: the step's immutable tool snapshot (MCP-8, PL-11). */
  captureTools: () => Promise<StepToolCatalog>;
  hooks: LifecycleHooks;
  /**
   * What hooks are told of the session; a function is read at each call, so a hook sees the
   * permission mode and model of the moment (`/approvals`, `/model` during the turn).
   */
  hookContext:
    | Omit<HookTurnContext, "turnId" | "signal">
    | (() => Omit<HookTurnContext, "turnId" | "signal">);
  approver: Approver;
  /** Permission rules (`permissions` allow/ask/deny); absent: none. */
  permissions?: PermissionRules;
  /** The approval policy; a function is read at each call (a session's `/approvals`). */
  approvalPolicy: string | (() => string);
  /**
   * Shell runs sandboxed (sandbox_mode ≠ danger-full-access); enables on-failure retries. A function
   * is read at each call (a session's `/sandbox`).
   */
  sandboxed?: boolean | (() => boolean);
  events: EventSink;
  record: ItemRecorder;
  maxSteps: number;
  signal: AbortSignal;
  cwd: string;
  /** Observes each completed call (implicit skill-use detection, telemetry). */
  onCall?: (tool: ToolDefinition, args: string) => void;
  /** The context's size and automatic compaction between steps (#15 item 6); absent: neither. */
  compaction?: TurnCompaction;
  /** Messages for the model that arrive while the turn runs (background subagents, #22). */
  inbox?: TurnInbox;
}

/**
 * A background subagent's notification (#22 item 2) reaches the model as a user message: `take`
 * hands over what arrived (delivered after the step's calls), `settle` waits — before the turn
 * would end — for children still running, as Codex and Claude Code keep a turn open for them.
 */
export interface TurnInbox {
  take(): string[];
  settle(signal: AbortSignal): Promise<string[]>;
  /** The children's usage since last asked: `turn.completed` counts it (#22 item 6). */
  usage?(): Usage;
}

export type TurnStatus = "completed" | "blocked" | "stopped" | "max_steps" | "failed" | "aborted";

export interface TurnResult {
  status: TurnStatus;
  lastMessage: string | null;
  usage: Usage;
  steps: number;
  error?: { message: string; code?: string };
}

/**
 * One turn: prompt hooks, then sample → run calls → feed outputs back until the model answers
 * without calls (and Stop hooks do not continue) or --max-steps is reached. Every call the model
 * issued gets exactly one recorded output, also when the turn is cancelled or the stream breaks.
 */
export async function runTurn(options: TurnOptions): Promise<TurnResult> {
  // A person answering "no, and stop the turn" at an approval prompt aborts it like Ctrl-C does.
  const stopByUser = new AbortController();
  const signal = AbortSignal.any([options.signal, stopByUser.signal]);
  const hookContextNow = (): HookTurnContext => ({
    ...current(options.hookContext),
    turnId: options.turnId,
    signal,
  });
  // The prompt, compaction and Stop hooks see the turn's start; each call's hooks see their moment.
  const hookContext = hookContextNow();
  const conversation = [...options.history];
  const record = async (item: ConversationItem) => {
    conversation.push(item);
    options.compaction?.meter.add(item);
    await options.record(item);
  };
  const developer = (content: string) => record({ type: "message", role: "developer", content });
  let usage = emptyUsage();
  let compactor: TurnCompactor | undefined;
  let steps = 0;
  let samplings = 0; // samplings that completed: what `usage` has counted
  let lastMessage: string | null = null;
  options.events({ type: "turn.started", turn_id: options.turnId });

  const prompt = await options.hooks.userPromptSubmit(hookContext, { prompt: options.prompt });
  if (prompt.block) {
    for (const c of prompt.additionalContexts) await developer(c);
    options.events({
      type: "warning",
      message: `UserPromptSubmit hook blocked the prompt: ${prompt.block.reason}`,
    });
    return finish("blocked");
  }
  const expansion = await expandPrompt(options, hookContext);
  if (expansion.block) {
    for (const c of [...prompt.additionalContexts, ...expansion.contexts]) await developer(c);
    options.events({ type: "warning", message: expansion.block });
    return finish("blocked");
  }
  for (const item of options.preamble ?? []) await record(item);
  await record({ type: "message", role: "user", content: options.prompt });
  const afterPrompt = conversation.length;
  for (const c of [...prompt.additionalContexts, ...expansion.contexts]) await developer(c);
  if (prompt.stop || expansion.stop) return finish("stopped");
  for (const item of [...expansion.items, ...options.injected]) await record(item);

  let stopHookActive = false;
  let itemCounter = 0;
  const nextItemId = () => `item_${options.turnId}_${itemCounter++}`;
  if (options.compaction) {
    compactor = new TurnCompactor(options.compaction, { ...options, hookContext, record, nextItemId });
    compactor.afterPrompt.push(...conversation.slice(afterPrompt));
  }
  try {
    while (steps < options.maxSteps) {
      steps++;
      const catalog = await options.captureTools();
      let outcomes: CallOutcome[] = [];
      try {
        const declared = catalog.tools.map((t) => ({
          name: t.name,
          description: t.description,
          parameters: t.parameters,
          ...(t.namespace ? { namespace: t.namespace } : {}),
          ...(t.freeform ? { freeform: t.freeform } : {}),
        }));
        await compactor?.beforeSampling(conversation, declared);
        const sampled = await sampleStep(options.model, {
          model: options.modelName,
          instructions: catalog.instructions
            ? `${options.instructions}\n\n${catalog.instructions}`
            : options.instructions,
          input: conversation,
          tools: declared,
          parallelToolCalls: true,
          ...(options.reasoningEffort ? { reasoningEffort: options.reasoningEffort } : {}),
        }, { signal, events: options.events, nextItemId });
        usage = addUsage(usage, sampled.usage);
        samplings++;
        for (const item of sampled.items) await record(item);
        options.compaction?.meter.sampled(sampled.usage);
        const calls = sampled.items.filter((i): i is ConversationItem & { type: "function_call" } =>
          i.type === "function_call"
        );
        const message = sampled.items.filter((i) => i.type === "message" && i.role === "assistant").at(-1);
        if (message?.type === "message") lastMessage = message.content;
        const tools = new Map(catalog.tools.map((t) => [t.name, t]));
        // An older name a tool still answers to (`Task` for `Agent`), unless a tool is called that.
        for (const t of catalog.tools) {
          for (const alias of t.callAliases ?? []) if (!tools.has(alias)) tools.set(alias, t);
        }
        outcomes = await runCallsInOrder(calls, tools, {
          run: (call) =>
            runToolCall(call, {
              tools,
              hooks: options.hooks,
              hookContext: hookContextNow(),
              approver: options.approver,
              approvalPolicy: current(options.approvalPolicy),
              sandboxed: current(options.sandboxed ?? false),
              events: options.events,
              cwd: options.cwd,
              signal,
              stopTurn: () => stopByUser.abort(),
              ...(options.permissions ? { permissions: options.permissions } : {}),
            }),
          events: options.events,
          nextItemId,
          cwd: options.cwd,
          // The thread that makes the calls: a child's own id inside a subagent (Codex's sender_thread_id).
          threadId: hookContext.agent?.id ?? hookContext.sessionId,
          onCall: options.onCall,
        });
        for (const o of outcomes) await record(o.output);
        for (const o of outcomes) for (const c of o.contexts) await developer(c);
        const batch = outcomes.flatMap((o) => o.batchEntry ? [o.batchEntry] : []);
        if (batch.length > 0 && options.hooks.fire && !signal.aborted) {
          // PostToolBatch (#24 item 1): once per step, after its parallel calls all answered.
          const after = await options.hooks.fire(hookContextNow(), "PostToolBatch", { tool_calls: batch });
          for (const c of after.additionalContexts) await developer(c);
          if (after.block) await developer(after.block.reason);
          if (after.stop) return finish("stopped");
        }
        // A PreToolUse hook deferred a call: the turn ends with it pending (Claude Code's defer).
        const deferred = outcomes.find((o) => o.deferred !== undefined);
        if (deferred) {
          options.events({ type: "warning", message: `tool call deferred: ${deferred.deferred}` });
          return finish("stopped");
        }
        // A wake that arrived while the model answered is for the model: one more step, not the end.
        const woken = await deliverBackground(options.hooks.takeBackgroundResults?.());
        const mail = await deliver(options.inbox?.take() ?? []);
        if (signal.aborted) throw new CancelledError();
        if (calls.length > 0 || woken || mail) continue;
        // A background child still running answers before the turn ends (its notification).
        if (await deliver(await options.inbox?.settle(signal) ?? [])) continue;
        if (signal.aborted) throw new CancelledError();
      } finally {
        catalog.release();
      }
      const stop = await options.hooks.stop(hookContext, {
        stopHookActive,
        lastAssistantMessage: lastMessage,
      });
      if (stop.shouldStop) return finish("completed");
      // HK-5: running asyncRewake hooks may still wake the model before the turn ends.
      const woken = stop.continuations.length > 0 ||
        await deliverBackground(await options.hooks.settleBackground?.());
      if (!woken) return finish("completed");
      stopHookActive = true;
      await continueWith(stop.continuations);
    }
    return finish("max_steps", {
      message: `reached the step limit (--max-steps ${options.maxSteps})`,
      code: "max_steps",
    });
  } catch (error) {
    if (signal.aborted || error instanceof CancelledError) {
      // The answer the person interrupted is kept as far as it went (#21 item 3), as Codex does:
      // the replay of a resumed session shows it, and the model sees what it had said.
      if (error instanceof InterruptedAnswer) {
        await record({ type: "message", role: "assistant", content: error.partialText }).catch(() => {});
      }
      const message = stopByUser.signal.aborted && !options.signal.aborted
        ? "stopped: the user declined a call and stopped the turn"
        : "interrupted";
      // Codex's Interrupt (#24 item 1): observers only; the turn's signal is spent, so a fresh one.
      await options.hooks.fire?.({ ...hookContext, signal: new AbortController().signal }, "Interrupt", {})
        .catch(() => {});
      return finish("aborted", { message, code: "cancelled" });
    }
    // StopFailure (#24 item 1): the turn ended on a model or API error; observers only.
    await options.hooks.fire?.(hookContext, "StopFailure", {
      error: stopFailureKind(error),
      error_details: describeError(error),
      last_assistant_message: lastMessage,
    }).catch(() => {});
    return finish("failed", {
      message: describeError(error),
      code: isTrellisError(error) ? error.code : "internal",
    });
  }

  async function continueWith(continuations: StopOutcome["continuations"]) {
    if (continuations.length === 0) return;
    await record({
      type: "message",
      role: "user",
      content: hookPromptMessage(continuations),
    });
  }

  /** Inbox messages (background subagents' notifications) as user messages; any delivered? */
  async function deliver(messages: string[]): Promise<boolean> {
    for (const content of messages) await record({ type: "message", role: "user", content });
    return messages.length > 0;
  }

  /** Background hook results (HK-5): contexts as developer messages, wakes as hook prompts. */
  async function deliverBackground(results: BackgroundResults | undefined): Promise<boolean> {
    for (const c of results?.contexts ?? []) await developer(c);
    await continueWith(results?.wakes ?? []);
    return (results?.wakes.length ?? 0) > 0;
  }

  function finish(status: TurnStatus, error?: { message: string; code?: string }): TurnResult {
    if (compactor) usage = addUsage(usage, compactor.usage);
    const children = options.inbox?.usage?.();
    if (children) usage = addUsage(usage, children);
    if (status === "completed" || status === "blocked" || status === "stopped") {
      options.events({ type: "turn.completed", turn_id: options.turnId, usage: eventUsage(usage), steps });
    } else {
      options.events({
        type: "turn.failed",
        turn_id: options.turnId,
        error: error ?? { message: status },
        ...(samplings > 0 ? { usage: eventUsage(usage) } : {}),
      });
    }
    return { status, lastMessage, usage, steps, ...(error ? { error } : {}) };
  }
}

/** Claude Code's StopFailure `error` kinds, from the error's code or HTTP status. */
function stopFailureKind(error: unknown): string {
  const code = isTrellisError(error) ? error.code : "";
  const status = (error as { status?: unknown })?.status;
  const text = `${code} ${typeof status === "number" ? status : ""} ${describeError(error)}`.toLowerCase();
  if (/rate.?limit|\b429\b/.test(text)) return "rate_limit";
  if (/overloaded|\b529\b/.test(text)) return "overloaded";
  if (/auth|\b401\b|\b403\b/.test(text)) return "authentication_failed";
  if (/billing|\b402\b|quota/.test(text)) return "billing_error";
  if (/\b400\b|invalid.?request/.test(text)) return "invalid_request";
  if (/\b5\d\d\b|server/.test(text)) return "server_error";
  return "unknown";
}

/** A setting given as a value, or as a function read now. */
function current<T extends string | boolean | object>(setting: T | (() => T)): T {
  return typeof setting === "function" ? (setting as () => T)() : setting;
}

/**
 * UserPromptExpansion (#24 item 1), once per slash command, plugin command or MCP prompt, in the
 * prompt's order: the first block refuses the whole prompt, as Claude Code does.
 */
async function expandPrompt(options: TurnOptions, ctx: HookTurnContext) {
  const items: ConversationItem[] = [];
  const contexts: string[] = [];
  let stop = false;
  for (const x of options.expansions ?? []) {
    const outcome = options.hooks.fire
      ? await options.hooks.fire(ctx, "UserPromptExpansion", {
        expansion_type: x.expansionType,
        command_name: x.commandName,
        command_args: x.commandArgs,
        command_source: x.commandSource,
        prompt: options.prompt,
      })
      : { additionalContexts: [] };
    contexts.push(...outcome.additionalContexts);
    if (outcome.block) {
      const block = `UserPromptExpansion hook blocked ${x.commandName}: ${outcome.block.reason}`;
      return { items, contexts, stop, block };
    }
    if (outcome.stop) stop = true;
    items.push(...x.items);
  }
  return { items, contexts, stop };
}
