import * as path from "node:path";
import {
  applyRewind,
  checkpointDir,
  type CheckpointRecord,
  CheckpointStore,
  planRewind,
  type RewindOutcome,
} from "../checkpoints/mod.ts";
import { checkResumeId, transcriptTurns, truncateTranscript } from "../loop/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import { isTypedPrompt } from "./session_listing.ts";

/** One turn as `/rewind` lists it and `--to N` names it. */
export interface RewindPoint {
  /** Its number, from 1. */
  turn: number;
  /** The prompt typed for it ("" when none was: a turn a hook or a skill started). */
  prompt: string;
  /** Files the file tools (or a snapshotted shell command) changed in it. */
  files: string[];
  /** Shell commands of it whose changes cannot be put back. */
  shellCommands: string[];
}

/** What `rewindSession()` is asked: `trellis rewind`'s flags, for a recorded session. */
export interface RewindRequest {
  /** The file system the session and the files are on. */
  fs: FileSystem;
  /** `$TRELLIS_HOME`. */
  home: string;
  /** The session to rewind. */
  sessionId: string;
  /** Back to the state before this turn (from 1). */
  to: number;
  /** Put files back (default true). */
  files?: boolean;
  /** Cut the conversation to before turn `to`, so `resume` continues from there (default false). */
  conversation?: boolean;
  /** Also put back files edited since the agent left them (default: kept, and named). */
  force?: boolean;
  /** Only say what would happen. */
  dryRun?: boolean;
}

/** What a rewind did: the files put back, kept and failed, and whether the conversation was cut. */
export interface SessionRewindOutcome extends RewindOutcome {
  /** The session rewound. */
  sessionId: string;
  /** Files were asked to be put back. */
  files: boolean;
  /** The conversation was cut to before turn `to`; the transcript as it was is kept at `savedTranscript`. */
  conversation: boolean;
  /** Where the transcript as it was before the cut is kept. */
  savedTranscript?: string;
  /** Nothing was written: the outcome says what would have happened. */
  dryRun: boolean;
}

/** The turns of a recorded session, with what each changed: the `/rewind` picker's rows. */
export async function rewindPoints(fs: FileSystem, home: string, sessionId: string): Promise<RewindPoint[]> {
  const file = await checkResumeId(fs, path.join(home, "sessions"), sessionId).catch((error) => {
    throw rewindError(sessionId, error);
  });
  const turns = transcriptTurns(await fs.readTextFile(file));
  const records = await new CheckpointStore(fs, checkpointDir(home, sessionId)).records();
  return turns.map((t) => ({
    turn: t.turn,
    prompt: t.userMessages.find(isTypedPrompt) ?? "",
    files: [...new Set(records.flatMap((r) => r.kind === "before" && r.turn === t.turn ? [r.path] : []))],
    shellCommands: records.flatMap((r) =>
      r.kind === "shell" && !r.snapshot && r.turn === t.turn ? [r.command] : []
    ),
  }));
}

/**
 * `trellis rewind` / `/rewind` / the ACP front end's rewind (#25 item 2): files back to their state
 * before turn `to`, and with `conversation` the transcript cut to before it. Files first: a missing or
 * corrupt checkpoint stops everything before any file or the transcript is touched. Files edited
 * since the agent left them are kept (and named) unless `force`.
 */
export async function rewindSession(request: RewindRequest): Promise<SessionRewindOutcome> {
  const { fs, home, sessionId, to } = request;
  const points = await rewindPoints(fs, home, sessionId);
  if (!Number.isInteger(to) || to < 1 || to > points.length) {
    const range = points.length === 0 ? "it has no turns yet" : `its turns are 1 to ${points.length}`;
    throw new UsageError(`Cannot rewind session "${sessionId}" to turn ${to}: ${range}`, { field: "to" });
  }
  const store = new CheckpointStore(fs, checkpointDir(home, sessionId));
  try {
    const records = await store.records();
    const plan = planRewind(fs, records, to);
    const wantFiles = request.files !== false;
    const empty = { ...plan, restore: [], editedSince: [], restored: [], kept: [], failed: [] };
    const base = {
      sessionId,
      files: wantFiles,
      conversation: request.conversation === true,
      dryRun: request.dryRun === true,
    };
    if (request.dryRun) {
      return {
        ...base,
        ...(wantFiles ? { ...plan, restored: [], failed: [], kept: plan.editedSince } : empty),
      };
    }
    const outcome = wantFiles ? await applyRewind(fs, store, plan, { force: request.force }) : empty;
    // A file that could not be put back keeps the conversation too: run again once it can be.
    if (!request.conversation || outcome.failed.length) return { ...base, ...outcome, conversation: false };
    const transcript = path.join(home, "sessions", `${sessionId}.jsonl`);
    const saved = path.join(store.dir, `transcript-before-rewind-${Date.now()}.jsonl`);
    const old = await fs.readTextFile(transcript);
    // The whole conversation is kept beside the checkpoints first: a cut never loses it.
    await fs.writeFileAtomic(saved, old, { mode: 0o600 });
    await truncateTranscript(fs, transcript, to);
    await store.rewrite(await recordsBefore(fs, await store.records(), to));
    return { ...base, ...outcome, savedTranscript: saved };
  } finally {
    await store.close();
  }
}

/**
 * The log once turns `to`… are gone from the conversation: their records dropped (the next turn
 * `to` records afresh), and for each file they touched what is there now noted as left, so a later
 * rewind does not mistake the files kept for your edits.
 */
function recordsBefore(fs: FileSystem, records: CheckpointRecord[], to: number): CheckpointRecord[] {
  const kept = records.filter((r) => r.turn < to);
  const dropped = new Set(records.flatMap((r) => r.turn >= to && r.kind !== "shell" ? [r.path] : []));
  for (const file of dropped) {
    const info = fs.sync.lstat(file);
    const hash = !info ? null : info.isFile ? fs.sync.digestFile(file, "sha256") : "special";
    kept.push({ kind: "after", turn: to - 1, path: file, hash, by: "rewind" });
  }
  return kept;
}

function rewindError(sessionId: string, error: unknown): unknown {
  if (!(error instanceof UsageError)) return error;
  return new UsageError(error.message.replace(/^Cannot resume session/, "Cannot rewind session"), {
    ...error.data,
    session: sessionId,
  });
}
