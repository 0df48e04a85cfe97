import { EVENT_SCHEMA_VERSION, type EventSink, type TrellisEventBody } from "../shared/mod.ts";
import type { CliContext } from "./context.ts";

/** `--json`: one versioned event per stdout line. */
export function jsonEventPrinter(ctx: CliContext): EventSink {
  return (event) => void ctx.out(JSON.stringify({ version: EVENT_SCHEMA_VERSION, ...event }) + "\n");
}

/** Without --json: short progress lines on stderr; the final message goes to stdout separately. */
export function humanEventPrinter(ctx: CliContext): EventSink {
  return (event) => {
    const line = describe(event);
    if (line !== null) ctx.err(line + "\n");
  };
}

function clip(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max) + "…" : flat;
}

function describe(event: TrellisEventBody): string | null {
  switch (event.type) {
    case "thread.started":
      return `trellis: session ${event.thread_id}${event.resumed ? " (resumed)" : ""}`;
    case "item.started":
      return event.item.type === "tool_call"
        ? `→ ${event.item.name} ${clip(event.item.arguments, 120)}`
        : null;
    case "item.completed":
      if (event.item.type === "tool_call") {
        const mark = event.item.status === "completed" ? "✓" : "✗";
        const detail = event.item.status === "completed" ? "" : `: ${clip(event.item.output ?? "", 200)}`;
        return `${mark} ${event.item.name} ${event.item.status} (${event.item.duration_ms ?? 0} ms)${detail}`;
      }
      if (event.item.type === "reasoning") return `· ${clip(event.item.text)}`;
      if (event.item.type === "error") return `error: ${event.item.message}`;
      if (event.item.type === "context_compaction" && event.item.status === "completed") {
        return `context compacted (${event.item.trigger}): ~${event.item.tokens_before} → ~${event.item.tokens_after} tokens`;
      }
      return null;
    case "turn.failed":
      return `turn failed: ${event.error.message}`;
    case "warning":
      return `warning: ${event.message}`;
    case "notice":
      return `note: ${event.message}`;
    case "sandbox.unavailable":
      return `warning: sandbox unavailable (${event.reason}); shell commands need approval`;
    case "approval.decided":
      return event.decision === "denied" ? `denied: ${event.reason ?? ""}` : null;
    case "mcp.server_status":
      return event.status === "failed"
        ? `mcp: ${event.server} failed: ${event.error ?? ""}`
        : event.status === "ready"
        ? `mcp: ${event.server} ready (${event.duration_ms ?? 0} ms)`
        : null;
    case "mcp.elicitation":
      return `mcp: ${event.server} asks: ${clip(event.message)}${event.action ? ` → ${event.action}` : ""}`;
    case "hook.completed":
      return event.status === "completed" ? null : `hook ${event.event} ${event.status} (${event.source})`;
    case "skill.used":
      return `skill: ${event.name} (${event.how})`;
    case "turn.started":
    case "item.updated":
    case "turn.completed":
    case "approval.requested":
    case "mcp.startup_complete":
    case "mcp.tool_progress":
    case "mcp.resource_operation":
    case "mcp.sampling":
    case "hook.started":
    case "skills.changed":
    case "plugin.changed":
      return null;
    default: {
      const never: never = event;
      return String(never);
    }
  }
}
