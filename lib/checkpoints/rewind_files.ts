import { digestHex, type FileSystem } from "../platform/mod.ts";
import type { CheckpointStore } from "./checkpoint_store.ts";
import type { CheckpointRecord } from "./records.ts";

/** One file a rewind puts back: to its content before the turn (`blob`), or removed (null). */
export interface FileRestore {
  /** The file's real path. */
  path: string;
  /** The store's blob (its sha256) of the content to put back; null: the file is removed. */
  blob: string | null;
  /** The mode it is written with. */
  mode: number;
  /** The turn whose first change of it is undone. */
  turn: number;
}

/** What a rewind to before turn `to` would do, and what it cannot do. */
export interface RewindPlan {
  /** Back to the state before this turn (from 1). */
  to: number;
  /** Files to put back (their content differs from the checkpoint's now). */
  restore: FileRestore[];
  /**
   * Files changed since the agent (or a rewind) left them — by you, an editor, another program:
   * kept as they are unless `force`.
   */
  editedSince: string[];
  /** Shell commands of those turns whose changes are not restorable (no `checkpoints.shell = "snapshot"`). */
  shellCommands: { turn: number; command: string; cwd: string }[];
}

/** What a rewind did: the plan, and which files were put back, kept or could not be written. */
export interface RewindOutcome extends RewindPlan {
  /** Paths written back or removed. */
  restored: string[];
  /** Paths that could not be put back (each left exactly as it was), with why. */
  failed: { path: string; reason: string }[];
  /** Of `editedSince`, those left as they are (all of them unless forced). */
  kept: string[];
}

const WHOLE_READ_BYTES = 8 * 1024 * 1024;

/** The digest of what is at `path` now (null: nothing; "special": not a regular file). */
function currentHash(fs: FileSystem, path: string): string | null {
  const info = fs.sync.lstat(path);
  if (!info) return null;
  if (!info.isFile) return "special";
  // Read whole when small (one read, one hash); in chunks past that, so memory stays bounded.
  return info.size <= WHOLE_READ_BYTES
    ? digestHex("sha256", fs.sync.readFile(path))
    : fs.sync.digestFile(path, "sha256");
}

/** Whether `path` is as the agent or a rewind left it (`now`: its digest now). */
function stillAsLeft(
  fs: FileSystem,
  left: CheckpointRecord & { kind: "after" },
  now: string | null,
): boolean {
  if (!left.stat) return (left.hash ?? null) === now;
  const info = fs.sync.lstat(left.path);
  return Boolean(
    info?.isFile && (info.ino ?? 0) === left.stat.ino && info.size === left.stat.size &&
      info.mtimeMs === left.stat.mtimeMs,
  );
}

/**
 * Files back to their state before turn `to`: for each file a turn ≥ `to` changed, the state before
 * the first of those changes. A file whose bytes differ from what was last left there was edited
 * since: named, and kept unless `force`.
 */
export function planRewind(fs: FileSystem, records: readonly CheckpointRecord[], to: number): RewindPlan {
  const target = new Map<string, FileRestore>();
  const left = new Map<string, CheckpointRecord & { kind: "after" }>();
  const shellCommands: RewindPlan["shellCommands"] = [];
  for (const record of records) {
    if (record.kind === "after") left.set(record.path, record);
    if (record.turn < to) continue;
    if (record.kind === "before" && !target.has(record.path)) {
      target.set(record.path, { path: record.path, blob: record.blob, mode: record.mode, turn: record.turn });
    }
    if (record.kind === "shell" && !record.snapshot) {
      shellCommands.push({ turn: record.turn, command: record.command, cwd: record.cwd });
    }
  }
  const restore: FileRestore[] = [];
  const editedSince: string[] = [];
  for (const entry of target.values()) {
    const now = currentHash(fs, entry.path);
    if (now === entry.blob) continue; // already as it was
    const last = left.get(entry.path);
    if (last && !stillAsLeft(fs, last, now)) editedSince.push(entry.path);
    restore.push(entry);
  }
  return { to, restore, editedSince, shellCommands };
}

/**
 * Carries out a plan. Every blob is read and checked first, so a missing or corrupt one stops the
 * rewind before any file is touched; each file is then written to a temp file and renamed over
 * (never half-written), and what the rewind left is recorded, so the next rewind knows it.
 */
export async function applyRewind(
  fs: FileSystem,
  store: CheckpointStore,
  plan: RewindPlan,
  options: { force?: boolean } = {},
): Promise<RewindOutcome> {
  const edited = new Set(plan.editedSince);
  const chosen = plan.restore.filter((r) => options.force || !edited.has(r.path));
  // Every blob read and checked before any file is written: a bad one stops the whole rewind.
  const contents = new Map<string, Uint8Array>();
  await Promise.all(chosen.map(async (entry) => {
    if (entry.blob !== null) contents.set(entry.path, await store.readBlob(entry.blob, entry.path));
  }));
  const restored: string[] = [];
  const failed: RewindOutcome["failed"] = [];
  const left: CheckpointRecord[] = [];
  const restoreOne = async (entry: FileRestore) => {
    const data = contents.get(entry.path);
    try {
      if (data) {
        // A temp file renamed over: an interrupted rewind leaves each file old or new, never half.
        fs.sync.writeFileAtomic(entry.path, data, { mode: entry.mode });
      } else {
        const info = fs.sync.lstat(entry.path);
        if (info?.isDirectory) {
          failed.push({ path: entry.path, reason: "a directory is there now" });
          return;
        }
        if (info) await fs.remove(entry.path);
      }
    } catch (error) {
      // One file that cannot be written (a directory in its place, a full disk) stops only itself.
      failed.push({ path: entry.path, reason: (error as { code?: string }).code ?? String(error) });
      return;
    }
    restored.push(entry.path);
    left.push({
      kind: "after",
      turn: plan.to - 1,
      path: entry.path,
      hash: entry.blob, // the blob's name is its digest, checked when it was read
      by: "rewind",
    });
  };
  // Blocking writes, one after another: a 10 KB file costs less than a thread-pool round trip.
  for (const entry of chosen) await restoreOne(entry);
  await store.append(...left);
  return {
    ...plan,
    restored,
    failed,
    kept: options.force ? [] : plan.editedSince,
  };
}
