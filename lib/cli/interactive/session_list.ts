import * as path from "node:path";
import type { FileSystem } from "../../platform/mod.ts";
import { listSessions, type SessionSummary } from "../../app/mod.ts";
import { terminalText } from "../../shared/mod.ts";
import { listQuestion } from "./questions.ts";
import type { Ui } from "./ui.ts";

/** The picker lists this many, newest first; `trellis sessions` lists them all. */
const MAX_LISTED = 200;

/** A session's row: when, where, and the first prompt a person typed. */
export function sessionRow(s: SessionSummary): string {
  const when = new Date(s.modified).toISOString().slice(0, 16).replace("T", " ");
  const prompt = terminalText(s.firstPrompt || "(no prompt)", { lineBreaks: "show" });
  return `${when}  ${terminalText(s.cwd, { lineBreaks: "show" })}  ${prompt}${agentsNote(s)}`;
}

/** `  [agents: code-explorer ×2, reviewer]`: the subagents a resume restores with it (#22 item 3). */
function agentsNote(s: SessionSummary): string {
  if (s.agents.length === 0) return "";
  const counts = new Map<string, number>();
  for (const a of s.agents) counts.set(a.agentType || "agent", (counts.get(a.agentType || "agent") ?? 0) + 1);
  const names = [...counts].map(([type, n]) => n > 1 ? `${type} ×${n}` : type);
  return `  [agents: ${terminalText(names.join(", "), { lineBreaks: "show" })}]`;
}

/** The named warning for a session whose head has a line cut short (the rest of the list loads). */
export function sessionWarning(s: SessionSummary): string | null {
  return s.warning ? `warning: session ${s.id} (${s.file}): ${s.warning}` : null;
}

/**
 * Asks which recorded session to resume — those recorded in `cwd`, or every directory's when `cwd`
 * is null: its id, or null when there is none or the picker was cancelled.
 */
export async function pickSession(
  ui: Ui,
  fs: FileSystem,
  home: string,
  cwd: string | null,
): Promise<string | null> {
  const dir = path.join(home, "sessions");
  const { sessions, total } = await listSessions(fs, dir, { cwd, limit: MAX_LISTED });
  if (sessions.length === 0) {
    const where = cwd === null ? "" : ` for ${terminalText(cwd, { lineBreaks: "show" })}`;
    ui.print([
      ui.colors.yellow(
        `No recorded sessions${where} in ${terminalText(dir, { lineBreaks: "show" })}.${
          cwd === null ? "" : " `trellis resume --all` lists every directory's."
        }`,
      ),
    ]);
    return null;
  }
  const warnings = sessions.map(sessionWarning).filter((w): w is string => w !== null);
  if (warnings.length) {
    ui.print(warnings.map((w) => ui.colors.yellow(terminalText(w, { lineBreaks: "show" }))));
  }
  const width = ui.width() - 6;
  const items = sessions.map((s) => {
    const text = sessionRow(s);
    return {
      label: text.length > width ? text.slice(0, width - 1) + ui.glyphs.ellipsis : text,
      value: s.id,
    };
  });
  const more = total > sessions.length ? ` (the ${sessions.length} newest of ${total})` : "";
  const title = `Resume which session${cwd === null ? "" : " of this directory"}?${more}`;
  return await new Promise<string | null>((resolve) => {
    void ui.ask(listQuestion(ui, { title, items }, resolve));
  });
}
