import * as path from "node:path";
import type { AppendHandle, FileSystem } from "../platform/mod.ts";
import { type ConversationItem, type EventUsage, eventUsage, type Usage, UsageError } from "../shared/mod.ts";
import { applyCompaction, type CompactionRecord } from "./compacted_history.ts";
import { historyLines, rebuildHistory } from "./transcript_history.ts";

export interface SessionMeta {
  id: string;
  created: string;
  cwd: string;
  model: string;
  /** A subagent's transcript (#22 item 3): the thread that spawned it, and the agent's type. */
  parent?: { threadId: string; agentType: string; callId: string };
}

type Line =
  | { type: "session_meta"; meta: SessionMeta }
  | { type: "item"; item: ConversationItem }
  | { type: "turn"; turn_id: string; status: string; usage?: EventUsage }
  /** A compaction (Codex's `compacted` rollout item): the history is rebuilt from it on resume. */
  | ({ type: "compacted" } & CompactionRecord);

/** What a session id may look like: a file name in the sessions folder, never a path. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Whether `id` can name a transcript in the sessions folder (a file name, never a path). */
export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

/** Refuses what cannot be a session id (`../x`, `/tmp/x`), before even the config is loaded. */
export function checkSessionId(id: string, sessionsDir = "$TRELLIS_HOME/sessions"): void {
  if (isSessionId(id)) return;
  throw new UsageError(
    `Cannot resume session "${id}": not a session id (a session id names a transcript in ${sessionsDir})`,
    { field: "session_id" },
  );
}

/**
 * The one check of a session to resume — `exec resume ID`, `trellis resume ID` and
 * `TranscriptStore.open` — before anything else of a session is built: `id` is a session id, and
 * names a regular file directly in `sessionsDir` (not missing, not a symlink out of it).
 * Returns the transcript's path.
 */
export async function checkResumeId(fs: FileSystem, sessionsDir: string, id: string): Promise<string> {
  checkSessionId(id, sessionsDir);
  const file = path.join(sessionsDir, `${id}.jsonl`);
  const info = await fs.lstat(file);
  if (!info?.isFile) {
    const state = info ? "its transcript is not a regular file" : "no such session";
    throw new UsageError(`Cannot resume session "${id}": ${state} in ${sessionsDir}`, { file });
  }
  return file;
}

/**
 * The thread's transcript: JSONL under $TRELLIS_HOME/sessions/, appended line by line as items
 * exist, so a crash loses at most the line being written and a resume sees a consistent prefix.
 * The file appears with the first item: a session that ends before anything happened (a usage
 * error, a required MCP server that failed) leaves no empty transcript for `resume --last` to pick.
 */
export class TranscriptStore {
  constructor(private readonly fs: FileSystem, private readonly dir: string) {}

  fileOf(id: string): string {
    return path.join(this.dir, `${id}.jsonl`);
  }

  /** An ephemeral transcript keeps items in memory only (previews). */
  create(options: { ephemeral?: boolean }, meta: SessionMeta): Promise<Transcript> {
    if (options.ephemeral) return Promise.resolve(new Transcript(this.fs, null, meta, []));
    const transcript = new Transcript(this.fs, this.fileOf(meta.id), meta, []);
    transcript.unwritten = { dir: this.dir, meta };
    return Promise.resolve(transcript);
  }

  /**
   * Opens `id`, or the most recently written session for `"--last"`. An id is a name in the
   * sessions folder: a path (`../x`, `/tmp/x.jsonl`) or a symlink out of it is refused.
   */
  async open(id: string | "--last"): Promise<Transcript> {
    const file = id === "--last" ? await this.latest() : await checkResumeId(this.fs, this.dir, id);
    let text: string;
    try {
      text = await this.fs.readTextFile(file);
    } catch {
      throw new UsageError(`Cannot resume session "${id}": cannot read ${file}`, { file });
    }
    // Nothing before the last summary compaction is part of the history: it is not parsed.
    const { lines, turnsBefore } = historyLines<Line>(text);
    const meta = lines.find((l) => l.type === "session_meta");
    if (!meta || meta.type !== "session_meta") {
      throw new UsageError(`Cannot resume session "${id}": ${file} has no session header`, { file });
    }
    const { items, turns } = rebuildHistory(lines);
    const transcript = new Transcript(this.fs, file, meta.meta, items, turnsBefore + turns);
    // A line cut short (kill -9) stays as it is; the next line must not be glued onto it.
    transcript.tornTail = text.length > 0 && !text.endsWith("\n");
    await transcript.closeDanglingCalls();
    return transcript;
  }

  private async latest(): Promise<string> {
    let best: { file: string; mtime: number } | null = null;
    for (const entry of await this.fs.readDir(this.dir).catch(() => [])) {
      if (!entry.name.endsWith(".jsonl") || !entry.isFile) continue;
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
    /** Turns recorded so far (the `turn` lines): what numbers the next turn's id. */
    readonly recordedTurns = 0,
  ) {}

  /** A new thread's folder and header, written with its first line (TranscriptStore.create). */
  unwritten: { dir: string; meta: SessionMeta } | null = null;

  // One handle for the whole thread: each line is still written (and awaited) as its item exists,
  // without an open/close pair per line.
  private handle: Promise<AppendHandle> | null = null;

  /** The file ends in a line cut short: the next line starts on a line of its own. */
  tornTail = false;

  async append(line: Line): Promise<void> {
    if (this.file === null) return;
    let text = JSON.stringify(line) + "\n";
    if (this.unwritten) {
      // Blocking, like the line writes: one call on the way to the first request.
      this.fs.sync.mkdir(this.unwritten.dir);
      text = JSON.stringify({ type: "session_meta", meta: this.unwritten.meta }) + "\n" + text;
      this.unwritten = null;
    }
    this.handle ??= this.fs.openAppend(this.file);
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

  /** The turn's end, with what it consumed (per turn, as `turn.completed` reports it). */
  async recordTurn(turnId: string, status: string, usage?: Usage): Promise<void> {
    await this.append({
      type: "turn",
      turn_id: turnId,
      status,
      ...(usage ? { usage: eventUsage(usage) } : {}),
    });
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
