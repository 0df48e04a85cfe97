import type { ConversationItem } from "../shared/mod.ts";
import { applyCompaction, type CompactionRecord } from "./compacted_history.ts";

/** The lines a resume reads (transcript.ts's `Line`, as far as rebuilding the history goes). */
type HistoryLine =
  | { type: "session_meta" }
  | { type: "item"; item: ConversationItem }
  | { type: "turn" }
  | ({ type: "compacted" } & CompactionRecord);

/** How `Transcript` writes a summary compaction's line (`{ type: "compacted", ...record }`). */
const SUMMARY_LINE = '{"type":"compacted","strategy":"summary",';
/** How `Transcript` writes a turn's end (what numbers the next turn's id). */
const TURN_LINE = '\n{"type":"turn",';

/**
 * The lines a resume must parse: the header, then everything from the last complete summary
 * compaction on (it replaced all that came before), or every line when there is none. A long
 * session's transcript keeps its whole past, but a resume parses only what the model still sees.
 * Unparsable lines (one cut short by kill -9) are skipped. `turnsBefore` counts the turns ended in
 * the part not parsed, for turn numbering.
 */
export function historyLines<L = HistoryLine>(text: string): { lines: L[]; turnsBefore: number } {
  const start = lastSummaryStart(text);
  if (start === 0) return { lines: parseLines(text), turnsBefore: 0 };
  const header = text.slice(0, text.indexOf("\n"));
  return {
    lines: [...parseLines<L>(header), ...parseLines<L>(text.slice(start))],
    turnsBefore: countOccurrences(text, TURN_LINE, start),
  };
}

/** Item lines in order, each compaction applied where it was recorded; turn ends counted. */
export function rebuildHistory(lines: readonly { type: string }[]): {
  items: ConversationItem[];
  turns: number;
} {
  let items: ConversationItem[] = [];
  let turns = 0;
  for (const line of lines as HistoryLine[]) {
    if (line.type === "item") {
      items.push(line.item);
    } else if (line.type === "turn") {
      turns++;
    } else if (line.type === "compacted" && wellFormed(line)) {
      items = applyCompaction(items, line);
    }
  }
  return { items, turns };
}

/** A hand-edited or foreign `compacted` line that cannot be applied is skipped like a torn one. */
function wellFormed(record: CompactionRecord): boolean {
  return record.strategy === "summary"
    ? Array.isArray(record.replacement_history)
    : record.strategy === "elide_tool_outputs" && Array.isArray(record.elided);
}

/** Where the last complete, applicable summary line starts (0: none). */
function lastSummaryStart(text: string): number {
  for (let from = text.length; from > 0;) {
    const at = text.lastIndexOf(SUMMARY_LINE, from);
    if (at <= 0) return 0;
    const end = text.indexOf("\n", at);
    if (text[at - 1] === "\n" && end !== -1) {
      const [line] = parseLines<HistoryLine>(text.slice(at, end));
      if (line?.type === "compacted" && wellFormed(line)) return at;
    }
    from = at - 1;
  }
  return 0;
}

function parseLines<L>(text: string): L[] {
  return text.split("\n").filter((l) => l.trim() !== "").flatMap((l) => {
    try {
      return [JSON.parse(l) as L];
    } catch {
      return []; // a torn line from a crash
    }
  });
}

function countOccurrences(text: string, needle: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1 && at < end; at = text.indexOf(needle, at + 1)) count++;
  return count;
}
