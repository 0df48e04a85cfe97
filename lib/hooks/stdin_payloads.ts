import type { HookTurnContext, ToolHookInput } from "../shared/mod.ts";
import { eventHasTurn, type HookEventName } from "./hook_events.ts";

/**
 * Stdin JSON (§2.6, snake_case). Every event: session_id, transcript_path, cwd, hook_event_name,
 * model; permission_mode except on compaction; turn_id except on SessionStart.
 */
export function basePayload(event: HookEventName, ctx: HookTurnContext): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    session_id: ctx.sessionId,
    transcript_path: ctx.transcriptPath,
    cwd: ctx.cwd,
    hook_event_name: event,
    model: ctx.model,
  };
  if (event !== "PreCompact" && event !== "PostCompact") payload.permission_mode = ctx.permissionMode;
  if (eventHasTurn(event)) payload.turn_id = ctx.turnId;
  if (ctx.agent) {
    payload.agent_id = ctx.agent.id;
    payload.agent_type = ctx.agent.type;
  }
  return payload;
}

/** Tool events carry the canonical name only; aliases are for matching. */
export function toolPayload(
  event: "PreToolUse" | "PermissionRequest" | "PostToolUse",
  ctx: HookTurnContext,
  input: ToolHookInput,
): Record<string, unknown> {
  return {
    ...basePayload(event, ctx),
    tool_name: input.toolName,
    tool_input: input.toolInput,
    tool_use_id: input.toolUseId,
  };
}

export function toolMatchValues(input: ToolHookInput): string[] {
  return [input.toolName, ...input.aliases];
}
