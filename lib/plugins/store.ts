import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import type { PluginId } from "./plugin_id.ts";
import { isValidMarketplaceName, isValidPluginName, isValidVersionSegment } from "./plugin_id.ts";
import { pickActiveVersion, pluginBaseDir, type StoreLayout } from "./store_layout.ts";

/**
 * The bundle store. Every change is a rename of a complete directory, and replacing a version that
 * already exists is journalled (target → backup, staged → target) so a process killed between the
 * two renames leaves a state that readers resolve to the old version and the next writer repairs.
 */

interface SwapJournal {
  target: string;
  backup: string;
}

export interface ActiveVersion {
  version: string;
  root: string;
}

/** Version dirs of a plugin, plus versions mid-swap whose old copy sits in the backup dir. */
export async function installedVersions(
  fs: FileSystem,
  layout: StoreLayout,
  id: PluginId,
): Promise<Map<string, string>> {
  const base = pluginBaseDir(layout, id);
  const found = new Map<string, string>();
  if (await fs.stat(base)) {
    for (const entry of await fs.readDir(base)) {
      if (entry.isDirectory && isValidVersionSegment(entry.name)) {
        found.set(entry.name, path.join(base, entry.name));
      }
    }
  }
  for (const journal of await readJournals(fs, layout)) {
    if (path.dirname(journal.target) !== base) continue;
    const version = path.basename(journal.target);
    if (!found.has(version) && (await fs.stat(journal.backup))) found.set(version, journal.backup);
  }
  return found;
}

export async function activeVersion(
  fs: FileSystem,
  layout: StoreLayout,
  id: PluginId,
): Promise<ActiveVersion | null> {
  const versions = await installedVersions(fs, layout, id);
  const version = await pickActiveVersion([...versions.keys()]);
  return version ? { version, root: versions.get(version)! } : null;
}

/**
 * Publishes a fully staged version dir as `<base>/<version>` and retires every other version, so the
 * plugin dir ends up holding only the new one (as in Codex), with no window where none is complete.
 */
export async function publishVersion(
  fs: FileSystem,
  layout: StoreLayout,
  id: PluginId,
  version: string,
  staged: string,
): Promise<void> {
  await recoverStore(fs, layout);
  const base = pluginBaseDir(layout, id);
  const target = path.join(base, version);
  await fs.mkdir(base);
  if (await fs.lstat(target)) {
    await fs.mkdir(layout.backupDir);
    const backup = await uniquePath(fs, layout.backupDir, `${id.plugin}-${id.marketplace}-${version}`);
    const journal = journalFile(layout, id, version);
    await fs.writeFileAtomic(journal, JSON.stringify({ target, backup } satisfies SwapJournal));
    await fs.rename(target, backup);
    try {
      await fs.rename(staged, target);
    } catch (error) {
      await fs.rename(backup, target); // rollback: the old version goes back in place
      await fs.remove(journal);
      throw error;
    }
    await fs.remove(journal);
    await discard(fs, layout, backup);
  } else {
    await fs.rename(staged, target);
  }
  for (const entry of await fs.readDir(base)) {
    if (entry.name !== version) await discard(fs, layout, path.join(base, entry.name));
  }
}

/** Moves a dir to the trash in one rename, then deletes it: nobody ever sees a half-deleted version. */
export async function discard(fs: FileSystem, layout: StoreLayout, dir: string): Promise<void> {
  await fs.mkdir(layout.trashDir);
  const trashed = await uniquePath(fs, layout.trashDir, path.basename(dir));
  await fs.rename(dir, trashed);
  await fs.remove(trashed, { recursive: true });
}

/** Finishes or undoes interrupted swaps and empties the trash; run before every store write. */
export async function recoverStore(fs: FileSystem, layout: StoreLayout): Promise<void> {
  for (const journal of await readJournals(fs, layout)) {
    const targetExists = !!(await fs.lstat(journal.target));
    const backupExists = !!(await fs.lstat(journal.backup));
    if (!targetExists && backupExists) await fs.rename(journal.backup, journal.target);
    else if (backupExists) await fs.remove(journal.backup, { recursive: true });
    await fs.remove(journal.file);
  }
  if (await fs.stat(layout.trashDir)) {
    for (const entry of await fs.readDir(layout.trashDir)) {
      await fs.remove(path.join(layout.trashDir, entry.name), { recursive: true });
    }
  }
  await removeStaleStaging(fs, layout);
}

// A staging dir may belong to an install running in another process; only old ones are garbage.
const STALE_STAGING_MS = 10 * 60 * 1000;

async function removeStaleStaging(fs: FileSystem, layout: StoreLayout): Promise<void> {
  if (!(await fs.stat(layout.stagingDir))) return;
  for (const entry of await fs.readDir(layout.stagingDir)) {
    const full = path.join(layout.stagingDir, entry.name);
    const info = await fs.lstat(full);
    if (info && Date.now() - info.mtimeMs > STALE_STAGING_MS) await fs.remove(full, { recursive: true });
  }
}

function journalFile(layout: StoreLayout, id: PluginId, version: string): string {
  return path.join(layout.journalDir, `${id.marketplace}~${id.plugin}~${version}.json`);
}

async function readJournals(
  fs: FileSystem,
  layout: StoreLayout,
): Promise<(SwapJournal & { file: string })[]> {
  if (!(await fs.stat(layout.journalDir))) return [];
  const out: (SwapJournal & { file: string })[] = [];
  for (const entry of await fs.readDir(layout.journalDir)) {
    if (!entry.name.endsWith(".json")) continue;
    const file = path.join(layout.journalDir, entry.name);
    try {
      const parsed = JSON.parse(await fs.readTextFile(file)) as SwapJournal;
      if (typeof parsed.target === "string" && typeof parsed.backup === "string") {
        out.push({ ...parsed, file });
      }
    } catch {
      // a journal is written by temp + rename, so an unreadable one is foreign: leave it alone
    }
  }
  return out;
}

async function uniquePath(fs: FileSystem, dir: string, name: string): Promise<string> {
  for (let i = 0;; i++) {
    const candidate = path.join(dir, `${name}.${Date.now().toString(36)}${i}`);
    if (!(await fs.lstat(candidate))) return candidate;
  }
}

/** Ids of every plugin with a bundle in the store (configured or not), sorted. */
export async function installedPluginIds(fs: FileSystem, layout: StoreLayout): Promise<PluginId[]> {
  const ids: PluginId[] = [];
  if (!(await fs.stat(layout.cacheDir))) return ids;
  for (const m of await fs.readDir(layout.cacheDir)) {
    if (!m.isDirectory || !isValidMarketplaceName(m.name)) continue;
    for (const p of await fs.readDir(path.join(layout.cacheDir, m.name))) {
      if (!p.isDirectory || !isValidPluginName(p.name)) continue;
      const id = { plugin: p.name, marketplace: m.name, key: `${p.name}@${m.name}` };
      if (await activeVersion(fs, layout, id)) ids.push(id);
    }
  }
  return ids.sort((a, b) => (a.key < b.key ? -1 : 1));
}
