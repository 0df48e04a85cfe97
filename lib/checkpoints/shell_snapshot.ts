import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import type { CheckpointStore } from "./checkpoint_store.ts";

interface Seen {
  ino: number;
  size: number;
  mtimeMs: number;
  mode: number;
  blob: string;
}

/** Beyond these a file or a tree is not snapshotted (a build output, a dataset): named instead. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MAX_FILES = 20_000;
/** Version control keeps its own history; node_modules is rebuilt, never hand-edited. */
const SKIPPED = new Set([".git", "node_modules"]);

/**
 * `checkpoints.shell = "snapshot"` (#25 item 2): the writable roots' regular files, each stored
 * once in the content store. A file whose inode, size and mtime are unchanged since the last walk
 * is not read again, so only the first command of a session pays for reading the tree.
 */
export class RootsSnapshot {
  private known = new Map<string, Seen>();

  constructor(private readonly fs: FileSystem, private readonly roots: readonly string[]) {}

  async take(store: CheckpointStore): Promise<Map<string, Seen>> {
    const now = new Map<string, Seen>();
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = this.fs.sync.readDir(dir);
      } catch {
        return;
      }
      for (const entry of entries) {
        if (now.size >= MAX_FILES) return;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory && !entry.isSymlink) {
          if (!SKIPPED.has(entry.name)) await walk(full);
          continue;
        }
        if (!entry.isFile) continue;
        const info = this.fs.sync.lstat(full);
        if (!info?.isFile || info.size > MAX_FILE_BYTES) continue;
        const old = this.known.get(full);
        const same = old && old.ino === (info.ino ?? 0) && old.size === info.size &&
          old.mtimeMs === info.mtimeMs;
        let blob = old?.blob ?? "";
        if (!same) {
          try {
            blob = await store.putBlob(this.fs.sync.readFile(full));
          } catch {
            continue; // unreadable, or gone between the listing and the read
          }
        }
        now.set(full, {
          ino: info.ino ?? 0,
          size: info.size,
          mtimeMs: info.mtimeMs,
          mode: info.mode & 0o7777,
          blob,
        });
      }
    };
    for (const root of new Set(this.roots)) await walk(root);
    this.known = now;
    return now;
  }

  /** The files a command created, changed or removed, with their state before and after. */
  static changes(before: Map<string, Seen>, after: Map<string, Seen>): {
    path: string;
    before: { path: string; blob: string | null; mode: number };
    after: string | null;
  }[] {
    const out = [];
    for (const file of new Set([...before.keys(), ...after.keys()])) {
      const a = before.get(file);
      const b = after.get(file);
      if (a && b && a.blob === b.blob) continue;
      out.push({
        path: file,
        before: { path: file, blob: a?.blob ?? null, mode: a?.mode ?? b?.mode ?? 0o644 },
        after: b?.blob ?? null,
      });
    }
    return out.sort((x, y) => (x.path < y.path ? -1 : 1));
  }
}
