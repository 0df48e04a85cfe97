import * as path from "node:path";
import { digestHex, type FileSystem } from "../platform/mod.ts";
import { settle, UsageError } from "../shared/mod.ts";
import { digestEntries, visitTree, WHOLE_READ_MAX_BYTES } from "./content_digest.ts";

export interface CopiedTree {
  digest: string;
  files: number;
  /** Bytes of regular files copied. */
  bytes: number;
  /** Symlinks and special files left out of the copy (relative paths). */
  skipped: string[];
}

/**
 * Copies regular files and directories only (a symlink in a bundle could point anywhere, so it is
 * never copied nor followed) and computes the content digest of what it writes. A small file is read
 * once and the bytes hashed are the bytes written; a large one is copied by the kernel and its copy
 * hashed in chunks, so memory stays bounded whatever the bundle holds. A bundle over `maxBytes` is
 * refused at the file that takes it over, before that file is read (#13: a 3 GB file once cost 6 GB).
 */
export function copyTree(
  fs: FileSystem,
  from: string,
  to: string,
  options: { maxBytes: number; label: string },
): Promise<CopiedTree> {
  const sync = fs.sync;
  return settle(() => {
    sync.mkdir(to);
    let bytes = 0;
    const walk = visitTree(fs, from, {
      onDir: (rel) => sync.mkdir(path.join(to, rel)),
      onFile(rel, full, executable, size) {
        bytes += size;
        if (bytes > options.maxBytes) throw overLimit(options.label, rel, size, options.maxBytes);
        const mode = executable ? 0o755 : 0o644;
        const target = path.join(to, rel);
        if (size > WHOLE_READ_MAX_BYTES) {
          sync.copyFile(full, target, { mode });
          return sync.digestFile(target, "sha256");
        }
        const data = sync.readFile(full);
        sync.writeFile(target, data, { mode });
        return digestHex("sha256", data);
      },
    });
    const files = walk.entries.filter((e) => e.kind === "file").length;
    return { digest: digestEntries(walk.entries), files, bytes, skipped: walk.skipped };
  });
}

function overLimit(label: string, rel: string, size: number, max: number): UsageError {
  return new UsageError(
    `Cannot install "${label}": ./${rel} (${formatBytes(size)}) takes the bundle over the ${
      formatBytes(max)
    } size limit`,
    { plugin: label, file: rel },
  );
}

export function formatBytes(n: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) (n /= 1024, i++);
  return i === 0 ? `${n} bytes` : `${Number.isInteger(n) ? n : n.toFixed(1)} ${units[i]}`;
}
