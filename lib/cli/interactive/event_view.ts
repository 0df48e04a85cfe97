import { terminalText, type TrellisEventBody } from "../../shared/mod.ts";
import {
  codeBlock,
  type MarkdownLibraries,
  renderLine,
  renderMarkdown,
  type RenderOptions,
  wrap,
} from "./markdown_render.ts";
import { MarkdownStream } from "./markdown_stream.ts";
import { callDoneLines, callStartLine, type CallView } from "./tool_summary.ts";
import { planRows, type PlanStepView } from "./plan_view.ts";
import type { Ui } from "./ui.ts";

/** An event as it may arrive: today's shapes, or later ones with additive fields (tolerated). */
// deno-lint-ignore no-explicit-any
type AnyEvent = TrellisEventBody | { type: string; [key: string]: any };

/** Code coloured per answer (see `#newStream`). */
const HIGHLIGHT_BUDGET_CHARS = 32 * 1024;

interface Running {
  call: CallView;
  started: number;
  progress?: string;
}

export interface ServerState {
  status: string;
  error?: string;
}

/**
 * Turns the session's events into what the person sees: the answer streamed as rendered markdown,
 * tool calls (one live line while running, a summary with a diff when done), MCP progress, hook
 * blocks and added context, warnings once. Every model- or server-chosen string is made
 * terminal-safe here, before any styling is added.
 */
export class EventView {
  #libs: MarkdownLibraries | null = null;
  #streams = new Map<string, { stream: MarkdownStream; seen: number }>();
  #running = new Map<string, Running>();
  #said = new Set<string>();
  readonly servers = new Map<string, ServerState>();
  /** Output characters streamed in this turn (the status line's estimate until usage arrives). */
  streamedChars = 0;
  hooksNeedingReview: string | null = null;
  /** The model's plan this turn (todo_list item), shown live until the turn ends (#23 item 3). */
  plan: { steps: PlanStepView[]; explanation?: string } | null = null;
  /** While a compaction runs: what the status line says instead of "Working". */
  compacting: string | null = null;
  /**
   * The bench's reference (`TRELLIS_RENDER_RAW=1`): answers are written line by line as they
   * arrive, terminal-safe but not rendered, so rendering's own cost can be measured against it.
   */
  renderRaw = false;

  constructor(
    private readonly ui: Ui,
    /** The arguments of a call by id, from the transcript (for event shapes that do not carry them). */
    private readonly argumentsOf: (callId: string) => string | undefined,
  ) {}

  set libraries(libs: MarkdownLibraries) {
    this.#libs = libs;
  }

  /** Calls still running, for the live region. */
  running(): Running[] {
    return [...this.#running.values()];
  }

  /** The answer's line being written (not committed yet), terminal-safe. */
  pendingText(): string {
    let text = "";
    for (const { stream } of this.#streams.values()) text += stream.pending();
    return terminalText(text, { tabWidth: 2 });
  }

  resetTurn(): void {
    this.streamedChars = 0;
  }

  /** Ends whatever is still streaming (an interrupted turn): its text stays, committed. */
  finishStreams(): void {
    for (const { stream } of this.#streams.values()) stream.finish();
    this.#streams.clear();
    this.#running.clear();
  }

  handle(event: AnyEvent): void {
    const c = this.ui.colors;
    switch (event.type) {
      case "item.started":
      case "item.updated":
      case "item.completed":
        return this.#item(event.type, event.item);
      case "item.agent_message.delta":
        return this.#text(String(event.item_id), String(event.delta ?? ""));
      case "turn.failed":
        return this.#print([
          c.red(
            `${this.ui.glyphs.fail} ${
              terminalText(String(event.error?.message ?? "failed"), { lineBreaks: "show" })
            }`,
          ),
        ]);
      case "warning":
        return this.#once(`warning: ${event.message}`, c.yellow);
      case "notice": {
        const message = String(event.message);
        if (/hooks? needs? review/.test(message)) this.hooksNeedingReview = message;
        return this.#once(message, c.dim);
      }
      case "sandbox.unavailable":
        return this.#once(
          `warning: sandbox unavailable (${event.reason}); shell commands need approval`,
          c.yellow,
        );
      case "approval.decided":
        if (event.by !== "user" && event.decision === "denied") {
          this.#print([
            c.yellow(
              `${this.ui.glyphs.fail} ${
                terminalText(String(event.reason ?? "denied"), { lineBreaks: "show" })
              }`,
            ),
          ]);
        } else if (event.by === "hook") this.#print([c.dim(`  approved by a PermissionRequest hook`)]);
        return;
      case "mcp.server_status":
        this.servers.set(String(event.server), {
          status: String(event.status),
          ...(event.error ? { error: String(event.error) } : {}),
        });
        if (event.status === "failed") {
          this.#once(`MCP server ${event.server} failed to start: ${event.error ?? ""}`, c.yellow);
        }
        return;
      case "mcp.tool_progress": {
        const running = [...this.#running.values()].find((r) => r.call.callId === event.call_id);
        if (running) {
          const total = event.total !== undefined ? `/${event.total}` : "";
          running.progress = `${event.progress}${total}${event.message ? ` ${event.message}` : ""}`;
          this.ui.refresh();
        }
        return;
      }
      case "mcp.sampling":
        return this.#print([
          c.dim(
            `  MCP server ${
              terminalText(String(event.server), { lineBreaks: "show" })
            } asked the model: ${event.decision}`,
          ),
        ]);
      case "hook.completed":
        return this.#hook(event);
      case "skill.used":
        return this.#print([
          c.dim(`  skill ${terminalText(String(event.name), { lineBreaks: "show" })} (${event.how})`),
        ]);
      case "skills.changed":
        return this.#print([c.dim(`  skills changed: ${event.paths?.length ?? 0} file(s)`)]);
      case "agent.started":
      case "agent.completed":
        return this.#print([
          c.dim(
            `  agent ${terminalText(String(event.agent_type), { lineBreaks: "show" })} ${
              event.type === "agent.started"
                ? `started: ${terminalText(String(event.description), { lineBreaks: "show" })}`
                : (event as { status: string }).status
            }`,
          ),
        ]);
      case "plugin.changed":
        return this.#print([
          c.dim(
            `  plugins now: ${
              terminalText((event.plugins ?? []).join(", ") || "none", { lineBreaks: "show" })
            }`,
          ),
        ]);
      default:
        return;
    }
  }

  /**
   * A compaction (#15 item 6; Codex's contextCompaction item), automatic or `/compact`: while it
   * runs the status line says so; done, one line with the context's size before and after; failed,
   * why, and that the history is as it was.
   */
  // deno-lint-ignore no-explicit-any
  #compaction(phase: string, item: any): void {
    const c = this.ui.colors;
    if (phase === "item.started") {
      this.compacting = item.trigger === "auto" ? "Compacting the context (automatic)" : "Compacting";
      return this.ui.refresh();
    }
    if (phase !== "item.completed") return;
    this.compacting = null;
    const trigger = item.trigger === "auto" ? "automatically" : "by hand";
    const tokens = (n: unknown) => typeof n === "number" ? `~${n.toLocaleString("en-US")}` : "?";
    if (item.status === "failed") {
      const why = terminalText(String(item.error ?? "unknown error"), { lineBreaks: "show" });
      return this.#print([
        c.yellow(`${this.ui.glyphs.fail} compaction failed, the history is unchanged: ${why}`),
      ]);
    }
    const how = item.strategy === "elide_tool_outputs" ? " (old tool outputs elided)" : "";
    const { rule, arrow } = this.ui.glyphs;
    this.#print([
      c.dim(
        `${rule} context compacted ${trigger}${how}: ${tokens(item.tokens_before)} ${arrow} ${
          tokens(item.tokens_after)
        } tokens`,
      ),
    ]);
  }

  // deno-lint-ignore no-explicit-any
  #item(phase: string, item: any): void {
    if (!item || typeof item !== "object") return;
    if (item.type === "agent_message") {
      if (phase === "item.completed") return this.#finishMessage(String(item.id), String(item.text ?? ""));
      // Today's `item.updated` carries the whole text so far; take what is new.
      const entry = this.#streams.get(String(item.id));
      const text = String(item.text ?? "");
      return this.#text(String(item.id), text.slice(entry?.seen ?? 0));
    }
    if (item.type === "reasoning") {
      if (phase !== "item.completed" || !item.text) return;
      const lines = wrap(
        this.ui.colors.dim(this.ui.colors.italic(terminalText(String(item.text), { tabWidth: 2 }))),
        this.ui.width() - 2,
      );
      return this.#print(lines.map((l) => `  ${l}`));
    }
    if (item.type === "context_compaction") return this.#compaction(phase, item);
    if (item.type === "todo_list") return this.#plan(phase, item);
    if (item.type === "error") {
      return this.#print([
        this.ui.colors.red(`error: ${terminalText(String(item.message), { lineBreaks: "show" })}`),
      ]);
    }
    if (typeof item.call_id !== "string") return;
    const call = this.#callOf(item);
    if (phase === "item.started") {
      this.#running.set(call.callId, { call, started: performance.now() });
      this.ui.refresh();
    } else if (phase === "item.completed") {
      this.#running.delete(call.callId);
      this.#print(callDoneLines(call, this.ui.colors, this.ui.glyphs, this.ui.width()));
    }
  }

  /** Updates redraw the live block in place; the turn's end commits the last plan above. */
  // deno-lint-ignore no-explicit-any
  #plan(phase: string, item: any): void {
    const steps: PlanStepView[] = Array.isArray(item.items)
      ? item.items.map((s: Record<string, unknown>) => ({
        text: String(s.text ?? ""),
        completed: s.completed === true,
        ...(typeof s.status === "string" ? { status: s.status } : {}),
      }))
      : [];
    const explanation = typeof item.explanation === "string" ? item.explanation : undefined;
    if (phase === "item.completed") {
      this.plan = null;
      return this.#print(planRows(this.ui, steps, explanation, this.ui.width() - 1));
    }
    this.plan = { steps, ...(explanation ? { explanation } : {}) };
    this.ui.refresh();
  }

  // deno-lint-ignore no-explicit-any
  #callOf(item: any): CallView {
    const args = typeof item.arguments === "string" ? item.arguments : this.argumentsOf(item.call_id) ??
      (item.arguments !== undefined
        ? JSON.stringify(item.arguments)
        : JSON.stringify({ command: item.command }));
    return {
      callId: item.call_id,
      name: String(item.name ?? item.tool ?? item.type),
      arguments: args,
      // Today `status` holds Trellis's call status; later shapes keep it in `call_status`.
      status: String(item.call_status ?? item.status),
      // What a person reads: an MCP result's text, not the structured JSON the model was given.
      ...(typeof item.display_text === "string"
        ? { output: item.display_text }
        : typeof item.output === "string"
        ? { output: item.output }
        : {}),
      ...(typeof item.duration_ms === "number" ? { durationMs: item.duration_ms } : {}),
    };
  }

  #text(id: string, delta: string): void {
    if (!delta) return;
    let entry = this.#streams.get(id);
    if (!entry) {
      entry = { stream: this.#newStream(), seen: 0 };
      this.#streams.set(id, entry);
    }
    entry.seen += delta.length;
    this.streamedChars += delta.length;
    entry.stream.push(terminalText(delta, { tabWidth: 2 }));
    this.ui.refresh();
  }

  #finishMessage(id: string, text: string): void {
    const entry = this.#streams.get(id);
    if (text.length > (entry?.seen ?? 0)) this.#text(id, text.slice(entry?.seen ?? 0));
    const done = this.#streams.get(id);
    done?.stream.finish();
    this.#streams.delete(id);
    if (done) this.#print([""]);
  }

  /** Renders a whole answer at once (a resumed conversation), handing its lines to `emit`. */
  renderStatic(markdown: string, emit: (lines: string[]) => void): void {
    const stream = this.#newStream(emit);
    stream.push(terminalText(markdown, { tabWidth: 2 }));
    stream.finish();
  }

  #newStream(emit: (lines: string[]) => void = (lines) => this.ui.print(lines)): MarkdownStream {
    const options = (): RenderOptions => ({
      width: this.ui.width() - 1,
      colors: this.ui.colors,
      glyphs: this.ui.glyphs,
    });
    const libs = this.#libs;
    // highlight.js costs ~2–5 µs a byte here: an answer's first 32 KiB of code are coloured, code
    // past that (a pathological answer) is shown plain, so a huge answer never stalls the stream.
    let highlightBudget = HIGHLIGHT_BUDGET_CHARS;
    if (this.renderRaw) {
      return new MarkdownStream({ render: (line) => [line], renderCode: (code) => code.split("\n"), emit });
    }
    return new MarkdownStream({
      render: (markdown) =>
        !libs
          ? wrap(markdown, options().width)
          : markdown.includes("\n")
          ? renderMarkdown(markdown, libs, options())
          : renderLine(markdown, libs, options()),
      renderCode: (code, language, first) => {
        if (!libs) return code.split("\n").map((l) => `  ${l}`);
        highlightBudget -= code.length;
        return codeBlock(code, language, libs, options(), first, highlightBudget >= 0);
      },
      emit,
    });
  }

  // deno-lint-ignore no-explicit-any
  #hook(event: any): void {
    const c = this.ui.colors;
    const name = `${event.event} hook (${terminalText(String(event.source), { lineBreaks: "show" })})`;
    const entries: { kind: string; text: string }[] = Array.isArray(event.entries) ? event.entries : [];
    const text = (kind: string) =>
      entries.filter((e) => e.kind === kind).map((e) => terminalText(e.text, { lineBreaks: "show" })).join(
        "; ",
      );
    if (event.status === "blocked" || event.status === "stopped") {
      this.#print([
        c.yellow(
          `${this.ui.glyphs.fail} ${name} ${event.status}: ${
            text("feedback") || text("stop") || "no reason given"
          }`,
        ),
      ]);
    } else if (event.status === "failed") {
      this.#print([c.yellow(`warning: ${name} failed${text("error") ? `: ${text("error")}` : ""}`)]);
    }
    const context = text("context");
    if (context) this.#print([c.dim(`  ${name} added context: ${clip(context, 200)}`)]);
    const warning = text("warning");
    if (warning) this.#once(`${name}: ${warning}`, c.yellow);
  }

  #once(message: string, paint: (text: string) => string): void {
    if (this.#said.has(message)) return;
    this.#said.add(message);
    this.#print(wrap(paint(terminalText(message, { tabWidth: 2 })), this.ui.width() - 1));
  }

  #print(lines: string[]): void {
    this.ui.print(lines);
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + "…" : text;
}

export { callStartLine };
