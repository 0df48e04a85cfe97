import type { Platform } from "../platform/mod.ts";
import type {
  BackgroundResults,
  CompactHookInput,
  ContextOutcome,
  EventSink,
  HookTurnContext,
  LifecycleHooks,
  ObservedHookEvent,
  ObservedHookOutcome,
  PermissionRequestOutcome,
  PostToolUseOutcome,
  PreToolUseOutcome,
  StopOutcome,
  ToolHookInput,
  UserPromptOutcome,
} from "../shared/mod.ts";
import { BackgroundRuns } from "./background_runs.ts";
import { createDispatcher, type DispatchRequest, type HookRunRecord } from "./dispatcher.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";
import type { HookServices } from "./handler_services.ts";
import { basePayload, toolMatchValues, toolPayload } from "./stdin_payloads.ts";
import { spillHookText } from "./output_spill.ts";
import { eventSpec, isToolEvent } from "./hook_events.ts";

export interface HookEngineOptions {
  handlers: HookHandlerInfo[];
  platform: Platform;
  events: EventSink;
  /** `$TRELLIS_HOME`: spilled outputs go to `<home>/hook_outputs/<threadId>/`. */
  home: string;
  threadId: string;
  /**
   * Opt-in confinement of one handler (`[hooks] sandbox = "shell"`, `[plugins."id"] hooks_sandbox`):
   * argv in, argv out. Undefined (the default): the hook runs as the user, as in Claude Code (HK-6).
   */
  confine?: (handler: HookHandlerInfo) => ((argv: string[]) => string[]) | undefined;
  /** The environment hooks get, whole; default the process's. */
  baseEnv?: Record<string, string>;
  /** What prompt, agent, mcp_tool and http handlers need (#24 item 2). */
  services?: HookServices;
}

/** The LifecycleHooks port plus the reserved subagent events and an observer for `trellis hooks test`. */
export interface HookEngine extends LifecycleHooks {
  fire(
    ctx: HookTurnContext,
    event: ObservedHookEvent,
    fields: Record<string, unknown>,
    match?: { aliases?: string[] },
  ): Promise<ObservedHookOutcome>;
  preCompact(ctx: HookTurnContext, input: CompactHookInput & { customInstructions?: string }): Promise<void>;
  postCompact(ctx: HookTurnContext, input: CompactHookInput & { summary?: string }): Promise<void>;
  subagentStart(ctx: HookTurnContext, input: { agentId: string; agentType: string }): Promise<ContextOutcome>;
  subagentStop(
    ctx: HookTurnContext,
    input: {
      agentId: string;
      agentType: string;
      agentTranscriptPath?: string | null;
      stopHookActive: boolean;
      lastAssistantMessage: string | null;
    },
  ): Promise<StopOutcome>;
  /**
   * Registers handlers for the length of an activity (a skill's or command's frontmatter `hooks:`,
   * an agent's): they run beside the configured ones until the returned function is called.
   */
  addScopedHooks(handlers: HookHandlerInfo[], scope?: { agentId: string }): () => void;
  /** Calls `observer` with every dispatch's runs (configured order) until the returned function is called. */
  observe(observer: (runs: HookRunRecord[]) => void): () => void;
  takeBackgroundResults(): BackgroundResults;
  settleBackground(): Promise<BackgroundResults>;
  close(): Promise<void>;
}

/** Builds the engine the loop calls at each point of a turn (§2.9). Failures never throw out of it. */
export function createHookEngine(options: HookEngineOptions): HookEngine {
  const observers = new Set<(runs: HookRunRecord[]) => void>();
  const spill = (text: string) =>
    spillHookText(text, { fs: options.platform.fs, home: options.home, threadId: options.threadId });
  const background = new BackgroundRuns({
    events: options.events,
    spill,
    observe: (runs) => observers.forEach((observer) => observer(runs)),
  });
  const dispatch = createDispatcher({ ...options, onBackground: (run) => background.track(run) });
  const spillAll = (texts: string[]) => Promise.all(texts.map(spill));
  const run = async (request: Omit<DispatchRequest, "cwd" | "signal">, ctx: HookTurnContext) => {
    const runs = await dispatch({ ...request, cwd: ctx.cwd, signal: ctx.signal });
    for (const r of runs) {
      for (const message of [r.effect.systemMessage, ...r.effect.notes ?? []]) {
        if (message !== undefined) options.events({ type: "warning", message, subject: r.handler.key });
      }
    }
    for (const observer of observers) observer(runs);
    return runs;
  };
  const contexts = (runs: HookRunRecord[]) =>
    spillAll(runs.filter((r) => r.effect.error === undefined).flatMap((r) => r.effect.additionalContexts));
  const firstBlock = (runs: HookRunRecord[]) => runs.find((r) => r.effect.block)?.effect.block?.reason;
  const firstStop = (runs: HookRunRecord[]) => runs.find((r) => r.effect.stop)?.effect.stop?.reason;

  const contextEvent = async (runs: HookRunRecord[]): Promise<ContextOutcome> => {
    const stop = firstStop(runs);
    return {
      additionalContexts: await contexts(runs),
      ...(stop !== undefined ? { stop: { reason: stop } } : {}),
    };
  };
  const stopEvent = async (runs: HookRunRecord[]): Promise<StopOutcome> => {
    const shouldStop = runs.some((r) => r.effect.stop);
    if (shouldStop) return { continuations: [], shouldStop };
    const blocking = runs.filter((r) => r.effect.block);
    const reasons = await spillAll(blocking.map((r) => r.effect.block!.reason));
    return { continuations: blocking.map((r, i) => ({ runId: r.runId, reason: reasons[i] })), shouldStop };
  };

  return {
    addScopedHooks: (handlers, scope) => dispatch.addScoped(handlers, scope),
    handles: (event) => dispatch.handles(event),
    observe(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
    takeBackgroundResults: () => background.take(),
    settleBackground: () => background.settleRewakes(),
    close: () => background.close(),
    async sessionStart(ctx, input) {
      const payload = { ...basePayload("SessionStart", ctx), source: input.source };
      return contextEvent(await run({ event: "SessionStart", matchValues: [input.source], payload }, ctx));
    },
    async userPromptSubmit(ctx, input): Promise<UserPromptOutcome> {
      const payload = { ...basePayload("UserPromptSubmit", ctx), prompt: input.prompt };
      const runs = await run({ event: "UserPromptSubmit", matchValues: [], payload }, ctx);
      const block = firstBlock(runs);
      return {
        ...(await contextEvent(runs)),
        ...(block !== undefined ? { block: { reason: await spill(block) } } : {}),
      };
    },
    async preToolUse(ctx, input): Promise<PreToolUseOutcome> {
      const runs = await runTool("PreToolUse", ctx, input, toolPayload("PreToolUse", ctx, input));
      const additionalContexts = await contexts(runs);
      const block = firstBlock(runs);
      if (block !== undefined) return { block: { reason: await spill(block) }, additionalContexts };
      // Claude Code's precedence: deny, then defer, then ask, then allow.
      const defer = runs.find((r) => r.effect.defer && r.effect.error === undefined)?.effect.defer;
      if (defer) return { defer, additionalContexts };
      const ask = runs.find((r) => r.effect.ask && r.effect.error === undefined)?.effect.ask;
      // HK-9: the rewrite of the handler that finished last wins, whatever the configured order.
      const rewrite = runs.filter((r) => r.effect.updatedInput && r.effect.error === undefined)
        .sort((a, b) => b.completionIndex - a.completionIndex)[0];
      return {
        ...(rewrite ? { updatedInput: rewrite.effect.updatedInput!.value } : {}),
        ...(ask ? { ask } : {}),
        additionalContexts,
      };
    },
    async permissionRequest(ctx, input): Promise<PermissionRequestOutcome> {
      const payload = {
        ...toolPayload("PermissionRequest", ctx, input),
        approval_context: approvalContext(input),
      };
      const runs = await runTool("PermissionRequest", ctx, input, payload);
      const deny = firstBlock(runs);
      if (deny !== undefined) return { decision: "deny", message: deny };
      return runs.some((r) => r.effect.allow && r.effect.error === undefined) ? { decision: "allow" } : {};
    },
    async postToolUse(ctx, input): Promise<PostToolUseOutcome> {
      const payload = { ...toolPayload("PostToolUse", ctx, input), tool_response: input.toolResponse };
      const runs = await runTool("PostToolUse", ctx, input, payload);
      const feedback = firstBlock(runs);
      const additionalContexts = await contexts(runs);
      if (feedback !== undefined) return { feedback: await spill(feedback), additionalContexts };
      const replaced = runs.find((r) => r.effect.replacedOutput && r.effect.error === undefined);
      if (!replaced) return { additionalContexts };
      if (!input.toolName.startsWith("mcp__")) {
        options.events({
          type: "warning",
          message:
            `PostToolUse hook ${replaced.handler.key} returned updatedMCPToolOutput for ${input.toolName}, ` +
            "which is not an MCP tool (ignored)",
          subject: replaced.handler.key,
        });
        return { additionalContexts };
      }
      return { replacedOutput: replaced.effect.replacedOutput!.value, additionalContexts };
    },
    async fire(ctx, event, fields, match = {}) {
      const payload = { ...basePayload(event, ctx), ...fields };
      const field = eventSpec(event).matchField;
      const value = field !== undefined ? payload[field] : undefined;
      const tool = isToolEvent(event)
        ? { toolUseId: String(fields.tool_use_id ?? ""), toolInput: fields.tool_input }
        : {};
      const runs = await run({
        event,
        matchValues: typeof value === "string" ? [value, ...match.aliases ?? []] : [],
        payload,
        ...tool,
      }, ctx);
      const block = firstBlock(runs);
      const stop = firstStop(runs);
      const answered = runs.find((r) => r.effect.elicitation && r.effect.error === undefined);
      return {
        additionalContexts: await contexts(runs),
        ...(block !== undefined ? { block: { reason: await spill(block) } } : {}),
        ...(stop !== undefined ? { stop: { reason: stop } } : {}),
        ...(runs.some((r) => r.effect.retry && r.effect.error === undefined) ? { retry: true } : {}),
        ...(answered ? { elicitation: answered.effect.elicitation! } : {}),
      };
    },
    async stop(ctx, input) {
      const payload = {
        ...basePayload("Stop", ctx),
        stop_hook_active: input.stopHookActive,
        last_assistant_message: input.lastAssistantMessage,
      };
      return stopEvent(await run({ event: "Stop", matchValues: [], payload }, ctx));
    },
    async preCompact(ctx, input) {
      const payload = {
        ...compactPayload("PreCompact", ctx, input),
        custom_instructions: input.customInstructions ?? "",
      };
      await run({ event: "PreCompact", matchValues: [input.trigger], payload }, ctx);
    },
    async postCompact(ctx, input) {
      const payload = { ...compactPayload("PostCompact", ctx, input), compact_summary: input.summary ?? "" };
      await run({ event: "PostCompact", matchValues: [input.trigger], payload }, ctx);
    },
    async subagentStart(ctx, input) {
      const payload = {
        ...basePayload("SubagentStart", ctx),
        agent_id: input.agentId,
        agent_type: input.agentType,
      };
      const runs = await run({ event: "SubagentStart", matchValues: [input.agentType], payload }, ctx);
      return { additionalContexts: await contexts(runs) };
    },
    async subagentStop(ctx, input) {
      const payload = {
        ...basePayload("SubagentStop", ctx),
        agent_id: input.agentId,
        agent_type: input.agentType,
        agent_transcript_path: input.agentTranscriptPath ?? null,
        stop_hook_active: input.stopHookActive,
        last_assistant_message: input.lastAssistantMessage,
      };
      return stopEvent(await run({ event: "SubagentStop", matchValues: [input.agentType], payload }, ctx));
    },
  };

  function runTool(
    event: "PreToolUse" | "PermissionRequest" | "PostToolUse",
    ctx: HookTurnContext,
    input: ToolHookInput,
    payload: Record<string, unknown>,
  ) {
    return run({
      event,
      matchValues: toolMatchValues(input),
      payload,
      toolUseId: input.toolUseId,
      toolInput: input.toolInput,
    }, ctx);
  }
}

/**
 * Codex's fields plus Claude Code's: `custom_instructions` (PreCompact) and `compact_summary`
 * (PostCompact) are what Claude Code's scripts read; Codex's ignore them.
 */
function compactPayload(
  event: "PreCompact" | "PostCompact",
  ctx: HookTurnContext,
  input: CompactHookInput,
) {
  return { ...basePayload(event, ctx), trigger: input.trigger };
}

function approvalContext(input: { reason: string; sandboxPermissions?: string }) {
  return {
    sandbox_permissions: input.sandboxPermissions ?? "require_escalated",
    justification: input.reason,
  };
}
