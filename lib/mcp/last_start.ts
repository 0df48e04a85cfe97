import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";

/**
 * Issue #21 item 14: how a server's last start ended, kept next to its stderr log so `mcp list`
 * (which starts nothing) can say a server died at start, why, and where its whole log is. A start
 * that reaches ready removes the record.
 */
export interface LastStartFailure {
  /** ISO time of the failure. */
  at: string;
  error: string;
}

function recordPath(home: string, server: string): string {
  return path.join(home, "logs", "mcp", `${server}.last-start.json`);
}

/** Best-effort: a record that cannot be written never fails the server. */
export async function recordLastStart(
  fs: FileSystem,
  home: string,
  server: string,
  failure: LastStartFailure | null,
): Promise<void> {
  const file = recordPath(home, server);
  try {
    if (failure === null) {
      if (await fs.stat(file)) await fs.remove(file);
      return;
    }
    await fs.mkdir(path.dirname(file));
    await fs.writeFileAtomic(file, JSON.stringify(failure) + "\n");
  } catch {
    // the log directory is not writable: nothing to remember
  }
}

/** The last start failure of a server, or null (none recorded, or the record is unreadable). */
export async function readLastStartFailure(
  fs: FileSystem,
  home: string,
  server: string,
): Promise<LastStartFailure | null> {
  try {
    const value = JSON.parse(await fs.readTextFile(recordPath(home, server)));
    return typeof value?.at === "string" && typeof value?.error === "string" ? value : null;
  } catch {
    return null;
  }
}
