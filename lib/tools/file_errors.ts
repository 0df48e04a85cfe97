import type { FileInfo, FileSystem } from "../platform/mod.ts";
import type { ToolResult } from "../shared/mod.ts";

/** One readable line for a failed file operation, in the house form `Cannot <action> "<path>": <state>`. */
export function describeFsError(action: string, path: string, error: unknown): string {
  const code = (error as { code?: string })?.code;
  const state = code === "ENOENT"
    ? "no such file or directory"
    : code === "EISDIR"
    ? "is a directory"
    : code === "ENOTDIR"
    ? "not a directory"
    : code === "EACCES" || code === "EPERM"
    ? "permission denied"
    : code === "ENOTREG" || code === "EFBIG"
    ? (error as Error).message
    : error instanceof Error
    ? error.message
    : String(error);
  return `Cannot ${action} "${path}": ${state}`;
}

/** A NUL byte in the first 8 KiB marks a file as binary, as git does. */
export function isBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** `stat` that treats any failure (a symlink loop, a permission error) like a missing file. */
export async function statQuietly(fs: FileSystem, path: string): Promise<FileInfo | null> {
  try {
    return await fs.stat(path);
  } catch {
    return null;
  }
}

export function isAbort(error: unknown): boolean {
  return (error as { name?: string })?.name === "AbortError";
}

/** The result for a failed file operation: aborted when the signal ended it, else an error naming the path. */
export function fsErrorResult(action: string, path: string, error: unknown): ToolResult {
  if (isAbort(error)) return { status: "aborted", output: `Cannot ${action} "${path}": aborted` };
  return { status: "error", output: describeFsError(action, path, error) };
}
