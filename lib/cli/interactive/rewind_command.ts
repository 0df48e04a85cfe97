import { terminalText } from "../../shared/mod.ts";
import type { RewindPoint, Session } from "../../app/mod.ts";
import { choiceQuestion, listQuestion } from "./questions.ts";
import { rewindReport } from "../rewind_report.ts";
import type { Ui } from "./ui.ts";

/** What `/rewind` needs of the interactive session (a SlashContext is one). */
export interface RewindContext {
  ui: Ui;
  session(): Session;
}

type What = "both" | "conversation" | "files" | null;

/**
 * `/rewind [N] [force]` (#25 item 2), as Claude Code's menu: pick a turn (newest first), then restore
 * files and conversation, the conversation only, or the files only. Files edited since the agent
 * left them are kept and named unless `force`.
 */
export async function rewindCommand(args: string, ctx: RewindContext): Promise<void> {
  const { ui } = ctx;
  const c = ui.colors;
  const words = args.trim().split(/\s+/).filter(Boolean);
  const force = words.includes("force");
  const given = words.find((w) => w !== "force");
  const points = await ctx.session().rewindPoints();
  if (points.length === 0) return ui.print([c.dim("Nothing to rewind: this session has no turns yet.")]);
  let turn: number | null;
  if (given !== undefined) {
    turn = /^\d+$/.test(given) ? Number(given) : NaN;
    if (!points.some((p) => p.turn === turn)) {
      const shown = terminalText(given, { lineBreaks: "show" });
      return ui.print([
        c.red(`Cannot rewind to turn ${shown}: this session's turns are 1 to ${points.length}`),
      ]);
    }
  } else {
    turn = await new Promise<number | null>((resolve) => {
      void ui.ask(listQuestion(ui, {
        title: "Rewind to before which turn?",
        items: [...points].reverse().map((p) => ({ label: pointLabel(p, ui.width()), value: p.turn })),
      }, resolve));
    });
    if (turn === null) return ui.print([c.dim("Nothing rewound.")]);
  }
  const what = await new Promise<What>((resolve) => {
    void ui.ask(choiceQuestion<What>(ui, {
      title: `Rewind to before turn ${turn}:`,
      choices: [
        { key: "b", label: "restore files and conversation", value: "both" },
        { key: "c", label: "restore the conversation only", value: "conversation" },
        { key: "f", label: "restore the files only", value: "files" },
        { key: "n", label: "never mind", value: null },
      ],
      onEscape: null,
    }, resolve));
  });
  if (what === null) return ui.print([c.dim("Nothing rewound.")]);
  try {
    const outcome = await ctx.session().rewind({
      to: turn,
      files: what !== "conversation",
      conversation: what !== "files",
      force,
    });
    ui.print(rewindReport(outcome).map((line) => terminalText(line)));
    if (outcome.conversation) {
      const prompt = points.find((p) => p.turn === turn)?.prompt;
      ui.print([
        c.dim(`The next prompt is turn ${turn}${prompt ? `; its prompt was: ${terminalText(prompt)}` : ""}`),
      ]);
    }
  } catch (error) {
    ui.print([c.red(terminalText((error as Error).message))]);
  }
}

function pointLabel(p: RewindPoint, width: number): string {
  const prompt = terminalText(p.prompt || "(no typed prompt)", { lineBreaks: "show" });
  const what = [
    p.files.length ? `${p.files.length} file${p.files.length === 1 ? "" : "s"}` : "",
    p.shellCommands.length ? `${p.shellCommands.length} shell` : "",
  ].filter(Boolean).join(", ");
  const text = `${String(p.turn).padStart(3)}  ${prompt}${what ? `  (${what})` : ""}`;
  return text.length > width - 4 ? text.slice(0, width - 5) + "…" : text;
}
