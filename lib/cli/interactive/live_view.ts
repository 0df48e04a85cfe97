import { terminalText } from "../../shared/mod.ts";
import stringWidth from "string-width";
import { layoutEditor } from "./editor_view.ts";
import type { EventView } from "./event_view.ts";
import type { LineBuffer } from "./line_buffer.ts";
import { wrap } from "./markdown_render.ts";
import type { LiveRegion } from "./screen.ts";
import { callStartLine } from "./tool_summary.ts";
import { planRows } from "./plan_view.ts";
import { agentRows } from "./agents_view.ts";
import type { SubagentStatus } from "../../app/mod.ts";
import type { Question, Ui } from "./ui.ts";

/** What the live region shows; the app fills it in at every frame. */
export interface LiveState {
  busy: { label: string; started: number } | null;
  view: EventView;
  editor: LineBuffer;
  question: Question | null;
  queued: { shown: string }[];
  hint: string[];
  footer: string;
  spinnerFrame: number;
  /** The session's subagents (#22 item 6), and whether their panel is expanded (Ctrl-O). */
  agents?: SubagentStatus[];
  agentsExpanded?: boolean;
}

const PREVIEW_ROWS = 4;

function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

export function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

/**
 * The live region, top to bottom: the answer's unfinished line (dim), the calls running with their
 * MCP progress, the status line (spinner, elapsed time, tokens, how to interrupt), queued prompts,
 * then the question being asked or the prompt, then hints and the footer.
 */
export function liveRegion(ui: Ui, state: LiveState): LiveRegion {
  const width = ui.width() - 1;
  const c = ui.colors;
  const rows: string[] = [];
  const spinner = ui.glyphs.spinner[state.spinnerFrame % ui.glyphs.spinner.length];
  if (state.busy) {
    const pending = state.view.pendingText();
    if (pending) rows.push(...wrap(pending, width).slice(-PREVIEW_ROWS).map((row) => c.dim(row)));
    const plan = state.view.plan;
    if (plan) rows.push(...planRows(ui, plan.steps, plan.explanation, width));
    for (const running of state.view.running()) {
      const line = callStartLine(running.call, c, ui.glyphs, width - 8);
      const took = elapsed(performance.now() - running.started);
      rows.push(`${line} ${c.dim(took)}`);
      if (running.progress) {
        rows.push(c.dim(`    ${terminalText(running.progress, { lineBreaks: "show" }).slice(0, width - 6)}`));
      }
    }
    rows.push(...agentRows(ui, state.agents ?? [], state.agentsExpanded ?? false, width));
    const tokens = state.view.streamedChars > 0
      ? ` · ~${formatTokens(Math.ceil(state.view.streamedChars / 4))} tokens`
      : "";
    rows.push(
      `${c.cyan(spinner)} ${c.bold(state.view.compacting ?? state.busy.label)} ${
        c.dim(`(${elapsed(performance.now() - state.busy.started)}${tokens} · esc to interrupt)`)
      }`,
    );
  }
  for (const queued of state.queued) {
    rows.push(
      c.dim(
        `${ui.glyphs.arrow} queued: ${
          terminalText(queued.shown, { lineBreaks: "show" }).slice(0, width - 12)
        }`,
      ),
    );
  }
  rows.push("");
  if (state.question) {
    const asked = state.question.view(width);
    const offset = rows.length;
    rows.push(...asked.rows);
    return asked.cursor
      ? { rows, cursor: { row: asked.cursor.row + offset, column: asked.cursor.column } }
      : { rows };
  }
  const layout = layoutEditor(state.editor, width, {
    prompt: ui.glyphs.prompt,
    continuation: ui.glyphs.continuation,
  });
  const offset = rows.length;
  rows.push(
    ...layout.rows.map((row, i) =>
      i === 0 ? c.bold(row.slice(0, ui.glyphs.prompt.length)) + row.slice(ui.glyphs.prompt.length) : row
    ),
  );
  rows.push(...state.hint.map((h) => c.dim(h)));
  if (state.footer) rows.push(c.dim(fitLeft(state.footer, width)));
  return { rows, cursor: { row: layout.cursor.row + offset, column: layout.cursor.column } };
}

function fitLeft(text: string, width: number): string {
  return stringWidth(text) <= width ? text : text.slice(0, width);
}
