/**
 * The event stream: one versioned JSON object per line in `trellis exec --json`, readable by
 * anything written for `codex exec --json` (codex-rs/exec/src/exec_events.rs): the same
 * `thread.*`/`turn.*`/`item.*` events, item types and `usage` fields. Trellis-only events and fields
 * are additions a Codex reader can ignore. Every subsystem reports through an EventSink; only the
 * CLI prints.
 */

import type { ApprovalSubject } from "./approval_subject.ts";
import type { Usage } from "./conversation.ts";

export const EVENT_SCHEMA_VERSION = 1;

/** Token counts as Codex reports them; `reasoning_output_tokens` is Trellis's addition. */
export interface EventUsage {
  /** Input tokens, cached ones included. */
  input_tokens: number;
  /** Input tokens served from the provider's cache. */
  cached_input_tokens: number;
  /** Output tokens, reasoning included. */
  output_tokens: number;
  /** Of the output, the reasoning tokens. */
  reasoning_output_tokens: number;
}

export function eventUsage(usage: Usage): EventUsage {
  return {
    input_tokens: usage.inputTokens,
    cached_input_tokens: usage.cachedInputTokens,
    output_tokens: usage.outputTokens,
    reasoning_output_tokens: usage.reasoningTokens,
  };
}

/** How a tool call ended, in Trellis's words (Codex's item `status` has fewer values). */
export type CallStatus = "in_progress" | "completed" | "failed" | "denied" | "aborted";

/** Trellis's fields on every tool-call item, beside the Codex shape of its type. */
export interface CallFields {
  /** The model-facing tool name. */
  name: string;
  /** The call's id, as the model issued it. */
  call_id: string;
  /** builtin | mcp:<server> | mcp_resource | skills | plugins | unknown */
  source: string;
  /** How the call ended (or that it runs). */
  call_status: CallStatus;
  /** The text the model got back. */
  output?: string;
  /**
   * What a person reads when it differs from `output` (additive): an MCP result's text content
   * when the model got its structuredContent as JSON.
   */
  display_text?: string;
  /** How long the call ran. */
  duration_ms?: number;
}

/** An item of the thread, with Codex's item types: messages, reasoning, and each kind of tool call. */
export type ThreadItem =
  | { id: string; type: "agent_message"; text: string }
  | { id: string; type: "reasoning"; text: string }
  | (CallFields & {
    id: string;
    type: "command_execution";
    command: string;
    aggregated_output: string;
    exit_code?: number;
    status: "in_progress" | "completed" | "failed" | "declined";
  })
  | (CallFields & {
    id: string;
    type: "file_change";
    changes: { path: string; kind: "add" | "delete" | "update" }[];
    status: "in_progress" | "completed" | "failed";
  })
  | (CallFields & {
    id: string;
    type: "mcp_tool_call";
    server: string;
    tool: string;
    arguments: unknown;
    result?: { content: unknown[]; structured_content: unknown };
    error?: { message: string };
    status: "in_progress" | "completed" | "failed";
  })
  /**
   * A subagent call (#22 item 6), Codex's `collab_tool_call`: `tool` is spawn_agent, send_input,
   * wait, close_agent or resume_agent (Claude Code's Agent is a spawn_agent), the agents it names
   * and their states as the call left them.
   */
  | (CallFields & {
    id: string;
    type: "collab_tool_call";
    /** Trellis's additive field: the call's arguments as the model sent them. */
    arguments: string;
    tool: string;
    /** The thread that made the call: the session's, or a subagent's own id. */
    sender_thread_id?: string;
    receiver_thread_ids: string[];
    prompt: string | null;
    agents_states: Record<string, { status: string; message: string | null }>;
    status: "in_progress" | "completed" | "failed";
  })
  /** Trellis-only: a call of a tool Codex has no item type for (read_file, grep, skills …). */
  | (CallFields & {
    id: string;
    type: "tool_call";
    arguments: string;
    status: CallStatus;
  })
  /**
   * The conversation was compacted (Codex's `contextCompaction` item, app-server v2): started when
   * the summary request goes out, completed (or failed, with the history left as it was) after.
   */
  | {
    id: string;
    type: "context_compaction";
    trigger: "manual" | "auto";
    status: "in_progress" | "completed" | "failed";
    /** summary: a summarization request; elide_tool_outputs: old tool outputs only, no request. */
    strategy?: "summary" | "elide_tool_outputs";
    tokens_before?: number;
    tokens_after?: number;
    summary?: string;
    error?: string;
  }
  /**
   * The model's plan (update_plan / TodoWrite), as Codex's exec gives it: started at the first
   * update of a turn, updated at each next one, completed at the turn's end. `status` on each item
   * and `explanation` are Trellis's additions (a Codex reader sees text and completed).
   */
  | {
    id: string;
    type: "todo_list";
    items: { text: string; completed: boolean; status?: "pending" | "in_progress" | "completed" }[];
    explanation?: string;
  }
  | { id: string; type: "error"; message: string };

/**
 * One event of a session, as `trellis exec --json` prints it (without its `version`): Codex's
 * `thread.*`, `turn.*` and `item.*` events, then Trellis's additions (warnings, approvals, MCP, hooks).
 */
export type TrellisEventBody =
  | { type: "thread.started"; thread_id: string; resumed: boolean }
  | { type: "turn.started"; turn_id: string }
  | { type: "item.started"; item: ThreadItem }
  | { type: "item.updated"; item: ThreadItem }
  | { type: "item.completed"; item: ThreadItem }
  /** Trellis-only, modelled on Codex's `item.plan.delta`: the next piece of an agent message. */
  | { type: "item.agent_message.delta"; item_id: string; delta: string }
  | { type: "turn.completed"; turn_id: string; usage: EventUsage; steps: number }
  | {
    type: "turn.failed";
    turn_id: string;
    error: { message: string; code?: string };
    /** What the turn consumed before it failed (absent when it never reached the model). */
    usage?: EventUsage;
  }
  | { type: "warning"; message: string; subject?: string }
  | { type: "notice"; message: string }
  | { type: "sandbox.unavailable"; reason: string }
  | { type: "approval.requested"; call_id: string; tool: string; reason: string; subject?: ApprovalSubject }
  | {
    type: "approval.decided";
    call_id: string;
    decision: "approved" | "denied";
    /**
     * user | hook | policy (no one was asked) | session (an earlier "for this session" approval) |
     * rule (a permission rule's deny or allow).
     */
    by: string;
    reason?: string;
  }
  | {
    type: "mcp.server_status";
    server: string;
    status: "starting" | "ready" | "failed" | "cancelled";
    error?: string;
    duration_ms?: number;
  }
  | {
    type: "mcp.startup_complete";
    ready: string[];
    failed: { server: string; error: string }[];
    cancelled: string[];
  }
  | {
    type: "mcp.tool_progress";
    server: string;
    tool: string;
    call_id: string;
    progress: number;
    total?: number;
    message?: string;
  }
  | {
    type: "mcp.resource_operation";
    phase: "begin" | "end";
    server: string;
    operation: string;
    duration_ms?: number;
    error?: string;
  }
  | {
    type: "mcp.elicitation";
    server: string;
    id: string;
    mode: "form" | "url";
    message: string;
    action?: "accept" | "decline" | "cancel";
  }
  | { type: "mcp.sampling"; server: string; decision: "allowed" | "denied"; reason?: string; tokens?: number }
  | { type: "hook.started"; run_id: string; event: string; source: string; status_message?: string }
  | {
    type: "hook.completed";
    run_id: string;
    event: string;
    source: string;
    status: "completed" | "failed" | "blocked" | "stopped";
    duration_ms: number;
    display_order: number;
    entries: { kind: string; text: string }[];
  }
  | { type: "skills.changed"; paths: string[] }
  | { type: "skill.used"; name: string; path: string; scope: string; how: "explicit" | "implicit" }
  | { type: "plugin.changed"; plugins: string[] }
  /**
   * A plan tool's call set the plan (#23 item 3): the session turns it into Codex's `todo_list`
   * item events, so it is never printed itself.
   */
  | {
    type: "plan.updated";
    call_id: string;
    explanation?: string;
    plan: { step: string; status: "pending" | "in_progress" | "completed" }[];
  }
  /** A subagent began (#22): its id, type, what the parent called it for, its own transcript. */
  | {
    type: "agent.started";
    agent_id: string;
    agent_type: string;
    description: string;
    call_id: string;
    transcript: string | null;
  }
  /**
   * What a running subagent does (#22 item 6): `action` its latest tool call, `usage` its tokens
   * so far (counted at each of its turns' ends).
   */
  | { type: "agent.progress"; agent_id: string; agent_type: string; action?: string; usage?: EventUsage }
  /** A subagent ended: completed, failed, aborted (the parent stopped) or timed_out. */
  | {
    type: "agent.completed";
    agent_id: string;
    agent_type: string;
    call_id: string;
    status: string;
    /** Its tokens, every turn of it (absent when it never reached the model). */
    usage?: EventUsage;
  };

export type TrellisEvent = TrellisEventBody & { version: number };

export type EventSink = (event: TrellisEventBody) => void;

export const discardEvents: EventSink = () => {};
