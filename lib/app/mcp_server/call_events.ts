import type { ServedToolCall } from "../../mcp/mod.ts";
import { EVENT_SCHEMA_VERSION, type TrellisEventBody } from "../../shared/mod.ts";

/** The notification carrying each event, as Codex's `codex/event`. */
export const EVENT_NOTIFICATION = "trellis/event";

const MAX_PROGRESS_CHARS = 120;

/**
 * One event of a served turn, sent to the calling client: every event as a `trellis/event`
 * notification (the object `exec --json` prints, plus `_meta` naming the request and thread), a
 * `notifications/progress` step for the events that mark progress (when the client asked for
 * progress), and warnings as log messages. Events are read generically, so new event types and
 * item types pass through unchanged.
 */
export function forwardEvent(
  call: ServedToolCall,
  threadId: string | undefined,
  event: TrellisEventBody,
): void {
  call.notify(EVENT_NOTIFICATION, {
    _meta: { requestId: call.requestId, ...(threadId ? { threadId } : {}) },
    version: EVENT_SCHEMA_VERSION,
    ...event,
  });
  const message = progressMessage(event);
  if (message !== null) call.progress(clip(message));
  if (event.type === "warning") call.log("warning", event.message);
}

/** A short line for the events that mark a step of the turn; null for the rest (deltas, statuses). */
export function progressMessage(event: TrellisEventBody): string | null {
  const e = event as { type: string } & Record<string, unknown>;
  switch (e.type) {
    case "turn.started":
      return "turn started";
    case "item.started":
    case "item.completed":
      return itemLine(e.item, e.type === "item.started" ? "started" : "completed");
    case "approval.requested":
      return `waiting for approval: ${String(e.tool ?? "")}`.trim();
    case "approval.decided":
      return `approval ${String(e.decision ?? "")}`.trim();
    case "agent.started":
      return `agent ${e.agent_type} started: ${String(e.description ?? "")}`;
    case "agent.progress":
      return typeof e.action === "string" ? `agent ${e.agent_type}: ${e.action}` : null;
    case "agent.completed":
      return `agent ${e.agent_type} ${String(e.status ?? "")}`;
    case "turn.completed":
      return "turn completed";
    case "turn.failed":
      return `turn failed: ${String((e.error as { message?: unknown } | undefined)?.message ?? "")}`;
    default:
      return null;
  }
}

function itemLine(item: unknown, phase: string): string {
  const fields = (item ?? {}) as Record<string, unknown>;
  // Every tool call (command_execution, file_change, mcp_tool_call, tool_call) reads the same here,
  // with Trellis's finer call_status (denied, aborted) where Codex's status has none.
  const call = typeof fields.call_id === "string";
  const kind = call ? "tool call" : String(fields.type ?? "item").replace(/_/g, " ");
  const name = typeof fields.name === "string" ? ` ${fields.name}` : "";
  const raw = call ? fields.call_status : fields.status;
  const status = typeof raw === "string" && raw !== "in_progress" ? raw : phase;
  return `${kind}${name} ${status}`;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_PROGRESS_CHARS ? `${flat.slice(0, MAX_PROGRESS_CHARS - 1)}…` : flat;
}
