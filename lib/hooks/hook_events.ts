/**
 * The hook event registry (HK-1, #24 item 1): every event Trellis fires, with what its matcher
 * matches, whether exit 2 blocks, and whether it repeats within a session. This is the one file to
 * extend: the parser, dispatcher, stdin payloads, `hooks test`, `hooks doctor` and the other vendors'
 * name translations all read it.
 */
import type { ObservedHookEvent } from "../shared/mod.ts";

export interface HookEventSpec {
  /** The snake_case label used in state keys, run ids and the trust identity. */
  label: string;
  /** The stdin field the group's `matcher` is matched against; absent: the event ignores matchers. */
  matchField?: string;
  /** stdin carries `turn_id` (every event that happens inside a turn). */
  turn: boolean;
  /** Handlers see one tool call: an `if` rule is judged on it. */
  tool?: boolean;
  /** Exit 2 (stderr as the reason) blocks, denies, gives feedback or continues. */
  exit2Blocks?: boolean;
  /** A failed `on_failure = "block"` guard blocks (Stop would loop, so it is not one). */
  failureCanBlock?: boolean;
  /** A guard: a run that never answered (cancelled, killed) blocks, never allows. */
  guard?: boolean;
  /** Plain-text stdout with exit 0 is context for the model. */
  textIsContext?: boolean;
  /** Fires more than once per session (`once: true` on one runs on its first firing only). */
  repeats: boolean;
  /** Whose event it is: both peers fire it, or only Claude Code / only Codex. */
  peers: "both" | "claude" | "codex";
}

const REGISTRY = {
  PreToolUse: {
    label: "pre_tool_use",
    matchField: "tool_name",
    turn: true,
    tool: true,
    exit2Blocks: true,
    failureCanBlock: true,
    guard: true,
    repeats: true,
    peers: "both",
  },
  PermissionRequest: {
    label: "permission_request",
    matchField: "tool_name",
    turn: true,
    tool: true,
    exit2Blocks: true,
    failureCanBlock: true,
    guard: true,
    repeats: true,
    peers: "both",
  },
  PostToolUse: {
    label: "post_tool_use",
    matchField: "tool_name",
    turn: true,
    tool: true,
    exit2Blocks: true,
    failureCanBlock: true,
    repeats: true,
    peers: "both",
  },
  PreCompact: { label: "pre_compact", matchField: "trigger", turn: true, repeats: true, peers: "both" },
  PostCompact: { label: "post_compact", matchField: "trigger", turn: true, repeats: true, peers: "both" },
  SessionStart: {
    label: "session_start",
    matchField: "source",
    turn: false,
    textIsContext: true,
    repeats: true,
    peers: "both",
  },
  UserPromptSubmit: {
    label: "user_prompt_submit",
    turn: true,
    exit2Blocks: true,
    failureCanBlock: true,
    textIsContext: true,
    repeats: true,
    peers: "both",
  },
  SubagentStart: {
    label: "subagent_start",
    matchField: "agent_type",
    turn: true,
    textIsContext: true,
    repeats: true,
    peers: "both",
  },
  SubagentStop: {
    label: "subagent_stop",
    matchField: "agent_type",
    turn: true,
    exit2Blocks: true,
    repeats: true,
    peers: "both",
  },
  Stop: { label: "stop", turn: true, exit2Blocks: true, repeats: true, peers: "both" },
  // #24 item 1: Claude Code's names and payloads (Codex's too where it fires them).
  SessionEnd: { label: "session_end", matchField: "reason", turn: false, repeats: false, peers: "claude" },
  Notification: {
    label: "notification",
    matchField: "notification_type",
    turn: false,
    repeats: true,
    peers: "claude",
  },
  PostToolUseFailure: {
    label: "post_tool_use_failure",
    matchField: "tool_name",
    turn: true,
    tool: true,
    exit2Blocks: true,
    repeats: true,
    peers: "both",
  },
  UserPromptExpansion: {
    label: "user_prompt_expansion",
    matchField: "command_name",
    turn: true,
    exit2Blocks: true,
    failureCanBlock: true,
    textIsContext: true,
    repeats: true,
    peers: "claude",
  },
  StopFailure: { label: "stop_failure", matchField: "error", turn: true, repeats: true, peers: "both" },
  PermissionDenied: {
    label: "permission_denied",
    matchField: "tool_name",
    turn: true,
    tool: true,
    repeats: true,
    peers: "claude",
  },
  PostToolBatch: { label: "post_tool_batch", turn: true, exit2Blocks: true, repeats: true, peers: "claude" },
  Elicitation: {
    label: "elicitation",
    matchField: "mcp_server_name",
    turn: true,
    exit2Blocks: true,
    repeats: true,
    peers: "claude",
  },
  ElicitationResult: {
    label: "elicitation_result",
    matchField: "mcp_server_name",
    turn: true,
    exit2Blocks: true,
    repeats: true,
    peers: "claude",
  },
  InstructionsLoaded: {
    label: "instructions_loaded",
    matchField: "load_reason",
    turn: false,
    repeats: true,
    peers: "claude",
  },
  ConfigChange: {
    label: "config_change",
    matchField: "source",
    turn: false,
    exit2Blocks: true,
    repeats: true,
    peers: "claude",
  },
  CwdChanged: { label: "cwd_changed", turn: false, repeats: true, peers: "claude" },
  Interrupt: { label: "interrupt", turn: true, repeats: true, peers: "codex" },
} as const satisfies Record<string, HookEventSpec>;

export type HookEventName = keyof typeof REGISTRY;

/** Every event, in display order within a source (Codex's ten first, as before). */
export const HOOK_EVENTS = Object.keys(REGISTRY) as HookEventName[];

/** The events added by #24 item 1: fired through the engine's generic `fire`. */
export const OBSERVED_EVENTS = HOOK_EVENTS.slice(HOOK_EVENTS.indexOf("SessionEnd")) as ObservedHookEvent[];

export function isObservedEvent(event: HookEventName): event is ObservedHookEvent {
  return (OBSERVED_EVENTS as string[]).includes(event);
}

export function eventSpec(event: HookEventName): HookEventSpec {
  return REGISTRY[event];
}

/** The snake_case label used in state keys, run ids and the trust identity. */
export function eventLabel(event: HookEventName): string {
  return REGISTRY[event].label;
}

export function isHookEvent(name: string): name is HookEventName {
  return Object.hasOwn(REGISTRY, name);
}

/** Events without a matcher field ignore matchers (HK-1). */
export function eventUsesMatcher(event: HookEventName): boolean {
  return eventSpec(event).matchField !== undefined;
}

/** Events whose stdin carries a turn id. */
export function eventHasTurn(event: HookEventName): boolean {
  return eventSpec(event).turn;
}

/** Events whose handlers see a tool call: the ones an `if` rule is judged on. */
export function isToolEvent(event: HookEventName): boolean {
  return eventSpec(event).tool === true;
}

/**
 * Events Claude Code documents that Trellis does not fire (yet): a source using them gets one
 * warning naming them, instead of one "unknown event" per name. They wait for the features they
 * observe (setup mode, watched files, worktrees, tasks, teammates, message display).
 */
export const CLAUDE_ONLY_EVENTS: ReadonlySet<string> = new Set([
  "Setup",
  "FileChanged",
  "DirectoryAdded",
  "WorktreeCreate",
  "WorktreeRemove",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "MessageDisplay",
]);
