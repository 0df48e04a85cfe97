/**
 * The `--generate` baseline, remembered: running each test file alone with coverage costs minutes
 * (10 min for the 28 test files of the sandbox, approval and trust files on the 2-core machine),
 * and it changes only when the code or that test changes. An entry per test file holds how long it
 * took and which lines of lib/ it ran, keyed by a digest of every source file of the tree that is
 * not a test file (lib/, main.ts, fixtures, test helpers, deno.json, the Deno version) and of the
 * test file itself: editing one test re-measures that test only; editing lib re-measures all.
 *
 * The cache lives outside the repository (`$TRELLIS_MUTATE_CACHE`, else `$XDG_CACHE_HOME` or
 * `~/.cache`, `trellis/mutate-coverage/`) and is never committed. An entry is written whole (a temp
 * file renamed into place) and only for a test that passed, so an interrupted baseline leaves
 * only complete entries; an unreadable entry is measured again.
 */
import * as path from "node:path";
import { createHash } from "node:crypto";
import type { LineHits } from "./coverage.ts";

const TEST_FILE = /(?:_test|\.test)\.(?:ts|tsx|js|mjs)$/;
// Prose changes no line a test runs.
const IRRELEVANT = /\.md$/;

export interface CachedBaseline {
  ms: number;
  hits: LineHits;
}

export class CoverageCache {
  private constructor(
    readonly dir: string,
    private readonly treeDigest: string,
    private readonly root: string,
  ) {}

  /** Digests the tree (git's view of it: tracked and untracked-not-ignored files, as on disk). */
  static async open(root: string, dir = defaultCacheDir()): Promise<CoverageCache> {
    const listed = await new Deno.Command("git", {
      args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
      cwd: root,
      stdout: "piped",
      stderr: "null",
    }).output();
    const files = new TextDecoder().decode(listed.stdout).split("\0").filter(Boolean).sort();
    const tree = createHash("sha256").update(`deno ${Deno.version.deno}\n`);
    for (const file of files) {
      if (TEST_FILE.test(file) || IRRELEVANT.test(file)) continue;
      const bytes = await Deno.readFile(path.join(root, file)).catch(() => null);
      if (!bytes) continue; // deleted in the working tree, not yet in the index
      tree.update(`${file}\0${createHash("sha256").update(bytes).digest("hex")}\n`);
    }
    return new CoverageCache(dir, tree.digest("hex"), root);
  }

  async #key(test: string): Promise<string> {
    const bytes = await Deno.readFile(path.join(this.root, test));
    return createHash("sha256").update(this.treeDigest).update(`\0${test}\0`).update(bytes).digest("hex");
  }

  /** The remembered baseline of `test` (relative to the root), or null when the tree changed. */
  async get(test: string): Promise<CachedBaseline | null> {
    try {
      const entry = JSON.parse(await Deno.readTextFile(path.join(this.dir, `${await this.#key(test)}.json`)));
      if (entry.test !== test || typeof entry.ms !== "number") return null;
      const hits: LineHits = new Map();
      for (const [file, lines] of Object.entries(entry.lines as Record<string, number[]>)) {
        hits.set(file, new Set(lines));
      }
      return { ms: entry.ms, hits };
    } catch {
      return null;
    }
  }

  async set(test: string, baseline: CachedBaseline): Promise<void> {
    await Deno.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${await this.#key(test)}.json`);
    const lines = Object.fromEntries(
      [...baseline.hits].map(([f, set]) => [f, [...set].sort((a, b) => a - b)]),
    );
    const temp = `${file}.${Deno.pid}.tmp`;
    await Deno.writeTextFile(temp, JSON.stringify({ test, ms: Math.round(baseline.ms), lines }));
    await Deno.rename(temp, file);
  }
}

function defaultCacheDir(): string {
  const own = Deno.env.get("TRELLIS_MUTATE_CACHE");
  if (own) return own;
  const base = Deno.env.get("XDG_CACHE_HOME") || path.join(Deno.env.get("HOME") ?? "/tmp", ".cache");
  return path.join(base, "trellis", "mutate-coverage");
}
