import * as path from "node:path";
import type { FileSystem } from "../../platform/mod.ts";
import { isSessionId } from "../../loop/mod.ts";

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
