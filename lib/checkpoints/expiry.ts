import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";

/**
 * Checkpoints expire with their session (#25 item 2): a session's folder under
 * `$TRELLIS_HOME/checkpoints` whose transcript (`sessions/<id>.jsonl`) is gone is removed. Returns
 * the ids removed. Run as a session opens; quick (one listing, one probe per folder).
 */
export async function removeOrphanCheckpoints(fs: FileSystem, home: string): Promise<string[]> {
  const root = path.join(home, "checkpoints");
  const removed: string[] = [];
  let entries;
  try {
    entries = fs.sync.readDir(root);
  } catch {
    return removed;
  }
  for (const entry of entries) {
    if (!entry.isDirectory) continue;
    if (fs.sync.exists(path.join(home, "sessions", `${entry.name}.jsonl`))) continue;
    await fs.remove(path.join(root, entry.name), { recursive: true }).catch(() => {});
    removed.push(entry.name);
  }
  return removed;
}
