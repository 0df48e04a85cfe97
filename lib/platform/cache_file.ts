import * as path from "node:path";
import type { FileSystem } from "./platform.ts";

/**
 * One cache file of `$TRELLIS_HOME/cache/` read as JSON: null when it is absent, torn by a concurrent
 * write or not JSON — a miss, never an error (the caller checks what it holds).
 */
export function readCacheJson(fs: FileSystem, file: string): unknown {
  try {
    return JSON.parse(fs.sync.readTextFile(file));
  } catch {
    return null;
  }
}

/**
 * Writes a cache file best effort: its folder made, the text written atomically with mode 0600. A
 * failure only means the next start computes the value again.
 */
export function writeCacheJson(fs: FileSystem, file: string, value: unknown): void {
  try {
    fs.sync.mkdir(path.dirname(file));
    fs.sync.writeFileAtomic(file, new TextEncoder().encode(JSON.stringify(value)), { mode: 0o600 });
  } catch {
    // the cache is an optimisation only
  }
}
