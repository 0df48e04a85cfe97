import type { FileSystem } from "../platform/mod.ts";
import { TrellisError } from "../shared/mod.ts";

/** One turn of a transcript, as `/rewind` and `trellis rewind --to N` count them (from 1). */
export interface TranscriptTurn {
  turn: number;
  /** The user messages the turn recorded, in order (the typed prompt among them). */
  userMessages: string[];
  /** Where the turn's first line starts in the file: what a conversation rewind cuts at. */
  start: number;
  /** The turn ended (its `turn` line is there); false for one cut short by a crash. */
  ended: boolean;
}

/**
 * The turns of a transcript's text. A turn is the lines after the previous turn's `turn` line up to
 * its own: its numbers match the turn ids (`<thread>-tN`) the session gave, whatever compaction did.
 */
export function transcriptTurns(text: string): TranscriptTurn[] {
  const turns: TranscriptTurn[] = [];
  const headerEnd = text.indexOf("\n") + 1;
  if (headerEnd === 0) return turns;
  let current: TranscriptTurn | null = null;
  for (let at = headerEnd; at < text.length;) {
    const end = text.indexOf("\n", at);
    const lineEnd = end === -1 ? text.length : end;
    let line: { type?: string; item?: { type?: string; role?: string; content?: unknown } } | null = null;
    try {
      line = JSON.parse(text.slice(at, lineEnd));
    } catch {
      line = null; // a torn line
    }
    current ??= { turn: turns.length + 1, userMessages: [], start: at, ended: false };
    const item = line?.item;
    if (
      line?.type === "item" && item?.type === "message" && item.role === "user" &&
      typeof item.content === "string"
    ) {
      current.userMessages.push(item.content);
    }
    if (line?.type === "turn") {
      current.ended = true;
      turns.push(current);
      current = null;
    }
    at = lineEnd + 1;
  }
  if (current) turns.push(current);
  return turns;
}

/**
 * Cuts the transcript at turn `turn`'s start (#25 item 2), so a resume continues from before it:
 * the new text is written to a temp file and renamed over (a crash leaves the old transcript or the
 * new one). Returns the text it replaced, for the caller to keep.
 */
export async function truncateTranscript(fs: FileSystem, file: string, turn: number): Promise<string> {
  const text = await fs.readTextFile(file);
  const found = transcriptTurns(text).find((t) => t.turn === turn);
  if (!found) {
    throw new TrellisError("usage", `Cannot rewind the conversation of ${file}: it has no turn ${turn}`, {
      file,
      field: "to",
    }, { exitCode: 2 });
  }
  await fs.writeFileAtomic(file, text.slice(0, found.start), { mode: 0o600 });
  return text;
}
