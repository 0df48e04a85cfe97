import * as path from "node:path";
import type { AppendHandle, FileSystem } from "../platform/mod.ts";
import { type ConversationItem, UsageError } from "../shared/mod.ts";
import { applyCompaction, type CompactionRecord } from "./compacted_history.ts";
import { historyLines, rebuildHistory } from "./transcript_history.ts";

export interface SessionMeta {
  id: string;
  created: string;
  cwd: string;
  model: string;
}

type Line =
  | { type: "session_meta"; meta: SessionMeta }
  | { type: "item"; item: ConversationItem }
  | { type: "turn"; turn_id: string; status: string }
  /** A compaction (Codex's `compacted` rollout item): the history is rebuilt from it on resume. */
  | ({ type: "compacted" } & CompactionRecord);

/**
 * The thread's transcript: JSONL under $TRELLIS_HOME/sessions/, appended line by line as items
 * exist, so a crash loses at most the line being written and a resume sees a consistent prefix.
 */
export class TranscriptStore {
  constructor(private readonly fs: FileSystem, private readonly dir: string) {}

  fileOf(id: string): string {
    return path.join(this.dir, `${id}.jsonl`);
  }

  /** An ephemeral transcript keeps items in memory only (previews). */
  async create(options: { ephemeral?: boolean }, meta: SessionMeta): Promise<Transcript> {
    if (options.ephemeral) return new Transcript(this.fs, null, meta, []);
    this.fs.sync.mkdir(this.dir); // blocking, like the line writes: one call on the way to the first request
    const transcript = new Transcript(this.fs, this.fileOf(meta.id), meta, []);
    await transcript.append({ type: "session_meta", meta });
    return transcript;
  }

  /** Opens `id`, or the most recently written session for `"--last"`. */
  async open(id: string | "--last"): Promise<Transcript> {
    const file = id === "--last" ? await this.latest() : this.fileOf(id);
    let text: string;
    try {
      text = await this.fs.readTextFile(file);
    } catch {
      throw new UsageError(`Cannot resume session "${id}": no transcript at ${file}`, { file });
    }
    // Nothing before the last summary compaction is part of the history: it is not parsed.
    const { lines, userMessagesBefore } = historyLines<Line>(text);
    const meta = lines.find((l) => l.type === "session_meta");
    if (!meta || meta.type !== "session_meta") {
      throw new UsageError(`Cannot resume session "${id}": ${file} has no session header`, { file });
    }
    const { items, userMessages } = rebuildHistory(lines);
    const transcript = new Transcript(this.fs, file, meta.meta, items);
    transcript.userMessageCount = userMessagesBefore + userMessages;
    // A line cut short (kill -9) stays as it is; the next line must not be glued onto it.
    transcript.tornTail = text.length > 0 && !text.endsWith("\n");
    await transcript.closeDanglingCalls();
    return transcript;
  }

  private async latest(): Promise<string> {
    let best: { file: string; mtime: number } | null = null;
    for (const entry of await this.fs.readDir(this.dir).catch(() => [])) {
      if (!entry.name.endsWith(".jsonl")) continue;
      const file = path.join(this.dir, entry.name);
      const info = await this.fs.stat(file);
      if (info && (!best || info.mtimeMs > best.mtime)) best = { file, mtime: info.mtimeMs };
    }
    if (!best) throw new UsageError(`Cannot resume the last session: no sessions in ${this.dir}`);
    return best.file;
  }
}

export class Transcript {
  constructor(
    private readonly fs: FileSystem,
    readonly file: string | null,
    readonly meta: SessionMeta,
    readonly items: ConversationItem[],
  ) {}

  // One handle for the whole thread: each line is still written (and awaited) as its item exists,
  // without an open/close pair per line.
  private handle: Promise<AppendHandle> | null = null;

  /** User messages recorded over the thread's life, compacted ones included (turn numbering). */
  userMessageCount = 0;
  /** The file ends in a line cut short: the next line starts on a line of its own. */
  tornTail = false;

  async append(line: Line): Promise<void> {
    if (this.file === null) return;
    this.handle ??= this.fs.openAppend(this.file);
    const text = JSON.stringify(line) + "\n";
    await (await this.handle).append(this.tornTail ? "\n" + text : text);
    this.tornTail = false;
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    if (handle) await (await handle).close();
  }

  async recordItem(item: ConversationItem): Promise<void> {
    this.items.push(item);
    if (item.type === "message" && item.role === "user") this.userMessageCount++;
    await this.append({ type: "item", item });
  }

  /**
   * Records a compaction, then replaces the history with its result: the line is written first, so
   * a crash before it is complete resumes the history as it was before, never half of each.
   */
  async recordCompaction(record: CompactionRecord): Promise<void> {
    await this.append({ type: "compacted", ...record });
    this.items.splice(0, this.items.length, ...applyCompaction(this.items, record));
  }

  async recordTurn(turnId: string, status: string): Promise<void> {
    await this.append({ type: "turn", turn_id: turnId, status });
  }

  /** A process killed mid-call leaves calls without outputs; give each an aborted one (SPEC §8). */
  async closeDanglingCalls(): Promise<void> {
    const answered = new Set(this.items.flatMap((i) => i.type === "function_call_output" ? [i.callId] : []));
    for (const item of [...this.items]) {
      if (item.type === "function_call" && !answered.has(item.callId)) {
        await this.recordItem({
          type: "function_call_output",
          callId: item.callId,
          output: "aborted: the session ended before this call finished",
          status: "aborted",
        });
      }
    }
  }
}
