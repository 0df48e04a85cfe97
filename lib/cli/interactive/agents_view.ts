import type { SubagentStatus } from "../../app/mod.ts";
import { type ConversationItem, terminalText } from "../../shared/mod.ts";
import { wrap } from "./markdown_render.ts";
import type { Ui } from "./ui.ts";

/** Children shown expanded besides the running ones: the latest that finished. */
const RECENT_DONE = 3;

function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

function tokensOf(child: SubagentStatus): number {
  return child.usage.input_tokens + child.usage.output_tokens;
}

/**
 * The running subagents (#22 item 6) in the live region while a turn runs: collapsed, one row that
 * counts them (Ctrl-O expands); expanded, a row a child — its type, state, latest tool call and
 * tokens — the running ones and the last few that finished. Nothing when none runs.
 */
export function agentRows(ui: Ui, agents: SubagentStatus[], expanded: boolean, width: number): string[] {
  const c = ui.colors;
  const running = agents.filter((a) => a.status === "running");
  if (running.length === 0) return [];
  const done = agents.length - running.length;
  const counts = `agents: ${running.length} running${done ? `, ${done} done` : ""}`;
  const head = `${c.cyan(ui.glyphs.arrow)} ${c.bold(counts)} ${
    c.dim(`· ctrl-o to ${expanded ? "collapse" : "expand"} · /agents to open one`)
  }`;
  if (!expanded) return [head];
  const shown = [...running, ...agents.filter((a) => a.status !== "running").slice(-RECENT_DONE)];
  return [head, ...shown.map((a) => clip(`  ${agentLine(ui, a)}`, width))];
}

/** One child as a row: `general-purpose · running · shell: npm test · 1.2k tokens`. */
export function agentLine(ui: Ui, child: SubagentStatus): string {
  const c = ui.colors;
  const state = child.status === "running"
    ? c.cyan(child.status)
    : child.status === "completed"
    ? c.green(child.status)
    : c.yellow(terminalText(child.status, { lineBreaks: "show" }));
  const action = child.lastAction ? terminalText(child.lastAction, { lineBreaks: "show" }) : "starting";
  return `${terminalText(child.type, { lineBreaks: "show" })} · ${state} · ${action} · ${
    c.dim(`${formatTokens(tokensOf(child))} tokens`)
  }`;
}

function clip(row: string, width: number): string {
  // Rows carry colour codes: clip by visible characters only when plainly too long.
  return row.length > width * 3 ? row.slice(0, width * 3) : row;
}

const OUTPUT_ROWS = 5;
const PROMPT_ROWS = 6;

/**
 * A subagent's conversation opened from `/agents N`: its prompt, each tool call with the first
 * rows of what it got back, and its answers — as its transcript holds them now (a running child's
 * up to its latest step). Instructions and injected context are left out, as a resume's replay does.
 */
export function conversationRows(ui: Ui, items: readonly ConversationItem[], width: number): string[] {
  const c = ui.colors;
  const rows: string[] = [];
  const text = (s: string) => terminalText(s, { tabWidth: 2 });
  for (const item of items) {
    if (item.type === "message" && item.role === "user") {
      const lines = wrap(text(item.content), width - 3).slice(0, PROMPT_ROWS);
      rows.push(...lines.map((l, i) => c.bold(`${i === 0 ? ui.glyphs.prompt : "  "}${l}`)), "");
    } else if (item.type === "message" && item.role === "assistant") {
      rows.push(...wrap(text(item.content), width), "");
    } else if (item.type === "function_call") {
      const args = item.arguments.replace(/\s+/g, " ");
      rows.push(
        `${c.cyan(ui.glyphs.arrow)} ${terminalText(item.name, { lineBreaks: "show" })} ${
          c.dim(terminalText(args.length > width - 20 ? `${args.slice(0, width - 21)}…` : args))
        }`,
      );
    } else if (item.type === "function_call_output") {
      const lines = wrap(text(item.output), width - 4);
      rows.push(...lines.slice(0, OUTPUT_ROWS).map((l) => c.dim(`    ${l}`)));
      if (lines.length > OUTPUT_ROWS) rows.push(c.dim(`    … ${lines.length - OUTPUT_ROWS} more lines`));
    }
  }
  return rows;
}
