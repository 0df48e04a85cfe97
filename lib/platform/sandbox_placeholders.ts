import {
  closeSync,
  existsSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import * as nodePath from "node:path";
import process from "node:process";
import { digestHex } from "./digest.ts";

/**
 * bubblewrap needs a mount point to keep a missing protected name (`.mcp.json`) from being created, so
 * it creates an empty file there, in the user's workspace, for as long as the sandbox runs. The file
 * is removed when the last sandbox using it ends — in this process (a count) and in any other Trellis
 * process (a marker file named after its pid, in a directory per placeholder under `$TRELLIS_HOME`,
 * which no sandbox can write). Removing it earlier would detach the mount in a sandbox that is
 * still running.
 *
 * Trellis makes the empty file itself, just before the sandbox starts, and marks it with a fixed
 * mtime (`PLACEHOLDER_MTIME`, 2000-01-01T00:00:06Z: cheaper than a record beside the markers, one
 * syscall per placeholder): any write changes the mtime, and a file made in its place has its own.
 * A run killed with SIGKILL leaves its pid marker behind; the next start (the session's, and every
 * process's first sandbox) removes the placeholders whose markers all name dead processes — only
 * an empty regular file still carrying that mtime: a file of the same name the user made, or wrote
 * to, is theirs (#20 item 15: an empty `sub/.git` left behind broke git there).
 */

interface Lease {
  placeholders: string[];
  markerDir: string;
}

const leases = new WeakMap<readonly string[], Lease>();
const users = new Map<string, number>();

/** Remembers which placeholders the sandbox argv `argv` creates (called by the profile builder). */
export function registerPlaceholders(
  argv: readonly string[],
  placeholders: string[],
  markerDir: string,
): void {
  if (placeholders.length > 0) leases.set(argv, { placeholders, markerDir });
}

/**
 * Marks the placeholders of a sandbox argv in use until the returned function is called, after the
 * process has ended. `runCommand` does this for every command it runs; a caller that spawns a
 * sandbox argv by other means must do it too.
 */
export function holdSandboxMounts(argv: readonly string[]): () => void {
  const lease = leases.get(argv);
  if (!lease) return () => {};
  for (const path of lease.placeholders) acquire(path, lease.markerDir);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const path of lease.placeholders) release(path, lease.markerDir);
  };
}

const markerNames = new Map<string, string>();

/** A stable short directory name per placeholder (its path itself is written inside, for people). */
function markerDirFor(markerDir: string, path: string): string {
  let name = markerNames.get(path);
  if (!name) markerNames.set(path, name = digestHex("sha1", path).slice(0, 16));
  return nodePath.join(markerDir, name);
}

const madeRoots = new Set<string>();
/** Marker directories known to exist (an mkdir that fails with EEXIST costs an exception each call). */
const madeDirs = new Set<string>();
/** A sweep's bounds (a few milliseconds each removal): leftovers go over several processes' starts. */
const SWEEP_LOOKS = 256;
const SWEEP_REMOVALS = 16;

function acquire(path: string, markerDir: string): void {
  const count = users.get(path) ?? 0;
  users.set(path, count + 1);
  if (count > 0) return;
  const dir = markerDirFor(markerDir, path);
  try {
    if (!madeRoots.has(markerDir)) {
      mkdirSync(markerDir, { recursive: true, mode: 0o700 });
      madeRoots.add(markerDir);
      sweepStale(markerDir);
    }
    if (!madeDirs.has(dir) && mkdirQuietly(dir)) {
      writeFileSync(nodePath.join(dir, "path"), path, { mode: 0o600 });
    }
    madeDirs.add(dir);
    closeSync(openSync(nodePath.join(dir, String(process.pid)), "w", 0o600));
    makePlaceholder(path);
  } catch {
    // No marker this time (its directory went away: made again next time). Another process may
    // then remove the placeholder early, detaching this one mount; the others still hold.
    madeRoots.delete(markerDir);
    madeDirs.delete(dir);
  }
}

/** The mark of a placeholder Trellis made: its mtime, in seconds (an even one, for coarse clocks). */
const PLACEHOLDER_MTIME = 946_684_806;

/**
 * Creates the placeholder (bwrap would, as the mount point) with its mark; one that is there
 * already was made by a sandbox still running, or left by a killed one, and is left as it is.
 */
function makePlaceholder(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o644);
  } catch {
    return; // there already (or not makeable: bwrap reports that itself)
  }
  try {
    futimesSync(fd, PLACEHOLDER_MTIME, PLACEHOLDER_MTIME);
  } finally {
    closeSync(fd);
  }
}

/** True when this call made the directory (false: it was there). */
function mkdirQuietly(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: 0o700 });
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") return false;
    throw error;
  }
}

function release(path: string, markerDir: string): void {
  const count = (users.get(path) ?? 1) - 1;
  if (count > 0) {
    users.set(path, count);
    return;
  }
  users.delete(path);
  const dir = markerDirFor(markerDir, path);
  quietly(() => unlinkSync(nodePath.join(dir, String(process.pid))));
  // The directory and its `path` stay (an rmdir costs milliseconds here): a few bytes per name.
  if (!otherUsers(dir)) removeIfPlaceholder(path);
}

/** Whether a live process other than this one still holds a marker; stale markers are removed. */
function otherUsers(dir: string): boolean {
  return markers(dir).live;
}

/** The live pid markers in `dir` and how many stale ones (a killed process's) were removed. */
function markers(dir: string): { live: boolean; stale: number } {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { live: false, stale: 0 };
  }
  let live = false;
  let stale = 0;
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    if (existsSync(`/proc/${name}`)) live = true;
    else {
      stale++;
      quietly(() => unlinkSync(nodePath.join(dir, name)));
    }
  }
  return { live, stale };
}

/**
 * Once per process (and at a session's start): placeholders that killed runs left behind — every
 * marker names a dead process — are removed, if still the file Trellis made. Marker directories stay
 * after use (an rmdir costs milliseconds here), so those of placeholders whose directory is gone (a
 * deleted workspace or temp dir) and that no one holds are removed too: the markers grow with the
 * workspaces in use, not with every one ever sandboxed.
 */
export function sweepStale(markerDir: string): void {
  let names: string[];
  try {
    names = readdirSync(markerDir);
  } catch {
    return;
  }
  let removed = 0;
  for (const name of names.slice(0, SWEEP_LOOKS)) {
    const dir = nodePath.join(markerDir, name);
    quietly(() => {
      const path = readFileSync(nodePath.join(dir, "path"), "utf8");
      const held = markers(dir);
      if (held.live || users.has(path)) return;
      if (held.stale > 0) removeIfPlaceholder(path, { sweep: true });
      if (removed >= SWEEP_REMOVALS || existsSync(nodePath.dirname(path))) return;
      unlinkSync(nodePath.join(dir, "path"));
      rmdirSync(dir);
      madeDirs.delete(dir);
      removed++;
    });
  }
}

/**
 * Only an empty regular file is a placeholder; anything else was made by someone and is kept. A
 * sweep (no sandbox of this run made it) also wants the mark Trellis gave it: a file written to or
 * made anew since carries another mtime.
 */
function removeIfPlaceholder(path: string, options: { sweep?: boolean } = {}): void {
  quietly(() => {
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (!info?.isFile() || info.size !== 0) return;
    if (options.sweep && info.mtimeMs !== PLACEHOLDER_MTIME * 1000) return;
    unlinkSync(path);
  });
}

/**
 * A protected path that exists as an empty file whose marker directory still holds a pid marker is a
 * placeholder a killed process left behind (one that ended normally removed its marker): the builder
 * treats it as one again, so the next sandbox to end removes it.
 */
export function isLeftoverPlaceholder(path: string, markerDir: string): boolean {
  try {
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (!info?.isFile() || info.size !== 0) return false;
    const dir = markerDirFor(markerDir, path);
    if (readFileSync(nodePath.join(dir, "path"), "utf8") !== path) return false;
    return readdirSync(dir).some((name) => /^\d+$/.test(name));
  } catch {
    return false;
  }
}

/**
 * A placeholder standing at `path`: one a killed run left (above), or one carrying Trellis's mark
 * (an empty regular file with `PLACEHOLDER_MTIME`) that a sandbox of another home holds — its
 * marker is in that home, and its release may remove the file before the next sandbox starts.
 */
export function isStandingPlaceholder(path: string, markerDir: string): boolean {
  let info;
  try {
    info = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return false;
  }
  if (!info?.isFile() || info.size !== 0) return false;
  return info.mtimeMs === PLACEHOLDER_MTIME * 1000 || isLeftoverPlaceholder(path, markerDir);
}

function quietly(action: () => void): void {
  try {
    action();
  } catch {
    // already gone, or not ours to remove
  }
}
