import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { digestEntries, hashFile, type TreeWalk, walkTree } from "./content_digest.ts";

export interface CopiedTree {
  digest: string;
  files: number;
  /** Symlinks and special files left out of the copy (relative paths). */
  skipped: string[];
}

/**
 * Copies regular files and directories only (a symlink in a bundle could point anywhere, so it is
 * never copied nor followed) and computes the content digest of what landed, from the copy itself.
 */
export async function copyTree(fs: FileSystem, from: string, to: string): Promise<CopiedTree> {
  const walk: TreeWalk = await walkTree(fs, from, { hash: false });
  await fs.mkdir(to);
  const dirs = walk.entries.filter((e) => e.kind === "dir").sort((a, b) => a.path.length - b.path.length);
  for (const dir of dirs) await fs.mkdir(path.join(to, dir.path));
  const files = walk.entries.filter((e) => e.kind === "file");
  for (let i = 0; i < files.length; i += 32) {
    await Promise.all(
      files.slice(i, i + 32).map(async (entry) => {
        const target = path.join(to, entry.path);
        await fs.copyFile(path.join(from, entry.path), target);
        entry.sha256 = await hashFile(fs, target);
      }),
    );
  }
  return { digest: digestEntries(walk.entries), files: files.length, skipped: walk.skipped };
}
