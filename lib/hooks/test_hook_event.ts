import { UsageError } from "../shared/mod.ts";
import type { HookTurnContext } from "../shared/mod.ts";
import type { HookRunRecord } from "./dispatcher.ts";
import type { HookEngine } from "./hook_engine.ts";
import { HOOK_EVENTS, type HookEventName, isHookEvent, isObservedEvent, isToolEvent } from "./hook_events.ts";
import { syntheticFields } from "./synthetic_payloads.ts";

export interface SyntheticEventOptions {
  /** Canonical tool name for tool events (default Bash). */
  tool?: string;
  /** Tool events: the tool_input; others: fields such as prompt, source, trigger, stop_hook_active. */
  input?: unknown;
}

/**
 * Dispatches one synthetic event through the real engine (trust gate included) and returns every
 * run with the aggregated outcome, for `trellis hooks test`.
 */
export async function testHookEvent(
  engine: HookEngine,
  eventName: string,
  ctx: HookTurnContext,
  options: SyntheticEventOptions = {},
): Promise<{ event: HookEventName; runs: HookRunRecord[]; outcome: unknown }> {
  if (!isHookEvent(eventName)) {
    throw new UsageError(
      `Cannot test hook event "${eventName}": unknown event (known: ${HOOK_EVENTS.join(", ")})`,
      {
        field: "event",
      },
    );
  }
  const runs: HookRunRecord[] = [];
  const stopObserving = engine.observe((r) => runs.push(...r));
  try {
    const outcome = await dispatchSynthetic(engine, eventName, ctx, options);
    await engine.close(); // background runs report too
    return { event: eventName, runs, outcome: outcome ?? {} };
  } finally {
    stopObserving();
  }
}

function dispatchSynthetic(
  engine: HookEngine,
  event: HookEventName,
  ctx: HookTurnContext,
  options: SyntheticEventOptions,
): Promise<unknown> {
  const fields = (typeof options.input === "object" && options.input !== null ? options.input : {}) as Record<
    string,
    unknown
  >;
  const str = (key: string, fallback: string) =>
    typeof fields[key] === "string" ? fields[key] as string : fallback;
  const tool = {
    toolName: options.tool ?? "Bash",
    aliases: [],
    toolInput: options.input ?? { command: "true" },
    toolUseId: "hooks-test",
  };
  const trigger = str("trigger", "manual") === "auto" ? "auto" as const : "manual" as const;
  const stopInput = {
    stopHookActive: fields.stop_hook_active === true,
    lastAssistantMessage: str("last_assistant_message", "") || null,
  };
  const agent = { agentId: str("agent_id", "agent-test"), agentType: str("agent_type", "general") };
  if (isObservedEvent(event)) {
    const synthetic = syntheticFields(event, ctx.cwd);
    const overlay = isToolEvent(event)
      ? { tool_name: tool.toolName, tool_input: tool.toolInput, tool_use_id: tool.toolUseId }
      // Only the event's own fields are taken from the input: a stray key never reaches a hook's stdin.
      : Object.fromEntries(Object.entries(fields).filter(([key]) => key in synthetic));
    return engine.fire(ctx, event, { ...synthetic, ...overlay });
  }
  switch (event) {
    case "PreToolUse":
      return engine.preToolUse(ctx, tool);
    case "PermissionRequest":
      return engine.permissionRequest(ctx, { ...tool, reason: str("reason", "trellis hooks test") });
    case "PostToolUse":
      return engine.postToolUse(ctx, { ...tool, toolResponse: fields.tool_response ?? { output: "" } });
    case "PreCompact":
      return engine.preCompact(ctx, { trigger, customInstructions: str("custom_instructions", "") });
    case "PostCompact":
      return engine.postCompact(ctx, { trigger, summary: str("compact_summary", "") });
    case "SessionStart":
      return engine.sessionStart(ctx, { source: str("source", "startup") as "startup" });
    case "UserPromptSubmit":
      return engine.userPromptSubmit(ctx, { prompt: str("prompt", "hello") });
    case "SubagentStart":
      return engine.subagentStart(ctx, agent);
    case "SubagentStop":
      return engine.subagentStop(ctx, { ...agent, ...stopInput });
    case "Stop":
      return engine.stop(ctx, stopInput);
  }
}
