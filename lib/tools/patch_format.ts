/**
 * Codex's patch format (#23 item 2, `apply_patch`): parsed into file operations, and hunks matched
 * against a file's text. Pure text work — no file system — so every hunk of every file is checked
 * before the tool writes anything.
 *
 *     *** Begin Patch
 *     *** Add File: path        (then `+` lines)
 *     *** Delete File: path
 *     *** Update File: path     (optionally `*** Move to: path`, then `@@ context` hunks of ` `/`-`/`+` lines)
 *     *** End Patch
 */
import { TrellisError } from "../shared/mod.ts";

export type PatchOperation =
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo?: string; hunks: PatchHunk[] };

export interface PatchHunk {
  /** The `@@` line's text (a line to find before the hunk), empty when bare. */
  anchor: string;
  before: string[];
  after: string[];
  /** `*** End of File`: the hunk's lines end the file. */
  atEnd: boolean;
  /** 1-based, for messages. */
  number: number;
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";

function patchError(message: string, file?: string): TrellisError {
  return new TrellisError("patch_invalid", message, file ? { file } : {});
}

/** Parses a whole patch; a malformed one is an error naming the line (and the file when known). */
export function parsePatch(text: string): PatchOperation[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  while (lines.length > 0 && lines[lines.length - 1].trim() === "") lines.pop();
  let start = 0;
  while (start < lines.length && lines[start].trim() === "") start++;
  // A model sometimes wraps the patch in a heredoc (`apply_patch <<'EOF'`), as Codex tolerates.
  if (/^apply_patch\b/.test(lines[start] ?? "") && /^['"]?EOF['"]?$/.test(lines[lines.length - 1] ?? "")) {
    start++;
    lines.pop();
  }
  if ((lines[start] ?? "").trim() !== BEGIN) throw patchError(`The patch must start with "${BEGIN}"`);
  if ((lines[lines.length - 1] ?? "").trim() !== END || lines.length - 1 <= start) {
    throw patchError(`The patch must end with "${END}"`);
  }
  const body = lines.slice(start + 1, lines.length - 1);
  const operations: PatchOperation[] = [];
  let i = 0;
  const header = (prefix: string) =>
    body[i].startsWith(prefix) ? body[i].slice(prefix.length).trim() : undefined;
  while (i < body.length) {
    const line = body[i];
    const lineNo = start + 2 + i;
    let path: string | undefined;
    if ((path = header("*** Add File: ")) !== undefined) {
      i++;
      const content: string[] = [];
      while (i < body.length && !body[i].startsWith("*** ")) {
        if (!body[i].startsWith("+")) {
          throw patchError(`Add File "${path}": line ${start + 2 + i} must start with "+"`, path);
        }
        content.push(body[i].slice(1));
        i++;
      }
      operations.push({
        kind: "add",
        path: need(path, lineNo),
        content: content.map((l) => `${l}\n`).join(""),
      });
    } else if ((path = header("*** Delete File: ")) !== undefined) {
      operations.push({ kind: "delete", path: need(path, lineNo) });
      i++;
    } else if ((path = header("*** Update File: ")) !== undefined) {
      i++;
      const file = need(path, lineNo);
      let moveTo: string | undefined;
      if (i < body.length && (moveTo = header("*** Move to: ")) !== undefined) {
        moveTo = need(moveTo, start + 2 + i);
        i++;
      }
      const hunks: PatchHunk[] = [];
      while (i < body.length && (!body[i].startsWith("*** ") || body[i] === "*** End of File")) {
        const hunk: PatchHunk = { anchor: "", before: [], after: [], atEnd: false, number: hunks.length + 1 };
        if (body[i].startsWith("@@")) {
          hunk.anchor = body[i].slice(2).trim();
          i++;
        } else if (hunks.length > 0) {
          throw patchError(`Update File "${file}": hunk ${hunk.number} must start with "@@"`, file);
        }
        while (i < body.length && !body[i].startsWith("@@") && !body[i].startsWith("*** ")) {
          const l = body[i];
          const mark = l[0] ?? " ";
          const rest = l.slice(1);
          if (mark === " " || l === "") {
            hunk.before.push(rest);
            hunk.after.push(rest);
          } else if (mark === "-") hunk.before.push(rest);
          else if (mark === "+") hunk.after.push(rest);
          else {
            throw patchError(
              `Update File "${file}": hunk ${hunk.number}, line ${
                start + 2 + i
              } must start with " ", "-" or "+"`,
              file,
            );
          }
          i++;
        }
        if (body[i] === "*** End of File") {
          hunk.atEnd = true;
          i++;
        }
        if (hunk.before.length === 0 && hunk.after.length === 0) {
          throw patchError(`Update File "${file}": hunk ${hunk.number} is empty`, file);
        }
        hunks.push(hunk);
      }
      if (hunks.length === 0 && moveTo === undefined) {
        throw patchError(`Update File "${file}": no hunks`, file);
      }
      operations.push({ kind: "update", path: file, ...(moveTo ? { moveTo } : {}), hunks });
    } else {
      throw patchError(
        `Line ${lineNo} ("${
          line.slice(0, 60)
        }") is not "*** Add File:", "*** Delete File:" or "*** Update File:"`,
      );
    }
  }
  if (operations.length === 0) throw patchError("The patch changes no file");
  return operations;
}

function need(path: string, line: number): string {
  if (path === "") throw patchError(`Line ${line}: the file path is empty`);
  return path;
}

/**
 * `text` with every hunk applied in order, or an error naming the file and the first hunk that does
 * not match. Lines are compared exactly, then ignoring trailing, then surrounding whitespace (as
 * Codex does), each hunk searched from where the previous one ended.
 */
export function applyHunks(file: string, text: string, hunks: PatchHunk[]): string {
  const endsWithNewline = text.endsWith("\n");
  const lines = text === "" ? [] : (endsWithNewline ? text.slice(0, -1) : text).split("\n");
  const replacements: { at: number; remove: number; insert: string[] }[] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    if (hunk.anchor !== "") {
      const found = seek(lines, [hunk.anchor], cursor, false);
      if (found < 0) {
        throw patchError(
          `Cannot apply hunk ${hunk.number} to "${file}": "@@ ${hunk.anchor}" not found`,
          file,
        );
      }
      cursor = found + 1;
    }
    let before = hunk.before;
    let after = hunk.after;
    let at = before.length === 0
      ? (hunk.anchor === "" ? lines.length : cursor)
      : seek(lines, before, cursor, hunk.atEnd);
    // A trailing blank context line the model added past the file's end.
    if (at < 0 && before.length > 0 && before[before.length - 1] === "") {
      before = before.slice(0, -1);
      if (after[after.length - 1] === "") after = after.slice(0, -1);
      at = seek(lines, before, cursor, hunk.atEnd);
    }
    if (at < 0) {
      const first = before.find((l) => l.trim() !== "") ?? before[0];
      throw patchError(
        `Cannot apply hunk ${hunk.number} to "${file}": its lines were not found (first: "${
          first.slice(0, 80)
        }")`,
        file,
      );
    }
    replacements.push({ at, remove: before.length, insert: after });
    cursor = at + before.length;
  }
  for (const r of replacements.reverse()) lines.splice(r.at, r.remove, ...r.insert);
  if (lines.length === 0) return "";
  return `${lines.join("\n")}\n`;
}

const exact = (a: string, b: string) => a === b;
const trimEnd = (a: string, b: string) => a.trimEnd() === b.trimEnd();
const trimBoth = (a: string, b: string) => a.trim() === b.trim();

function seek(lines: string[], pattern: string[], from: number, atEnd: boolean): number {
  for (const same of [exact, trimEnd, trimBoth]) {
    if (atEnd) {
      const at = lines.length - pattern.length;
      if (at >= from && pattern.every((p, k) => same(lines[at + k], p))) return at;
      continue;
    }
    for (let at = from; at + pattern.length <= lines.length; at++) {
      if (pattern.every((p, k) => same(lines[at + k], p))) return at;
    }
  }
  return -1;
}
