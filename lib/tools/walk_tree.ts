import * as nodePath from "node:path";
import type { FileSystem } from "../platform/mod.ts";

export interface TreeEntry {
  /** Relative to the walk's root, `/`-separated. */
  relative: string;
  path: string;
  depth: number;
  isDirectory: boolean;
  /** A regular file: the only kind a search opens (a FIFO or device would block or never end). */
  isFile: boolean;
  isSymlink: boolean;
}

export interface WalkOptions {
  maxDepth?: number;
  /** Stop after this many entries; `truncated` tells the caller. */
  maxEntries?: number;
  /** Directory names never entered (default: `.git`). */
  skipDirs?: string[];
  /** Aborting stops the walk before the next directory; `aborted` tells the caller. */
  signal?: AbortSignal;
}

/**
 * Breadth-first, name-sorted listing under `root`. Symlinks are listed but never followed, so a walk
 * cannot leave the checked root or loop.
 */
export async function walkTree(
  fs: FileSystem,
  root: string,
  options: WalkOptions = {},
): Promise<{ entries: TreeEntry[]; truncated: boolean; aborted?: boolean }> {
  const maxDepth = options.maxDepth ?? Infinity;
  const maxEntries = options.maxEntries ?? 10_000;
  const skip = new Set(options.skipDirs ?? [".git"]);
  const entries: TreeEntry[] = [];
  let queue: { dir: string; relative: string }[] = [{ dir: root, relative: "" }];
  for (let depth = 1; queue.length > 0 && depth <= maxDepth; depth++) {
    const next: typeof queue = [];
    for (const { dir, relative } of queue) {
      if (options.signal?.aborted) return { entries, truncated: true, aborted: true };
      let children;
      try {
        children = await fs.readDir(dir);
      } catch {
        continue; // unreadable directory: list what can be listed
      }
      children.sort((a, b) => compareTreePaths(a.name, b.name));
      for (const child of children) {
        if (entries.length >= maxEntries) return { entries, truncated: true };
        const entry = {
          relative: relative ? `${relative}/${child.name}` : child.name,
          path: nodePath.join(dir, child.name),
          depth,
          isDirectory: child.isDirectory,
          isFile: child.isFile,
          isSymlink: child.isSymlink,
        };
        entries.push(entry);
        if (child.isDirectory && !child.isSymlink && !skip.has(child.name)) {
          next.push({ dir: entry.path, relative: entry.relative });
        }
      }
    }
    queue = next;
  }
  return { entries, truncated: false };
}

/** Orders relative paths as a tree (parents before children) by code point, independent of locale. */
export function compareTreePaths(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i] < right[i] ? -1 : 1;
  }
  return left.length - right.length;
}
