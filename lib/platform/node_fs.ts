import * as fsp from "node:fs/promises";
import * as nodePath from "node:path";
import process from "node:process";
import * as nodeFs from "node:fs";
import type { Stats } from "node:fs";
import { settle } from "../shared/mod.ts";
import { createDigest } from "./digest.ts";
import type { DirEntry, FileInfo, FileSystem, SyncFileSystem } from "./platform.ts";
import { bunLockFile } from "./file_lock.ts";
import { fileMode, isPrivatePath, makeDirectory } from "./private_tree.ts";
import { readRegularTextSync } from "./regular_file.ts";

// Both runtimes implement node:fs/promises natively, so one file system serves Deno and Bun.

function toInfo(s: Stats): FileInfo {
  return {
    isFile: s.isFile(),
    isDirectory: s.isDirectory(),
    isSymlink: s.isSymbolicLink(),
    size: s.size,
    mtimeMs: s.mtimeMs,
    mode: s.mode,
    uid: s.uid,
    gid: s.gid,
    ino: Number(s.ino),
  };
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function statOrNull(
  call: (path: string, options: { throwIfNoEntry: false }) => nodeFs.Stats | undefined,
  path: string,
): FileInfo | null {
  try {
    const stats = call(path, { throwIfNoEntry: false });
    return stats ? toInfo(stats) : null;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

// As Node's "utf8": invalid bytes become U+FFFD, a byte-order mark is kept.
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** Files up to this size are read in one blocking call (see readRegularFileSync). */
const BLOCKING_READ_MAX_BYTES = 4 * 1024 * 1024;

/**
 * A regular file of at most BLOCKING_READ_MAX_BYTES, read with blocking calls; null for anything else
 * (a FIFO, a device, a large file), which the caller reads asynchronously. The first asynchronous
 * read of a process starts the runtime's thread pool (~4 ms in the binary), and most reads are small
 * files. Opening non-blocking and checking the descriptor (not the path) means a FIFO can never
 * stall the event loop, even if it replaces the file in between.
 */
function readRegularFileSync(path: string): Uint8Array | null {
  const fd = nodeFs.openSync(path, nodeFs.constants.O_RDONLY | nodeFs.constants.O_NONBLOCK);
  try {
    const info = nodeFs.fstatSync(fd);
    if (!info.isFile() || info.size > BLOCKING_READ_MAX_BYTES) return null;
    return new Uint8Array(nodeFs.readFileSync(fd));
  } finally {
    nodeFs.closeSync(fd);
  }
}

/** Chunk size for streamed hashing: large enough that the per-call cost vanishes, small in memory. */
const DIGEST_CHUNK_BYTES = 1024 * 1024;

let tempCounter = 0;
const encoder = new TextEncoder();

function toDirEntry(e: nodeFs.Dirent): DirEntry {
  return { name: e.name, isFile: e.isFile(), isDirectory: e.isDirectory(), isSymlink: e.isSymbolicLink() };
}

const nodeSyncFileSystem: SyncFileSystem = {
  readFile: (path) => new Uint8Array(nodeFs.readFileSync(path)),
  readTextFile: readRegularTextSync,
  readFilePrefix(path, maxBytes) {
    const fd = nodeFs.openSync(path, "r");
    try {
      const buffer = new Uint8Array(maxBytes);
      return buffer.subarray(0, nodeFs.readSync(fd, buffer, 0, maxBytes, 0));
    } finally {
      nodeFs.closeSync(fd);
    }
  },
  writeFile: (path, data, options = {}) =>
    nodeFs.writeFileSync(path, data, { mode: fileMode(path, options.mode ?? 0o644) }),
  writeFileAtomic(path, data, options = {}) {
    const temp = nodePath.join(
      nodePath.dirname(path),
      `.${nodePath.basename(path)}.tmp-${process.pid}-${Date.now()}-${tempCounter++}`,
    );
    try {
      const mode = fileMode(path, options.mode ?? 0o644)!;
      nodeFs.writeFileSync(temp, data, { flag: "wx", mode });
      // The mode given to open is filtered by the umask; the caller asked for exactly this one.
      nodeFs.chmodSync(temp, mode);
      nodeFs.renameSync(temp, path);
    } catch (error) {
      nodeFs.rmSync(temp, { force: true });
      throw error;
    }
  },
  linkAtomic(existing, path) {
    const temp = nodePath.join(
      nodePath.dirname(path),
      `.${nodePath.basename(path)}.tmp-${process.pid}-${Date.now()}-${tempCounter++}`,
    );
    nodeFs.linkSync(existing, temp);
    try {
      nodeFs.renameSync(temp, path);
    } catch (error) {
      nodeFs.rmSync(temp, { force: true });
      throw error;
    }
  },
  copyFile(from, to, options = {}) {
    nodeFs.copyFileSync(from, to);
    nodeFs.chmodSync(to, fileMode(to, options.mode ?? 0o644)!);
  },
  digestFile(path, algorithm) {
    const digest = createDigest(algorithm);
    const fd = nodeFs.openSync(path, "r");
    try {
      const buffer = new Uint8Array(DIGEST_CHUNK_BYTES);
      for (let n; (n = nodeFs.readSync(fd, buffer, 0, buffer.length, null)) > 0;) {
        digest.update(buffer.subarray(0, n));
      }
      return digest.hex();
    } finally {
      nodeFs.closeSync(fd);
    }
  },
  // No exception for the common "not there" answer: building one costs more than the call.
  lstat: (path) => statOrNull(nodeFs.lstatSync, path),
  exists: (path) => nodeFs.existsSync(path),
  readDir: (path) => nodeFs.readdirSync(path, { withFileTypes: true }).map(toDirEntry),
  mkdir: (path) => makeDirectory(path),
};

export const nodeFileSystem: FileSystem = {
  sync: nodeSyncFileSystem,
  async readTextFile(path) {
    return utf8.decode(await nodeFileSystem.readFile(path));
  },
  async readFile(path) {
    return readRegularFileSync(path) ?? new Uint8Array(await fsp.readFile(path));
  },
  async readFilePrefix(path, maxBytes) {
    const handle = await fsp.open(path, "r");
    try {
      const buffer = new Uint8Array(maxBytes);
      const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  },
  async writeFileAtomic(path, data, options = {}) {
    const dir = nodePath.dirname(path);
    makeDirectory(dir);
    const mode = fileMode(path, options.mode);
    const temp = nodePath.join(
      dir,
      `.${nodePath.basename(path)}.tmp-${process.pid}-${Date.now()}-${tempCounter++}`,
    );
    try {
      const handle = await fsp.open(temp, "wx", mode ?? 0o644);
      try {
        await handle.writeFile(data);
        // The mode given to open is filtered by the umask; the caller asked for exactly this one.
        if (mode !== undefined) await handle.chmod(mode);
        if (options.owner) await handle.chown(options.owner.uid, options.owner.gid);
        if (options.fsync) await handle.sync();
      } finally {
        await handle.close();
      }
      await fsp.rename(temp, path);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
  },
  // Bun's; the Deno platform replaces it with Deno's own flock.
  lockFile: bunLockFile,
  writeTextFile: (path, data) => fsp.writeFile(path, data, { mode: fileMode(path) }),
  writeFile: (path, data, options = {}) =>
    fsp.writeFile(path, data, { mode: fileMode(path, options.mode ?? 0o644) }),
  appendTextFile: (path, data) => fsp.appendFile(path, data, { mode: fileMode(path) }),
  // One blocking write per line: a transcript line is small, and a thread-pool round trip per line
  // cost more than the write (an exec turn writes a handful).
  openAppend: (path) =>
    settle(() => {
      const fd = nodeFs.openSync(path, "a", fileMode(path));
      return {
        append: (data) =>
          settle(() => {
            const bytes = encoder.encode(data);
            // A regular file takes the whole write at once; the loop covers the rare short write.
            for (let done = 0; done < bytes.length;) done += nodeFs.writeSync(fd, bytes, done);
          }),
        close: () => settle(() => nodeFs.closeSync(fd)),
      };
    }),
  // Metadata calls answer from the kernel's caches in microseconds; a thread-pool round trip per
  // call costs ten to fifty times that, and a session's start makes a few dozen of them. They never
  // wait on a file's contents (a FIFO or a device), so the blocking form is safe here.
  stat: (path) => settle(() => statOrNull(nodeFs.statSync, path)),
  lstat: (path) => settle(() => statOrNull(nodeFs.lstatSync, path)),
  realPath: (path) => settle(() => nodeFs.realpathSync(path)),
  async readDir(path) {
    return (await fsp.readdir(path, { withFileTypes: true })).map(toDirEntry);
  },
  // One metadata call per directory: blocking, as stat is (above).
  mkdir: (path) => settle(() => makeDirectory(path)),
  remove: (path, options = {}) => fsp.rm(path, { recursive: options.recursive ?? false, force: true }),
  rename: (from, to) => fsp.rename(from, to),
  copyFile: async (from, to) => {
    await fsp.copyFile(from, to);
    if (isPrivatePath(to)) await fsp.chmod(to, fileMode(to, (await fsp.stat(to)).mode & 0o777)!);
  },
  symlink: (target, path) => fsp.symlink(target, path),
  chmod: (path, mode) => fsp.chmod(path, mode),
  makeTempDir: (prefix = "trellis-", parent) => fsp.mkdtemp(nodePath.join(parent ?? tmpdirOf(), prefix)),
};

function tmpdirOf(): string {
  return process.env.TMPDIR || "/tmp";
}
