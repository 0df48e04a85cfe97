import * as path from "node:path";
import { digestHex, type FileSystem } from "../platform/mod.ts";

/**
 * Content digest of a plugin bundle: sha256 over the sorted file tree (relative path, kind,
 * executable bit, per-file sha256). Version strings can lie; this cannot, so `update` and `verify`
 * compare digests.
 */

/** The install record lives inside the version dir but is not part of the content it describes. */
export const INSTALL_RECORD_FILE = ".trellis-install.json";

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

export function sha256Hex(bytes: Uint8Array): string {
  return digestHex("sha256", bytes);
}

export async function hashFile(fs: FileSystem, file: string): Promise<string> {
  return sha256Hex(await fs.readFile(file));
}

/** Lists a tree without following symlinks; each dir's entries are visited in parallel batches. */
export async function walkTree(
  fs: FileSystem,
  root: string,
  options: { hash?: boolean } = {},
): Promise<TreeWalk> {
  const entries: TreeEntry[] = [];
  const skipped: string[] = [];
  const visit = async (rel: string): Promise<void> => {
    const dir = rel ? path.join(root, rel) : root;
    const children = await fs.readDir(dir);
    await inBatches(children, 32, async (child) => {
      const childRel = rel ? `${rel}/${child.name}` : child.name;
      if (!rel && child.name === INSTALL_RECORD_FILE) return;
      if (child.isSymlink || (!child.isFile && !child.isDirectory)) {
        skipped.push(childRel);
      } else if (child.isDirectory) {
        entries.push({ path: childRel, kind: "dir", executable: false });
        await visit(childRel);
      } else {
        const full = path.join(root, childRel);
        const info = await fs.lstat(full);
        const entry: TreeEntry = {
          path: childRel,
          kind: "file",
          executable: ((info?.mode ?? 0) & 0o111) !== 0,
        };
        if (options.hash !== false) entry.sha256 = await hashFile(fs, full);
        entries.push(entry);
      }
    });
  };
  await visit("");
  return { entries, skipped: skipped.sort() };
}

export async function digestTree(
  fs: FileSystem,
  root: string,
): Promise<{ digest: string; skipped: string[] }> {
  const walk = await walkTree(fs, root);
  return { digest: digestEntries(walk.entries), skipped: walk.skipped };
}

export async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}
