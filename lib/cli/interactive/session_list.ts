import * as path from "node:path";
import type { FileSystem } from "../../platform/mod.ts";
import { isSessionId } from "../../app/mod.ts";
import { terminalText } from "../../shared/mod.ts";
import { listQuestion } from "./questions.ts";
import type { Ui } from "./ui.ts";

export interface SessionSummary {
  id: string;
  modified: number;
  created: string;
  cwd: string;
  firstPrompt: string;
}

/** Enough of a transcript to find its header and first prompt. */
const HEAD_BYTES = 64 * 1024;
const MAX_LISTED = 200;

/** Recorded sessions, newest first, with what the picker shows of each. */
export async function listSessions(fs: FileSystem, dir: string): Promise<SessionSummary[]> {
  const entries = await fs.readDir(dir).catch(() => []);
  const found: { id: string; file: string; modified: number }[] = [];
  for (const entry of entries) {
    if (!entry.isFile || !entry.name.endsWith(".jsonl")) continue;
    const id = entry.name.slice(0, -".jsonl".length);
    if (!isSessionId(id)) continue;
    const file = path.join(dir, entry.name);
    const info = await fs.lstat(file);
    if (info?.isFile) found.push({ id, file, modified: info.mtimeMs });
  }
  found.sort((a, b) => b.modified - a.modified);
  const out: SessionSummary[] = [];
  for (const { id, file, modified } of found.slice(0, MAX_LISTED)) {
    const head = new TextDecoder().decode(
      await fs.readFilePrefix(file, HEAD_BYTES).catch(() => new Uint8Array()),
    );
    out.push({ id, modified, ...summarize(head) });
  }
  return out;
}

function summarize(head: string): { created: string; cwd: string; firstPrompt: string } {
  let created = "";
  let cwd = "";
  let firstPrompt = "";
  for (const line of head.split("\n")) {
    let parsed: {
      type?: string;
      meta?: { created?: string; cwd?: string };
      item?: { type?: string; role?: string; content?: unknown };
    };
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (parsed.type === "session_meta") {
      created = String(parsed.meta?.created ?? "");
      cwd = String(parsed.meta?.cwd ?? "");
    }
    const item = parsed.item;
    if (
      parsed.type === "item" && item?.type === "message" && item.role === "user" &&
      typeof item.content === "string" &&
      !item.content.startsWith("<")
    ) {
      firstPrompt = item.content;
      break;
    }
  }
  return { created, cwd, firstPrompt };
}

/** Asks which recorded session to resume: its id, or null when there is none or the picker was cancelled. */
export async function pickSession(ui: Ui, fs: FileSystem, home: string): Promise<string | null> {
  const dir = path.join(home, "sessions");
  const sessions = await listSessions(fs, dir);
  if (sessions.length === 0) {
    ui.print([
      ui.colors.yellow(`No recorded sessions in ${terminalText(dir, { lineBreaks: "show" })}.`),
    ]);
    return null;
  }
  const width = ui.width() - 6;
  const items = sessions.map((s) => {
    const when = new Date(s.modified).toISOString().slice(0, 16).replace("T", " ");
    const prompt = terminalText(s.firstPrompt || "(no prompt)", { lineBreaks: "show" });
    const text = `${when}  ${terminalText(s.cwd, { lineBreaks: "show" })}  ${prompt}`;
    return {
      label: text.length > width ? text.slice(0, width - 1) + ui.glyphs.ellipsis : text,
      value: s.id,
    };
  });
  return await new Promise<string | null>((resolve) => {
    void ui.ask(listQuestion(ui, { title: "Resume which session?", items }, resolve));
  });
}
