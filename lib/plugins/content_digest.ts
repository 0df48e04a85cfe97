import * as path from "node:path";
import { digestHex, type FileSystem } from "../platform/mod.ts";
import { settle } from "../shared/mod.ts";

/**
 * Content digest of a plugin bundle: sha256 over the sorted file tree (relative path, kind,
 * executable bit, per-file sha256). Version strings can lie; this cannot, so `update` and `verify`
 * compare digests.
 */

/** Files up to this size are read whole (one call); larger ones are hashed in chunks. */
export const WHOLE_READ_MAX_BYTES = 1024 * 1024;

export interface TreeEntry {
  /** POSIX-style path relative to the tree root. */
  path: string;
  kind: "dir" | "file";
  executable: boolean;
  sha256?: string;
}

export interface TreeWalk {
  entries: TreeEntry[];
  /** Symlinks and special files, never followed nor copied (relative paths). */
  skipped: string[];
}

export function digestEntries(entries: TreeEntry[]): string {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const lines = sorted.map((e) => `${e.kind} ${e.executable ? "x" : "-"} ${e.sha256 ?? ""} ${e.path}\n`);
  return `sha256:${digestHex("sha256", lines.join(""))}`;
}

/**
 * Visits a tree in one blocking pass (a bundle is thousands of small files, where a promise per call
 * costs more than the call): directories before their children, symlinks and special files never
 * followed (listed in `skipped`). Every file counts: the install record lives outside the bundle
 * (under `plugins/records/`), so nothing inside can be left out unseen. `onFile` receives each
 * regular file and returns its sha256, so a caller that also copies hashes the bytes it writes.
 */
export function visitTree(
  fs: FileSystem,
  root: string,
  visitors: {
    onDir?(rel: string): void;
    onFile(rel: string, full: string, executable: boolean, size: number): string;
  },
): TreeWalk {
  const sync = fs.sync;
  const entries: TreeEntry[] = [];
  const skipped: string[] = [];
  const visit = (rel: string): void => {
    for (const child of sync.readDir(rel ? path.join(root, rel) : root)) {
      const childRel = rel ? `${rel}/${child.name}` : child.name;
      if (child.isDirectory) {
        entries.push({ path: childRel, kind: "dir", executable: false });
        visitors.onDir?.(childRel);
        visit(childRel);
        continue;
      }
      const full = path.join(root, childRel);
      // lstat, not the directory entry alone: a file swapped for a symlink meanwhile is still skipped.
      const info = child.isFile ? sync.lstat(full) : null;
      if (!info?.isFile) {
        skipped.push(childRel);
        continue;
      }
      const executable = (info.mode & 0o111) !== 0;
      entries.push({
        path: childRel,
        kind: "file",
        executable,
        sha256: visitors.onFile(childRel, full, executable, info.size),
      });
    }
  };
  visit("");
  return { entries, skipped: skipped.sort() };
}

export function digestTree(fs: FileSystem, root: string): Promise<{ digest: string; skipped: string[] }> {
  return settle(() => {
    const walk = visitTree(fs, root, {
      onFile: (_rel, full, _x, size) =>
        size > WHOLE_READ_MAX_BYTES
          ? fs.sync.digestFile(full, "sha256")
          : digestHex("sha256", fs.sync.readFile(full)),
    });
    return { digest: digestEntries(walk.entries), skipped: walk.skipped };
  });
}
