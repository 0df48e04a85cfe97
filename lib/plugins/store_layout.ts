import * as path from "node:path";
import { memo } from "../shared/mod.ts";
import type { PluginId } from "./plugin_id.ts";
import { isValidVersionSegment } from "./plugin_id.ts";

/**
 * Where things live under `$TRELLIS_HOME/plugins` (PL-7). Staging, backups and trash sit beside the
 * cache on the same file system so that every publish is a rename.
 */
export interface StoreLayout {
  pluginsDir: string;
  cacheDir: string;
  dataDir: string;
  stagingDir: string;
  backupDir: string;
  trashDir: string;
  journalDir: string;
  marketplacesDir: string;
  /** Install records (`<plugin>@<marketplace>.json`): the anchor `verify` checks bundles against. */
  recordsDir: string;
  declinedFile: string;
}

export function storeLayout(trellisHome: string): StoreLayout {
  const pluginsDir = path.join(trellisHome, "plugins");
  return {
    pluginsDir,
    cacheDir: path.join(pluginsDir, "cache"),
    dataDir: path.join(pluginsDir, "data"),
    stagingDir: path.join(pluginsDir, ".staging"),
    backupDir: path.join(pluginsDir, ".backup"),
    trashDir: path.join(pluginsDir, ".trash"),
    journalDir: path.join(pluginsDir, ".journal"),
    marketplacesDir: path.join(pluginsDir, "marketplaces"),
    recordsDir: path.join(pluginsDir, "records"),
    declinedFile: path.join(pluginsDir, "declined.json"),
  };
}

export function pluginBaseDir(layout: StoreLayout, id: PluginId): string {
  return path.join(layout.cacheDir, id.marketplace, id.plugin);
}

/**
 * `<plugin>@<marketplace>`: `@` is in neither name's alphabet, so two ids never share a data dir
 * (the `<plugin>-<marketplace>` of earlier versions mapped `x-y@z` and `x@y-z` to one; #13).
 */
export function pluginDataDir(layout: StoreLayout, id: PluginId): string {
  return path.join(layout.dataDir, `${id.plugin}@${id.marketplace}`);
}

/** The data dir name earlier versions (and Codex) used; ambiguous, so only ever migrated from. */
export function legacyPluginDataDir(layout: StoreLayout, id: PluginId): string {
  return path.join(layout.dataDir, `${id.plugin}-${id.marketplace}`);
}

export function installRecordFile(layout: StoreLayout, id: PluginId): string {
  return path.join(layout.recordsDir, `${id.plugin}@${id.marketplace}.json`);
}

type Semver = typeof import("semver");

/** semver is loaded on first comparison: a plugin usually has one version, and loading costs ~3 ms. */
const loadSemver = memo(() => import("semver").then((m) => (m.default ?? m) as Semver));

/** `local` wins; then the highest by semver (1.10.0 > 1.9.0); semver beats non-semver; then text. */
export async function compareVersions(a: string, b: string): Promise<number> {
  if (a === b) return 0;
  if (a === "local") return 1;
  if (b === "local") return -1;
  const semver = await loadSemver();
  const va = semver.valid(a);
  const vb = semver.valid(b);
  if (va && vb) return semver.compare(va, vb);
  if (va) return 1;
  if (vb) return -1;
  return a < b ? -1 : 1;
}

export async function pickActiveVersion(versions: string[]): Promise<string | null> {
  const valid = versions.filter(isValidVersionSegment);
  let best: string | null = valid[0] ?? null;
  for (const v of valid.slice(1)) if (await compareVersions(v, best!) > 0) best = v;
  return best;
}
