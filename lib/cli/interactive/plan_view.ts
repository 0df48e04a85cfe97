import { terminalText } from "../../shared/mod.ts";
import { wrap } from "./markdown_render.ts";
import type { Ui } from "./ui.ts";

/** One step of the model's plan as the todo_list item carries it. */
export interface PlanStepView {
  text: string;
  completed: boolean;
  status?: string;
}

/**
 * The model's plan (update_plan / TodoWrite, #23 item 3) as a block of rows: a title, then one row
 * a step — done struck through and dim, the one in progress bold. The live region redraws it at
 * every update (in place); at the turn's end the last one is committed to the scrollback.
 */
export function planRows(
  ui: Ui,
  steps: PlanStepView[],
  explanation: string | undefined,
  width: number,
): string[] {
  const c = ui.colors;
  const done = steps.filter((s) => s.completed).length;
  const rows = [c.bold(`Plan (${done}/${steps.length} done)`)];
  if (explanation) {
    rows.push(
      ...wrap(terminalText(explanation, { lineBreaks: "show" }), width - 2).map((l) => c.dim(`  ${l}`)),
    );
  }
  for (const step of steps) {
    const text = terminalText(step.text, { lineBreaks: "show" });
    const lines = wrap(text, width - 6);
    const [first, ...rest] = lines.length ? lines : [""];
    const mark = step.completed ? "[x]" : step.status === "in_progress" ? "[>]" : "[ ]";
    const style = step.completed
      ? (t: string) => c.dim(c.strikethrough(t))
      : step.status === "in_progress"
      ? (t: string) => c.bold(t)
      : (t: string) => t;
    rows.push(
      `  ${step.completed ? c.green(mark) : step.status === "in_progress" ? c.cyan(mark) : mark} ${
        style(first)
      }`,
    );
    for (const line of rest) rows.push(`      ${style(line)}`);
  }
  return rows;
}
