/**
 * The lines of a session's checkpoint log (`records.jsonl`, #25 item 2). Append-only while a
 * session runs; rewritten whole (temp file, then rename) only when a conversation is rewound.
 */
export type CheckpointRecord =
  /** A file's state before its first change in `turn`: `blob` names its content (null: no file). */
  | { kind: "before"; turn: number; path: string; blob: string | null; mode: number }
  /**
   * What the agent (or a rewind) left at `path`: its content's digest (null: no file), or — for a
   * file tool's write, where hashing 1 MB again would double a checkpoint's cost — the file's inode,
   * size and mtime just after the write (any later write, in place or by rename, changes them).
   */
  | {
    kind: "after";
    turn: number;
    path: string;
    hash?: string | null;
    stat?: FileStamp;
    by?: "tool" | "rewind" | "shell";
  }
  /** A shell command ran in `turn`; `snapshot`: the files it changed were recorded as above. */
  | { kind: "shell"; turn: number; command: string; cwd: string; snapshot: boolean };

export function parseRecords(text: string): CheckpointRecord[] {
  const out: CheckpointRecord[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const record = JSON.parse(line) as CheckpointRecord;
      if (record && typeof record === "object" && typeof record.turn === "number") out.push(record);
    } catch {
      // A line cut short by a crash: the records before it still stand.
    }
  }
  return out;
}

/** Enough of a file's metadata to tell it was written again. */
export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}
