import type { FileInfo, FileSystem } from "../platform/mod.ts";
import type { SkillMetadata } from "./types.ts";

/**
 * What one SKILL.md's frontmatter parsed to, without where it was found (the location is added
 * again from the scan): the part of a start that reads and parses ~600 files of a plugin-heavy home.
 */
export type CachedSkill = {
  fields: Omit<SkillMetadata, "path" | "dir" | "scope" | "root" | "authority" | "plugin">;
  warnings: string[];
};

type Entry = { stat: string; value: CachedSkill };

/** Bumped whenever what a SKILL.md parses to changes shape or meaning: an older cache is ignored. */
const CACHE_VERSION = 1;
/** A file modified this recently may change again within the clock's tick unseen: not cached. */
const SETTLED_MS = 2_000;
/** Beyond this many entries (many projects' trees), only the entries of this load are kept. */
const MAX_ENTRIES = 20_000;

/**
 * The skill metadata cache in `$TRELLIS_HOME/cache/skills_metadata.json`. The scan still walks every
 * root each start, so an added or removed SKILL.md or folder is seen as before; what is reused is a
 * file's parse, and only while its path, size, mtime and inode all match what was read. A missing,
 * corrupt or other-version cache is an empty one, never an error; writing is atomic, mode 0600, and
 * best effort.
 */
export class SkillMetadataCache {
  #entries: Map<string, Entry>;
  #used = new Set<string>();
  #changed = false;

  private constructor(
    private readonly fs: FileSystem,
    private readonly file: string,
    entries: Map<string, Entry>,
  ) {
    this.#entries = entries;
  }

  static open(fs: FileSystem, file: string): SkillMetadataCache {
    return new SkillMetadataCache(fs, file, readEntries(fs, file));
  }

  /** The stat key of a file, or null when it cannot be cached (missing, not settled, no inode). */
  statKey(path: string): string | null {
    let info: FileInfo | null;
    try {
      info = this.fs.sync.lstat(path);
    } catch {
      return null;
    }
    if (!info || !info.isFile || !info.ino || Date.now() - info.mtimeMs < SETTLED_MS) return null;
    return `${info.mtimeMs}:${info.size}:${info.ino}`;
  }

  get(key: string, stat: string): CachedSkill | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.stat !== stat) {
      this.#entries.delete(key);
      this.#changed = true;
      return undefined;
    }
    this.#used.add(key);
    return entry.value;
  }

  set(key: string, stat: string, value: CachedSkill): void {
    this.#entries.set(key, { stat, value });
    this.#used.add(key);
    this.#changed = true;
  }

  async save(): Promise<void> {
    if (!this.#changed) return;
    let entries = [...this.#entries];
    if (entries.length > MAX_ENTRIES) entries = entries.filter(([key]) => this.#used.has(key));
    const body = JSON.stringify({ version: CACHE_VERSION, entries: Object.fromEntries(entries) });
    try {
      await this.fs.writeFileAtomic(this.file, body, { mode: 0o600 });
      this.#changed = false;
    } catch {
      // an optimisation only: the next start parses the files again
    }
  }
}

function readEntries(fs: FileSystem, file: string): Map<string, Entry> {
  try {
    const raw = JSON.parse(fs.sync.readTextFile(file));
    if (raw?.version !== CACHE_VERSION || typeof raw.entries !== "object" || raw.entries === null) {
      return new Map();
    }
    const entries = new Map<string, Entry>();
    for (const [key, entry] of Object.entries(raw.entries as Record<string, Entry>)) {
      if (typeof entry?.stat === "string" && isCachedSkill(entry.value)) entries.set(key, entry);
    }
    return entries;
  } catch {
    return new Map(); // absent, torn, or not JSON: read the files instead
  }
}

function isCachedSkill(value: unknown): value is CachedSkill {
  const v = value as CachedSkill | null;
  return typeof v === "object" && v !== null && typeof v.fields === "object" && v.fields !== null &&
    typeof (v.fields as { name?: unknown }).name === "string" && Array.isArray(v.warnings) &&
    v.warnings.every((w) => typeof w === "string");
}
