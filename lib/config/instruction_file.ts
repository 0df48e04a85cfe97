import type { FileSystem } from "../platform/mod.ts";

/** One project-instructions file that reached the model, with where it came from. */
export interface InstructionFile {
  /** The path as found (an import's path as resolved); `realPath` is its canonical form. */
  path: string;
  realPath: string;
  /** AGENTS.md (Codex), CLAUDE.md (Claude Code) or GEMINI.md (a Gemini CLI extension's context) family. */
  family: "agents" | "claude" | "gemini";
  /** user: $TRELLIS_HOME/AGENTS.md, ~/.claude/CLAUDE.md; project: checked in; local: CLAUDE.local.md. */
  scope: "user" | "project" | "local";
  /** For a CLAUDE.md `@path` import: the file that imported it. */
  importedFrom?: string;
  text: string;
  /** Bytes of `text` as read (after any truncation). */
  bytes: number;
  /** Cut at the size limit (`project_doc_max_bytes`); a warning says so. */
  truncated: boolean;
}

export type FileRead =
  | { kind: "read"; realPath: string; text: string; bytes: number; size: number; truncated: boolean }
  | { kind: "absent" }
  | { kind: "failed"; error: string };

const decoder = new TextDecoder();

/**
 * Reads at most `maxBytes` of a regular file (a directory or a missing file is "absent"), cutting
 * at the last whole UTF-8 character, so a 10 MB file costs `maxBytes`, never its size. Never throws.
 */
export async function readBoundedText(fs: FileSystem, file: string, maxBytes: number): Promise<FileRead> {
  try {
    const info = await fs.stat(file);
    if (!info || !info.isFile) return { kind: "absent" };
    const realPath = await fs.realPath(file);
    const data = await fs.readFilePrefix(file, maxBytes + 1);
    const truncated = data.length > maxBytes;
    const kept = truncated ? data.subarray(0, utf8Boundary(data, maxBytes)) : data;
    const size = truncated ? Math.max(info.size, data.length) : data.length;
    return { kind: "read", realPath, text: decoder.decode(kept), bytes: kept.length, size, truncated };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return { kind: "absent" };
    return { kind: "failed", error: (error as Error).message ?? String(error) };
  }
}

/** The largest cut ≤ `limit` that does not split a UTF-8 sequence. */
function utf8Boundary(data: Uint8Array, limit: number): number {
  let cut = limit;
  // Continuation bytes are 10xxxxxx: step back to the start of the character that straddles the cut.
  while (cut > 0 && (data[cut] & 0xc0) === 0x80) cut--;
  return cut;
}
