import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { digestEntries, INSTALL_RECORD_FILE, sha256Hex, type TreeEntry } from "./content_digest.ts";

export interface CopiedTree {
  digest: string;
  files: number;
  /** Symlinks and special files left out of the copy (relative paths). */
  skipped: string[];
}

/**
 * Copies regular files and directories only (a symlink in a bundle could point anywhere, so it is
 * never copied nor followed) and computes the content digest of the bytes it writes.
 *
 * One blocking pass: a bundle is thousands of small files, where a promise per call costs more
 * than the call, and each file is read once so the bytes hashed are exactly the bytes written.
 */
export function copyTree(fs: FileSystem, from: string, to: string): Promise<CopiedTree> {
  const sync = fs.sync;
  const entries: TreeEntry[] = [];
  const skipped: string[] = [];
  const visit = (rel: string): void => {
    for (const child of sync.readDir(rel ? path.join(from, rel) : from)) {
      const childRel = rel ? `${rel}/${child.name}` : child.name;
      if (!rel && child.name === INSTALL_RECORD_FILE) continue;
      if (child.isDirectory) {
        entries.push({ path: childRel, kind: "dir", executable: false });
        sync.mkdir(path.join(to, childRel));
        visit(childRel);
        continue;
      }
      const source = path.join(from, childRel);
      // lstat, not the directory entry alone: a file swapped for a symlink meanwhile is still skipped.
      const info = child.isFile ? sync.lstat(source) : null;
      if (!info?.isFile) {
        skipped.push(childRel);
        continue;
      }
      const executable = (info.mode & 0o111) !== 0;
      const bytes = sync.readFile(source);
      entries.push({ path: childRel, kind: "file", executable, sha256: sha256Hex(bytes) });
      sync.writeFile(path.join(to, childRel), bytes, { mode: executable ? 0o755 : 0o644 });
    }
  };
  try {
    sync.mkdir(to);
    visit("");
  } catch (error) {
    return Promise.reject(error);
  }
  const files = entries.filter((e) => e.kind === "file").length;
  return Promise.resolve({ digest: digestEntries(entries), files, skipped: skipped.sort() });
}
