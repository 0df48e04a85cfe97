import * as path from "node:path";
import {
  type FileSystem,
  isWithinPath,
  OutsideRootsError,
  readRegularPrefixWithin,
} from "../platform/mod.ts";

/**
 * Gemini CLI's `@{…}` file injection in a custom command's prompt (#24 item 3), as its
 * AtFileProcessor and readPathFromWorkspace do: the path (absolute, or relative to each workspace
 * root in turn) must lie in the workspace, a file is replaced by its text, a directory by each file
 * below it between `--- … ---` lines. Where this differs, the safer reading is kept: the real path
 * must stay in the workspace too (a symlink out is refused), `.git` is skipped, binary files are
 * named and left out, texts are capped, and what a file holds is never read for `{{args}}` or
 * `!{…}` afterwards (it is data, not part of the command).
 */

/** One `!{…}` or `@{…}`: its content trimmed, and where it stands (end is past its `}`). */
export interface Injection {
  content: string;
  start: number;
  end: number;
}

/**
 * Every `trigger` in `prompt` with its content, braces counted as Gemini's injectionParser counts
 * them (no escaping); `unclosedAt` is where one opens and never closes (none after it is read).
 */
export function findInjections(prompt: string, trigger: "!{" | "@{"): {
  injections: Injection[];
  unclosedAt?: number;
} {
  const injections: Injection[] = [];
  let index = 0;
  while (index < prompt.length) {
    const start = prompt.indexOf(trigger, index);
    if (start === -1) break;
    let depth = 1;
    let at = start + trigger.length;
    for (; at < prompt.length && depth > 0; at++) {
      if (prompt[at] === "{") depth++;
      else if (prompt[at] === "}") depth--;
    }
    if (depth > 0) return { injections, unclosedAt: start };
    injections.push({ content: prompt.slice(start + trigger.length, at - 1).trim(), start, end: at });
    index = at;
  }
  return { injections };
}

/**
 * What running one `!{…}` gave: its output (stdout, then stderr) and how it ended; or why it did
 * not run (not approved, no sandbox, no shell in this session).
 */
export type ShellRun =
  | {
    ok: true;
    output: string;
    exitCode: number | null;
    signal?: string | null;
    timedOut?: boolean;
    aborted?: boolean;
  }
  | { ok: false; reason: string };

/** Runs one resolved `!{…}` command for the command `/name`. */
export type ShellRunner = (command: string, name: string) => Promise<ShellRun>;

/** Gemini's line after the output of a command that did not end well. */
export function shellStatusLine(command: string, run: ShellRun & { ok: true }): string {
  if (run.aborted) return `\n[Shell command '${command}' aborted]`;
  if (run.timedOut) return `\n[Shell command '${command}' timed out]`;
  if (run.exitCode !== 0 && run.exitCode !== null) {
    return `\n[Shell command '${command}' exited with code ${run.exitCode}]`;
  }
  if (run.signal) return `\n[Shell command '${command}' terminated by signal ${run.signal}]`;
  return "";
}

/** What one file may put into a prompt; what is past it is cut with a note. */
const FILE_MAX_BYTES = 256 * 1024;
/** What one directory may put into a prompt in all. */
const TOTAL_MAX_BYTES = 1024 * 1024;
/** Files of a directory read at most (a tree of thousands is named as cut short). */
const MAX_FILES = 500;
/** Folders of a directory walked at most. */
const MAX_FOLDERS = 2000;

export type WorkspaceRead = { ok: true; text: string; notes: string[] } | { ok: false; error: string };

/**
 * The text `@{pathText}` stands for, read from under `roots` (the session's cwd and project root).
 * Every file is read through its opened descriptor, checked to lie under the roots' real paths and to
 * be a regular file (platform readRegularPrefixWithin): a symlink or folder swapped in between, or a
 * FIFO, never leads the read elsewhere or holds it. Never throws.
 */
export async function readWorkspacePath(
  fs: FileSystem,
  pathText: string,
  roots: string[],
): Promise<WorkspaceRead> {
  if (pathText === "") return { ok: false, error: "no path given" };
  const realRoots = await Promise.all(roots.map((r) => fs.realPath(r).catch(() => r)));
  const candidates = path.isAbsolute(pathText) ? [pathText] : roots.map((r) => path.resolve(r, pathText));
  for (const candidate of candidates) {
    if (!roots.some((r) => isWithinPath(r, candidate))) continue;
    const info = await fs.stat(candidate).catch(() => null);
    if (!info) continue;
    const notes: string[] = [];
    if (!info.isDirectory) {
      const file = readText(candidate, realRoots, notes, pathText);
      if (file.ok) return { ok: true, text: file.text, notes };
      return { ok: false, error: file.error };
    }
    const real = await fs.realPath(candidate).catch(() => null);
    if (real === null || !realRoots.some((r) => isWithinPath(r, real))) {
      return { ok: false, error: `${candidate} leads outside the workspace${real ? ` (to ${real})` : ""}` };
    }
    return { ok: true, text: await readDirectory(fs, real, pathText, realRoots, notes), notes };
  }
  if (path.isAbsolute(pathText) && !roots.some((r) => isWithinPath(r, pathText))) {
    return { ok: false, error: `absolute path is outside the workspace: ${pathText}` };
  }
  return { ok: false, error: `path not found in the workspace: ${pathText}` };
}

async function readDirectory(
  fs: FileSystem,
  dir: string,
  shown: string,
  realRoots: string[],
  notes: string[],
): Promise<string> {
  const files = await listFiles(fs, dir, shown, notes);
  let text = `--- Start of content for directory: ${shown} ---\n`;
  let total = 0;
  for (const file of files) {
    const relative = path.relative(dir, file);
    if (total >= TOTAL_MAX_BYTES) {
      notes.push(`@{${shown}}: stopped at ${TOTAL_MAX_BYTES} bytes; later files were left out`);
      break;
    }
    const content = readText(file, realRoots, notes, path.join(shown, relative));
    if (!content.ok) {
      if (content.outside) text += `--- Skipped ${relative}: traverses outside workspace ---\n\n`;
      else notes.push(`@{${path.join(shown, relative)}}: ${content.error}`);
      continue;
    }
    if (content.binary) continue;
    total += content.text.length;
    text += `--- ${relative} ---\n${content.text}\n`;
  }
  return text + `--- End of content for directory: ${shown} ---`;
}

/** Files below `dir`, sorted, `.git` left out; symlinks are listed (their targets are checked on reading). */
async function listFiles(fs: FileSystem, dir: string, shown: string, notes: string[]): Promise<string[]> {
  const out: string[] = [];
  let folders = 0;
  const walk = async (at: string) => {
    if (++folders > MAX_FOLDERS) return;
    const entries = (await fs.readDir(at).catch(() => [])).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (out.length >= MAX_FILES) return;
      const full = path.join(at, entry.name);
      if (entry.isDirectory) {
        if (entry.name !== ".git") await walk(full);
      } else out.push(full);
    }
  };
  await walk(dir);
  if (out.length >= MAX_FILES || folders > MAX_FOLDERS) {
    notes.push(`@{${shown}}: only its first ${MAX_FILES} files and ${MAX_FOLDERS} folders were read`);
  }
  return out;
}

/** A file's text, cut at FILE_MAX_BYTES (noted); a binary file is left out (noted). */
function readText(
  file: string,
  realRoots: string[],
  notes: string[],
  shown: string,
): { ok: true; text: string; binary?: true } | { ok: false; error: string; outside?: true } {
  let read: ReturnType<typeof readRegularPrefixWithin>;
  try {
    read = readRegularPrefixWithin(file, realRoots, FILE_MAX_BYTES);
  } catch (error) {
    if (error instanceof OutsideRootsError) return { ok: false, error: error.message, outside: true };
    return { ok: false, error: `cannot be read (${(error as Error).message})` };
  }
  if (read.bytes.subarray(0, 8192).includes(0)) {
    notes.push(`@{${shown}}: a binary file, left out`);
    return { ok: true, text: "", binary: true };
  }
  const text = new TextDecoder().decode(read.bytes);
  if (read.size <= FILE_MAX_BYTES) return { ok: true, text };
  notes.push(`@{${shown}}: cut at ${FILE_MAX_BYTES} bytes`);
  return { ok: true, text: `${text}\n[… cut at ${FILE_MAX_BYTES} bytes]` };
}
