import * as path from "node:path";
import { TomlError } from "smol-toml";
import type { FileInfo, FileSystem } from "../platform/mod.ts";
import { TrellisError, UsageError } from "../shared/mod.ts";
import {
  applyConfigEdits,
  type ConfigEdit,
  ConfigEditError,
  parseDocument,
  type TomlTable,
} from "./config_edit.ts";
import { formatKeyPath } from "./merge.ts";
import { loadTomlEditor, type TomlEditor } from "./toml_editor.ts";

/** How long an edit waits for another process's edit of the same file before giving up. */
const LOCK_TIMEOUT_MS = 30_000;

export interface ConfigFileEdit {
  /** The file actually written: the target when `file` is a symbolic link. */
  file: string;
  /** False when the edits left the document as it was (nothing was written). */
  changed: boolean;
  /** With `dryRun`: the text as it is and as the edit would leave it (nothing is written). */
  preview?: { before: string; after: string };
}

/**
 * Edits a config file in place, safely against other processes and against the editor itself:
 *
 * 1. lock `<file>.lock` (flock: a concurrent `trellis project trust` waits, it never loses an edit);
 * 2. read the file as it is now, under the lock, and hand its parsed document to `plan`, which
 *    returns the edits (or throws a UsageError: "No MCP server named…", "already exists");
 * 3. edit with the format-preserving editor, re-parse, and check that the result is exactly the
 *    intended document (config_edit.ts) — else refuse, naming the key, and write nothing;
 * 4. write a temp file beside it with the same mode and owner, flush it, rename it over the file.
 *
 * A symbolic link is followed: its target is edited and the link stays a link.
 */
export async function editConfigFile(
  fs: FileSystem,
  file: string,
  plan: (doc: TomlTable) => ConfigEdit[],
  options: { dryRun?: boolean } = {},
): Promise<ConfigFileEdit> {
  const target = await resolveTarget(fs, file);
  // Instantiated before the lock: under contention every waiting process would otherwise add the
  // WebAssembly compile (~25 ms in the binary) to the time it holds the lock.
  const editor = await loadTomlEditor();
  if (options.dryRun) {
    // The same read, plan, edit and verification, without the lock or the write (`--dry-run`).
    const { text } = await readCurrent(fs, target);
    const edits = plan(parseCurrent(file, text));
    const after = edits.length ? editText(editor, file, text, edits) : text;
    return { file: target, changed: after !== text, preview: { before: text, after } };
  }
  await fs.mkdir(path.dirname(target));
  const lockPath = `${target}.lock`;
  const lock = await fs.lockFile(lockPath, { timeoutMs: LOCK_TIMEOUT_MS }).catch((error) => {
    if ((error as { code?: string }).code !== "ETIMEDOUT") throw error;
    throw new TrellisError(
      "io",
      `Cannot edit "${file}": ${(error as Error).message} and has not let go for 30 s`,
      {
        file,
      },
    );
  });
  try {
    const { text, info } = await readCurrent(fs, target);
    const doc = parseCurrent(file, text);
    const edits = plan(doc);
    if (edits.length === 0) return { file: target, changed: false };
    const next = editText(editor, file, text, edits);
    if (next === text) return { file: target, changed: false };
    await fs.writeFileAtomic(target, next, {
      // A new config may soon hold a token (`mcp add --env`): private until the user says otherwise.
      mode: info ? info.mode & 0o7777 : 0o600,
      owner: info ? { uid: info.uid, gid: info.gid } : undefined,
      fsync: true,
    });
    return { file: target, changed: true };
  } finally {
    await lock.release();
  }
}

/** The edited, verified text; a refused edit is a UsageError naming the file and key. */
function editText(editor: TomlEditor, file: string, text: string, edits: ConfigEdit[]): string {
  try {
    return applyConfigEdits(editor, text, edits);
  } catch (error) {
    if (!(error instanceof ConfigEditError)) throw error;
    throw new UsageError(`Cannot edit "${file}": ${error.message}`, {
      file,
      field: formatKeyPath(error.keyPath),
    }, "config_edit");
  }
}

/** The file to write: `file`, or the file its symbolic link(s) point to. */
async function resolveTarget(fs: FileSystem, file: string): Promise<string> {
  const absolute = path.resolve(file);
  const link = await fs.lstat(absolute);
  if (!link?.isSymlink) return absolute;
  try {
    return await fs.realPath(absolute);
  } catch {
    throw new UsageError(`Cannot edit "${file}": it is a symbolic link to a missing file`, { file });
  }
}

async function readCurrent(fs: FileSystem, file: string): Promise<{ text: string; info: FileInfo | null }> {
  const info = await fs.stat(file);
  if (info && !info.isFile) throw new UsageError(`Cannot edit "${file}": not a regular file`, { file });
  return { text: info ? await fs.readTextFile(file) : "", info };
}

function parseCurrent(file: string, text: string): TomlTable {
  try {
    return parseDocument(text);
  } catch (error) {
    const at = error instanceof TomlError ? `:${error.line}:${error.column}` : "";
    throw new UsageError(
      `Cannot edit "${file}": invalid TOML at ${file}${at} (${
        (error as Error).message.split("\n")[0]
      }); nothing was written`,
      { file, line: error instanceof TomlError ? error.line : undefined },
      "config_parse",
    );
  }
}
