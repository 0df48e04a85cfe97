/**
 * Which test file executes which line (`--generate`): the baseline runs each candidate test file
 * alone with `DENO_COVERAGE_DIR` set, so the subprocesses it starts (`deno run main.ts …`) record
 * their coverage too, then `deno coverage --lcov` says, per test file, which lines of the mutated
 * files ran. A mutant then runs only the test files that execute its lines: a test that never
 * reaches a line cannot kill a change to it, and running it would only cost time.
 */
import * as path from "node:path";
import { platform, runCommand } from "../../lib/platform/mod.ts";

/** Lines (1-based) executed at least once, per file relative to the tree's root. */
export type LineHits = Map<string, Set<number>>;

/**
 * Reads a coverage directory as lcov, keeping only `files` (relative to `dir`), or every file of
 * lib/ when null (what the baseline cache keeps, so any later choice of files can be answered).
 */
export async function linesHit(
  dir: string,
  coverageDir: string,
  files: string[] | null,
  signal?: AbortSignal,
): Promise<LineHits> {
  const hits: LineHits = new Map();
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const include = files
    ? `(${files.map((f) => escape(path.join(dir, f))).join("|")})$`
    : `${escape(path.join(dir, "lib"))}/`;
  const wanted = (rel: string) => files ? files.includes(rel) : rel.startsWith("lib/");
  const result = await runCommand(platform, {
    cmd: [platform.execPath(), "coverage", "--lcov", `--include=${include}`, coverageDir],
    cwd: dir,
    env: { ...platform.envAll(), NO_COLOR: "1" },
    timeoutMs: 300_000,
    maxOutputBytes: 64 * 1024 * 1024,
    ...(signal ? { signal } : {}),
  });
  // No coverage at all (the test never loaded a lib file) leaves `deno coverage` nothing to say.
  if (result.code !== 0) return hits;
  let current: Set<number> | null = null;
  for (const line of result.stdout.split("\n")) {
    if (line.startsWith("SF:")) {
      const rel = path.relative(dir, line.slice(3).trim());
      current = wanted(rel) ? (hits.get(rel) ?? new Set()) : null;
      if (current) hits.set(rel, current);
    } else if (current && line.startsWith("DA:")) {
      const [at, count] = line.slice(3).split(",").map(Number);
      if (count > 0) current.add(at);
    }
  }
  return hits;
}

/** Whether any line from `first` to `last` of `file` ran. */
export function reaches(hits: LineHits, file: string, first: number, last: number): boolean {
  const lines = hits.get(file);
  if (!lines) return false;
  for (let line = first; line <= last; line++) if (lines.has(line)) return true;
  return false;
}
