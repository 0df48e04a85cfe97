import {
  EVENT_SCHEMA_VERSION,
  type EventSink,
  terminalText,
  type ThreadItem,
  type TrellisEventBody,
} from "../shared/mod.ts";
import type { CliContext } from "./context.ts";
import { progressLabel, type StatusLine } from "./status_line.ts";

type Delta = TrellisEventBody & { type: "item.agent_message.delta" };

/**
 * `--json`: one versioned event per stdout line. Pieces of one message that arrive together (in
 * one network read, before the event loop turns) leave as one delta line: the answer's text is
 * written once as deltas and once in `item.completed`, whatever its length (#13 item 12).
 */
export function jsonEventPrinter(ctx: CliContext): EventSink {
  const line = (event: TrellisEventBody) =>
    void ctx.out(JSON.stringify({ version: EVENT_SCHEMA_VERSION, ...event }) + "\n");
  let held: Delta | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const release = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (held !== null) line(held);
    held = null;
  };
  return (event) => {
    if (event.type !== "item.agent_message.delta") {
      release();
      return line(event);
    }
    if (held?.item_id === event.item_id) {
      held.delta += event.delta;
      return;
    }
    release();
    held = { ...event };
    timer = setTimeout(release, 0);
  };
}

/**
 * Without --json: the assistant's messages stream to stdout as they arrive; progress goes to
 * stderr as short lines, and to the status line when stderr is a terminal.
 */
export function humanEventPrinter(ctx: CliContext, options: { status?: StatusLine } = {}): EventSink {
  const { status } = options;
  const answer = answerStream(ctx);
  return (event) => {
    // Answer text is queued for stdout before the status line reacts: the line hides at once
    // (stderr is written synchronously, stdout a moment later) and reappears only once the queued
    // text, its final newline included, is out.
    const answered = answer(event);
    status?.observe(event);
    if (answered) return;
    if (event.type === "mcp.tool_progress" && !status) return ctx.err(`mcp: ${safe(progressLabel(event))}\n`);
    const line = describe(event);
    if (line === null) return;
    status?.clear();
    ctx.err(line + "\n");
  };
}

/**
 * Writes each message's text to stdout as it streams, ending it with a newline; true when it took the
 * event. On a terminal the model's escape sequences print as visible text (#13 item 11; each control
 * character is replaced on its own, so a sequence split across deltas is caught too); a pipe gets the
 * exact bytes.
 */
function answerStream(ctx: CliContext): (event: TrellisEventBody) => boolean {
  const streamed = new Map<string, string>();
  const shown = ctx.platform.isTerminal("stdout")
    ? (text: string) => terminalText(text)
    : (text: string) => text;
  return (event) => {
    if (event.type === "item.agent_message.delta") {
      if (event.delta === "") return true;
      streamed.set(event.item_id, event.delta.at(-1)!);
      void ctx.out(shown(event.delta));
      return true;
    }
    if (event.type !== "item.completed" || event.item.type !== "agent_message") return false;
    const last = streamed.get(event.item.id);
    streamed.delete(event.item.id);
    if (last === undefined) void ctx.out(event.item.text === "" ? "" : `${shown(event.item.text)}\n`);
    else if (last !== "\n") void ctx.out("\n");
    return true;
  };
}

/** The fields the progress lines show for any tool-call item (command, file change, MCP, other). */
function callView(
  item: ThreadItem,
): { name: string; args: string; status: string; output?: string; ms?: number } | null {
  if (!("call_id" in item)) return null;
  const args = item.type === "command_execution"
    ? item.command
    : item.type === "file_change"
    ? item.changes.map((change) => change.path).join(", ")
    : typeof item.arguments === "string"
    ? item.arguments
    : JSON.stringify(item.arguments);
  // A person reads an MCP result's text, not the structured JSON the model got.
  const output = item.display_text ?? item.output;
  return { name: item.name, args, status: item.call_status, output, ms: item.duration_ms };
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

/** The plan as stderr shows it at each update: one line a step, `[x]` done, `[>]` in progress. */
function planLines(item: ThreadItem & { type: "todo_list" }): string {
  const mark = (step: (typeof item.items)[number]) =>
    step.completed ? "[x]" : step.status === "in_progress" ? "[>]" : "[ ]";
  return ["plan:", ...item.items.map((step) => `  ${mark(step)} ${clip(step.text, 200)}`)].join("\n");
}

function describe(event: TrellisEventBody): string | null {
  switch (event.type) {
    case "thread.started":
      return `trellis: session ${safe(event.thread_id)}${event.resumed ? " (resumed)" : ""}`;
    case "item.started": {
      if (event.item.type === "todo_list") return planLines(event.item);
      const call = callView(event.item);
      return call ? `→ ${safe(call.name)} ${clip(call.args, 120)}` : null;
    }
    case "item.completed": {
      const call = callView(event.item);
      if (call) {
        const mark = call.status === "completed" ? "✓" : "✗";
        const detail = call.status === "completed" ? "" : `: ${clip(call.output ?? "", 200)}`;
        return `${mark} ${safe(call.name)} ${call.status} (${call.ms ?? 0} ms)${detail}`;
      }
      if (event.item.type === "reasoning") return `· ${clip(event.item.text)}`;
      if (event.item.type === "error") return `error: ${safe(event.item.message)}`;
      if (event.item.type === "context_compaction" && event.item.status === "completed") {
        return `context compacted (${event.item.trigger}): ~${event.item.tokens_before} → ~${event.item.tokens_after} tokens`;
      }
      return null;
    }
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
    case "agent.started":
      return `agent ${safe(event.agent_type)} started: ${clip(event.description)}`;
    case "agent.completed":
      return `agent ${safe(event.agent_type)} ${safe(event.status)}`;
    case "agent.progress": // the live panel's; a log line per child tool call would drown the parent's
      return null;
    case "item.updated":
      return event.item.type === "todo_list" ? planLines(event.item) : null;
    case "turn.started":
    case "plan.updated":
    case "item.agent_message.delta":
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
