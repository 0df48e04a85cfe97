/** The ten lifecycle events (HK-1), in Codex's order, which is also the display order within a source. */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PreCompact",
  "PostCompact",
  "SessionStart",
  "UserPromptSubmit",
  "SubagentStart",
  "SubagentStop",
  "Stop",
] as const;

export type HookEventName = typeof HOOK_EVENTS[number];

const LABELS: Record<HookEventName, string> = {
  PreToolUse: "pre_tool_use",
  PermissionRequest: "permission_request",
  PostToolUse: "post_tool_use",
  PreCompact: "pre_compact",
  PostCompact: "post_compact",
  SessionStart: "session_start",
  UserPromptSubmit: "user_prompt_submit",
  SubagentStart: "subagent_start",
  SubagentStop: "subagent_stop",
  Stop: "stop",
};

/** The snake_case label used in state keys, run ids and the trust identity. */
export function eventLabel(event: HookEventName): string {
  return LABELS[event];
}

export function isHookEvent(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/** UserPromptSubmit and Stop ignore matchers; every other event filters on one (HK-1). */
export function eventUsesMatcher(event: HookEventName): boolean {
  return event !== "UserPromptSubmit" && event !== "Stop";
}

/** Events whose stdin carries a turn id (all but SessionStart). */
export function eventHasTurn(event: HookEventName): boolean {
  return event !== "SessionStart";
}

/** Events whose handlers see a tool call: the ones an `if` rule is judged on. */
export function isToolEvent(event: HookEventName): boolean {
  return event === "PreToolUse" || event === "PermissionRequest" || event === "PostToolUse";
}

/**
 * Events Claude Code documents that Trellis does not fire (yet): a source using them gets one
 * warning naming them, instead of one "unknown event" per name. UserPromptExpansion waits for slash
 * commands; the others for the features they observe (notifications, worktrees, tasks, teammates …).
 */
export const CLAUDE_ONLY_EVENTS: ReadonlySet<string> = new Set([
  "Notification",
  "PostToolUseFailure",
  "PostToolBatch",
  "PermissionDenied",
  "UserPromptExpansion",
  "SessionEnd",
  "Setup",
  "StopFailure",
  "InstructionsLoaded",
  "ConfigChange",
  "CwdChanged",
  "FileChanged",
  "DirectoryAdded",
  "WorktreeCreate",
  "WorktreeRemove",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "Elicitation",
  "ElicitationResult",
  "MessageDisplay",
]);
