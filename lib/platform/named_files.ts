import * as nodeFs from "node:fs";
import * as nodePath from "node:path";
import { commandPathWords } from "../shared/mod.ts";
import { createDigest, digestHex } from "./digest.ts";

/**
 * The content of the files a command names (#20 item 7), as a trust or an approval records it: a
 * trusted hook or an "always" approval covers these bytes, and a file rewritten, made executable,
 * planted where a named path was missing, or swapped for a FIFO reads differently here.
 */
export interface NamedFile {
  /** Absolute path as named (symlinks are followed for the content, not resolved in the name). */
  path: string;
  /**
   * `x sha256:<hex>` / `- sha256:<hex>` (executable bit, content) for a file; `missing` for a path-like
   * word naming nothing yet; `special <kind>` for a FIFO, socket or device (never opened).
   */
  state: string;
}

export interface NamedFilesOptions {
  /** What relative words are resolved against (the command's working directory). */
  cwd: string;
  /** Only files under these directories count: the ones someone else (a model, a repository) can write. */
  roots: string[];
  /** `$NAME` values known ahead of the run (CLAUDE_PROJECT_DIR, CLAUDE_PLUGIN_ROOT, HOME, …). */
  vars?: Record<string, string>;
}

/** Files above this size are hashed in chunks, never held whole. */
const WHOLE_READ_MAX_BYTES = 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;
// Non-blocking so a FIFO opens at once; its type is then read from the descriptor and it is never read.
const OPEN_FLAGS = nodeFs.constants.O_RDONLY | nodeFs.constants.O_NONBLOCK | nodeFs.constants.O_NOCTTY;

/** The files `command` names under `roots`, sorted by path; directories and unnamed files are left out. */
export function namedFiles(command: string, options: NamedFilesOptions): NamedFile[] {
  const words = commandPathWords(command, options.vars);
  // Most hook commands name no file (`echo done`): nothing to resolve (paid per hook at start).
  if (words.length === 0) return [];
  const roots = options.roots.map((r) => nodePath.resolve(r));
  const within = (p: string) => roots.some((r) => p === r || p.startsWith(r.endsWith("/") ? r : r + "/"));
  const out = new Map<string, NamedFile>();
  for (const word of words) {
    const full = nodePath.resolve(options.cwd, word);
    if (out.has(full) || !within(full)) continue;
    const state = fileState(full, word.includes("/"));
    if (state !== undefined) out.set(full, { path: full, state });
  }
  return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** One digest over a list of named files (`sha256:<hex>`), for a trust record. */
export function namedFilesDigest(files: NamedFile[], prefix = ""): string {
  const lines = files.map((f) => `${f.state} ${f.path}\n`).join("");
  return `sha256:${digestHex("sha256", prefix + lines)}`;
}

function fileState(full: string, pathLike: boolean): string | undefined {
  let fd: number;
  try {
    fd = nodeFs.openSync(full, OPEN_FLAGS);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return pathLike ? "missing" : undefined;
    if (code === "EISDIR") return undefined;
    return `unreadable ${code ?? "error"}`;
  }
  try {
    const info = nodeFs.fstatSync(fd);
    if (info.isDirectory()) return undefined;
    if (!info.isFile()) return `special ${info.isFIFO() ? "fifo" : info.isSocket() ? "socket" : "device"}`;
    const x = (info.mode & 0o111) !== 0 ? "x" : "-";
    return `${x} sha256:${contentDigest(fd, info.size)}`;
  } catch (error) {
    return `unreadable ${(error as { code?: string }).code ?? "error"}`;
  } finally {
    nodeFs.closeSync(fd);
  }
}

function contentDigest(fd: number, size: number): string {
  if (size <= WHOLE_READ_MAX_BYTES) return digestHex("sha256", new Uint8Array(nodeFs.readFileSync(fd)));
  const hash = createDigest("sha256");
  const buffer = new Uint8Array(CHUNK_BYTES);
  for (let position = 0;;) {
    const bytes = nodeFs.readSync(fd, buffer, 0, buffer.length, position);
    if (bytes === 0) break;
    position += bytes;
    hash.update(buffer.subarray(0, bytes));
  }
  return hash.hex();
}
