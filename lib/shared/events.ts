/**
 * The event stream: one versioned JSON object per line in `trellis exec --json`, modelled on
 * `codex exec --json`. Every subsystem reports through an EventSink; only the CLI prints.
 */

import type { Usage } from "./conversation.ts";

export const EVENT_SCHEMA_VERSION = 1;

export type ThreadItem =
  | { id: string; type: "agent_message"; text: string }
  | { id: string; type: "reasoning"; text: string }
  | {
    id: string;
    type: "tool_call";
    name: string;
    call_id: string;
    arguments: string;
    source: string;
    status: "in_progress" | "completed" | "failed" | "denied" | "aborted";
    output?: string;
    duration_ms?: number;
  }
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
  | { id: string; type: "error"; message: string };

export type TrellisEventBody =
  | { type: "thread.started"; thread_id: string; resumed: boolean }
  | { type: "turn.started"; turn_id: string }
  | { type: "item.started"; item: ThreadItem }
  | { type: "item.updated"; item: ThreadItem }
  | { type: "item.completed"; item: ThreadItem }
  | { type: "turn.completed"; turn_id: string; usage: Usage; steps: number }
  | { type: "turn.failed"; turn_id: string; error: { message: string; code?: string } }
  | { type: "warning"; message: string; subject?: string }
  | { type: "notice"; message: string }
  | { type: "sandbox.unavailable"; reason: string }
  | { type: "approval.requested"; call_id: string; tool: string; reason: string }
  | {
    type: "approval.decided";
    call_id: string;
    decision: "approved" | "denied";
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
  | { type: "plugin.changed"; plugins: string[] };

export type TrellisEvent = TrellisEventBody & { version: number };

export type EventSink = (event: TrellisEventBody) => void;

export const discardEvents: EventSink = () => {};
