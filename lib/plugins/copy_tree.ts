import * as path from "node:path";
import { digestHex, type FileSystem } from "../platform/mod.ts";
import { settle } from "../shared/mod.ts";
import { digestEntries, visitTree } from "./content_digest.ts";

export interface CopiedTree {
  digest: string;
  files: number;
  /** Symlinks and special files left out of the copy (relative paths). */
  skipped: string[];
}

/**
 * Copies regular files and directories only (a symlink in a bundle could point anywhere, so it is
 * never copied nor followed) and computes the content digest of the bytes it writes: each file is
 * read once, so the bytes hashed are exactly the bytes written.
 */
export function copyTree(fs: FileSystem, from: string, to: string): Promise<CopiedTree> {
  const sync = fs.sync;
  return settle(() => {
    sync.mkdir(to);
    const walk = visitTree(fs, from, {
      onDir: (rel) => sync.mkdir(path.join(to, rel)),
      onFile(rel, full, executable) {
        const bytes = sync.readFile(full);
        sync.writeFile(path.join(to, rel), bytes, { mode: executable ? 0o755 : 0o644 });
        return digestHex("sha256", bytes);
      },
    });
    const files = walk.entries.filter((e) => e.kind === "file").length;
    return { digest: digestEntries(walk.entries), files, skipped: walk.skipped };
  });
}
