import { EVENT_SCHEMA_VERSION, type EventSink, terminalText, type TrellisEventBody } from "../shared/mod.ts";
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

/**
 * Every model-, server- or hook-chosen string goes through `terminalText` (#13 item 11): an escape
 * sequence in a tool argument, an MCP message or a hook's output prints as inert `␛[…` text.
 */
function safe(text: string): string {
  return terminalText(text, { lineBreaks: "show" });
}

function clip(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return safe(flat.length > max ? flat.slice(0, max) + "…" : flat);
}

function describe(event: TrellisEventBody): string | null {
  switch (event.type) {
    case "thread.started":
      return `trellis: session ${safe(event.thread_id)}${event.resumed ? " (resumed)" : ""}`;
    case "item.started":
      return event.item.type === "tool_call"
        ? `→ ${safe(event.item.name)} ${clip(event.item.arguments, 120)}`
        : null;
    case "item.completed":
      if (event.item.type === "tool_call") {
        const mark = event.item.status === "completed" ? "✓" : "✗";
        const detail = event.item.status === "completed" ? "" : `: ${clip(event.item.output ?? "", 200)}`;
        return `${mark} ${safe(event.item.name)} ${event.item.status} (${
          event.item.duration_ms ?? 0
        } ms)${detail}`;
      }
      if (event.item.type === "reasoning") return `· ${clip(event.item.text)}`;
      if (event.item.type === "error") return `error: ${safe(event.item.message)}`;
      return null;
    case "turn.failed":
      return `turn failed: ${safe(event.error.message)}`;
    case "warning":
      return `warning: ${safe(event.message)}`;
    case "notice":
      return `note: ${safe(event.message)}`;
    case "sandbox.unavailable":
      return `warning: sandbox unavailable (${safe(event.reason)}); shell commands need approval`;
    case "approval.decided":
      // The reason never starts with "denied" (#16 item 8: no "denied: denied:").
      return event.decision === "denied" ? `denied: ${safe(event.reason ?? `by ${event.by}`)}` : null;
    case "mcp.server_status":
      return event.status === "failed"
        ? `mcp: ${safe(event.server)} failed: ${safe(event.error ?? "")}`
        : event.status === "ready"
        ? `mcp: ${safe(event.server)} ready (${event.duration_ms ?? 0} ms)`
        : null;
    case "mcp.elicitation":
      return `mcp: ${safe(event.server)} asks: ${clip(event.message)}${
        event.action ? ` → ${event.action}` : ""
      }`;
    case "hook.completed": {
      // What a hook says to the user (a block reason, an error, its systemMessage); context goes to the model.
      const said = event.entries.filter((entry) => entry.kind !== "context");
      if (event.status === "completed" && said.length === 0) return null;
      return `hook ${safe(event.event)} ${event.status} (${safe(event.source)})` +
        said.map((entry) => `\n  ${safe(entry.kind)}: ${clip(entry.text, 300)}`).join("");
    }
    case "skill.used":
      return `skill: ${safe(event.name)} (${event.how})`;
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
