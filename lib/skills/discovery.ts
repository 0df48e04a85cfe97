import * as path from "node:path";
import type { DirEntry, FileSystem } from "../platform/mod.ts";
import { boundedMap } from "./bounded_map.ts";
import type { SkillRootSpec } from "./types.ts";

/** Scan bounds per root (SK-3). */
export const SCAN_LIMITS = { maxDepth: 6, maxDirs: 2_000, maxEntries: 20_000, concurrency: 64 };

/** A SKILL.md found by the walk; `path` is canonical. */
export interface SkillCandidate {
  path: string;
  dir: string;
  /** `agents/openai.yaml` beside it, when an `agents` directory (any case) exists. */
  openAiYaml?: string;
  /** For a plugin command file (`path` is its `.md`): the command's name, `<folder>:` prefixed. */
  commandName?: string;
}

export interface RootScan {
  candidates: SkillCandidate[];
  dirsScanned: number;
  entriesScanned: number;
  truncated: boolean;
  /** A directory at the depth bound had subdirectories that were not entered. */
  depthReached: boolean;
  warnings: string[];
}

type Level = { dir: string; depth: number }[];

/**
 * Breadth-first walk of one root (its canonical path). Hidden directories below the root are
 * skipped; directory symlinks are followed (to their canonical target, once) except for System
 * roots; a bound reached ends the walk with a warning naming the root.
 */
export async function scanRoot(
  fs: FileSystem,
  root: SkillRootSpec,
  canonicalRoot: string,
): Promise<RootScan> {
  const scan: RootScan = {
    candidates: [],
    dirsScanned: 0,
    entriesScanned: 0,
    truncated: false,
    depthReached: false,
    warnings: [],
  };
  const visited = new Set([canonicalRoot]);
  const followLinks = root.scope !== "system";
  let level: Level = [{ dir: canonicalRoot, depth: 0 }];
  let lastLevel = false;
  while (level.length > 0 && !scan.truncated && !lastLevel) {
    if (scan.dirsScanned + level.length > SCAN_LIMITS.maxDirs) {
      level = level.slice(0, SCAN_LIMITS.maxDirs - scan.dirsScanned);
      lastLevel = true;
    }
    const listings = level.map((item) => listDir(fs, item.dir));
    scan.dirsScanned += level.length;
    const next: Level = [];
    const links: { path: string; depth: number; name: string }[] = [];
    for (let i = 0; i < level.length && !scan.truncated; i++) {
      const { dir, depth } = level[i];
      const listing = listings[i];
      if (!Array.isArray(listing)) {
        scan.warnings.push(`Cannot read skills directory "${dir}": ${listing.error}`);
        continue;
      }
      for (const entry of listing) {
        if (++scan.entriesScanned > SCAN_LIMITS.maxEntries) {
          scan.entriesScanned = SCAN_LIMITS.maxEntries;
          scan.truncated = true;
          break;
        }
        if (entry.name === "SKILL.md" && entry.isFile) scan.candidates.push(candidate(dir, listing));
        else if (entry.isSymlink && followLinks) {
          links.push({ path: childPath(dir, entry.name), depth: depth + 1, name: entry.name });
        } else if (entry.isDirectory && !entry.name.startsWith(".")) {
          if (depth >= SCAN_LIMITS.maxDepth) {
            scan.depthReached = true;
            continue;
          }
          const full = childPath(dir, entry.name);
          if (!visited.has(full)) {
            visited.add(full);
            next.push({ dir: full, depth: depth + 1 });
          }
        }
      }
    }
    await followSymlinks(fs, links, visited, next, scan);
    level = next;
  }
  if (lastLevel) scan.truncated = true;
  if (scan.truncated) {
    scan.warnings.push(
      `skills scan reached its traversal limit (root: ${root.path}); the skill list for this root is incomplete`,
    );
  }
  if (scan.depthReached) {
    scan.warnings.push(
      `skills scan reached its depth limit of ${SCAN_LIMITS.maxDepth} directories (root: ${root.path}); ` +
        "SKILL.md files deeper than that are not loaded, so the skill list for this root may be incomplete",
    );
  }
  return scan;
}

async function followSymlinks(
  fs: FileSystem,
  links: { path: string; depth: number; name: string }[],
  visited: Set<string>,
  next: Level,
  scan: RootScan,
): Promise<void> {
  const resolved = await boundedMap(links, SCAN_LIMITS.concurrency, async (link) => {
    try {
      const real = await fs.realPath(link.path);
      return { link, real, info: await fs.stat(real) };
    } catch {
      return { link, real: null, info: null };
    }
  });
  for (const { link, real, info } of resolved) {
    if (!real || !info) continue;
    if (link.name === "SKILL.md" && info.isFile) {
      scan.candidates.push({
        path: real,
        dir: path.dirname(real),
        openAiYaml: agentsYaml(path.dirname(real)),
      });
    } else if (info.isDirectory && !link.name.startsWith(".")) {
      if (link.depth > SCAN_LIMITS.maxDepth) {
        scan.depthReached = true;
        continue;
      }
      if (visited.has(real)) continue;
      visited.add(real);
      next.push({ dir: real, depth: link.depth });
    }
  }
}

function candidate(dir: string, listing: DirEntry[]): SkillCandidate {
  const file = childPath(dir, "SKILL.md");
  const agents = listing.find((e) => (e.isDirectory || e.isSymlink) && e.name.toLowerCase() === "agents");
  return agents
    ? { path: file, dir, openAiYaml: path.join(dir, agents.name, "openai.yaml") }
    : { path: file, dir };
}

/**
 * `path.join` for a canonical directory and one name from its listing, which holds no separator and
 * is never `.` or `..`: nothing to normalise, and join's normalisation is the scan's main JS cost.
 */
function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/** For a symlinked SKILL.md the target's directory listing is unknown; try the usual spelling. */
function agentsYaml(dir: string): string {
  return path.join(dir, "agents", "openai.yaml");
}

function listDir(fs: FileSystem, dir: string): DirEntry[] | { error: string } {
  try {
    const entries = fs.sync.readDir(dir);
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    return { error: (error as { code?: string }).code ?? (error as Error).message };
  }
}
