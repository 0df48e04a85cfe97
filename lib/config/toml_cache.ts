import * as path from "node:path";
import { digestHex, type FileSystem, readCacheJson, writeCacheJson } from "../platform/mod.ts";
import { jsonExact } from "../shared/mod.ts";

/**
 * The parsed tables of config TOML files, kept in `$TRELLIS_HOME/cache/toml/` (one file per config
 * path, holding the digest of the text it was parsed from): a start whose config files did not
 * change reads native JSON instead of parsing TOML. The text is still read and hashed every time,
 * so an edit — or a cache entry from another text — is never used; a missing, torn or foreign cache
 * file is a miss, and a failed write only means the next start parses again.
 *
 * Measured in the compiled binary (jitPolicy 64, cold, as every start is): smol-toml parses a
 * config.toml holding 90 `[hooks.state."…"]` trust tables (15.6 KB, what 30 events × 3 trusted hooks
 * write) in 2.3 ms, and its first call of a process costs ~1 ms whatever the size; hashing the
 * text (0.1 ms) and parsing the cached JSON (0.1 ms) replace that. A/B of the binary, 40 alternated
 * starts with 90 trusted hooks, twice: 1.0 and 1.5 ms less with the cache (#24's figure).
 *
 * Only tables JSON carries exactly are cached: a TOML date-time, `inf`/`nan`, `-0.0` or a
 * `__proto__` key keeps its file parsed each time. Cached tables are ordinary objects where
 * smol-toml's have no prototype: every reader takes their own keys (the schema, Object.entries), so
 * a key named `constructor` or `toString` loads the same either way (tested); giving them no
 * prototype again would cost a cold start 0.35 ms more (a JSON.parse reviver: 0.45–2.9 ms).
 */
export function parseTomlCached(
  fs: FileSystem,
  cacheDir: string | undefined,
  file: string,
  text: string,
  parse: (text: string) => Record<string, unknown>,
): Record<string, unknown> {
  if (cacheDir === undefined || text.length < MIN_CACHED_CHARS) return parse(text);
  const cacheFile = path.join(cacheDir, `${digestHex("sha256", file).slice(0, 32)}.json`);
  const digest = digestHex("sha256", text);
  const cached = readCached(fs, cacheFile, file, digest);
  if (cached) return cached;
  const table = parse(text);
  if (jsonExact(table)) writeCacheJson(fs, cacheFile, { schema: 1, file, digest, table });
  return table;
}

/** Below this a parse costs less than a cache read (a two-line config parses in ~20 µs warm). */
const MIN_CACHED_CHARS = 2048;

function readCached(
  fs: FileSystem,
  cacheFile: string,
  file: string,
  digest: string,
): Record<string, unknown> | null {
  const entry = readCacheJson(fs, cacheFile) as
    | { schema?: unknown; file?: unknown; digest?: unknown; table?: unknown }
    | null;
  const table = entry?.table;
  const usable = entry?.schema === 1 && entry.file === file && entry.digest === digest &&
    typeof table === "object" && table !== null && !Array.isArray(table);
  return usable ? table as Record<string, unknown> : null;
}
