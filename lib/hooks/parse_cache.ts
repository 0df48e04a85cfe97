import * as path from "node:path";
import { digestHex, type FileSystem, readCacheJson, writeCacheJson } from "../platform/mod.ts";
import { type Diagnostic, jsonExact } from "../shared/mod.ts";
import type { DeclaredHandler, HookSource } from "./hook_handler.ts";

/** One hook source parsed: its handlers, each one's trust hash (Codex's), and the warnings. */
export interface ParsedHookSource {
  handlers: DeclaredHandler[];
  /** `hashes[i]` is `hookTrustHash(handlers[i])`. */
  hashes: string[];
  diagnostics: Diagnostic[];
}

/** Where parses are kept, and the build whose code produced them. */
export interface HookParseCache {
  dir: string;
  buildId: string;
}

/**
 * A hook source's parse and trust hashes, kept in `$TRELLIS_HOME/cache/hooks/` (one file per source)
 * for the next start of the same build: what a source parses to and hashes to depends on its text
 * and on the code only, so the entry is used only when both match — the source serialized whole
 * (events, path, kind, plugin context, dialect) hashed to the entry's digest, and the build id
 * (scripts/compile/bun_build.ts; from the sources there is none and nothing is cached). Trust is
 * still judged at every start against the state in config.toml, and the files a command names are
 * still read: only the parse and the hashing are reused. A missing, torn or foreign entry is a miss;
 * a source JSON cannot carry exactly (a TOML date, -0) is never cached.
 *
 * Measured in the compiled binary (jitPolicy 64: a start runs in the interpreter), 90 handlers of
 * one hooks.json: parsing took ~0.7 ms and hashing ~1.2 ms; the entry's read and check replace both.
 */
export function parseHookSourceCached(
  fs: FileSystem,
  cache: HookParseCache | undefined,
  source: HookSource,
  parse: (source: HookSource) => ParsedHookSource,
): ParsedHookSource {
  if (cache === undefined) return parse(source);
  const text = JSON.stringify(source);
  if (text.length < MIN_CACHED_CHARS || !jsonExact(source)) return parse(source);
  const name = digestHex("sha256", `${source.kind}\n${source.keySource ?? ""}\n${source.path}`).slice(0, 32);
  const file = path.join(cache.dir, `${name}.json`);
  const digest = digestHex("sha256", text);
  const cached = readEntry(fs, file, cache.buildId, digest);
  if (cached) return cached;
  const parsed = parse(source);
  // Built from the source's values alone, so JSON carries it exactly when it carries the source.
  writeCacheJson(fs, file, { schema: SCHEMA, build: cache.buildId, digest, parsed });
  return parsed;
}

const SCHEMA = 1;

/** Below this a source parses in less time than an entry takes to read (one or two handlers). */
const MIN_CACHED_CHARS = 512;

function readEntry(fs: FileSystem, file: string, buildId: string, digest: string): ParsedHookSource | null {
  const entry = readCacheJson(fs, file) as
    | { schema?: unknown; build?: unknown; digest?: unknown; parsed?: Partial<ParsedHookSource> }
    | null;
  const parsed = entry?.parsed;
  const usable = entry?.schema === SCHEMA && entry.build === buildId && entry.digest === digest &&
    Array.isArray(parsed?.handlers) && Array.isArray(parsed.hashes) &&
    parsed.hashes.length === parsed.handlers.length && Array.isArray(parsed.diagnostics);
  return usable ? parsed as ParsedHookSource : null;
}
