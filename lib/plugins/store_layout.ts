import * as path from "node:path";
import semver from "semver";
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
    declinedFile: path.join(pluginsDir, "declined.json"),
  };
}

export function pluginBaseDir(layout: StoreLayout, id: PluginId): string {
  return path.join(layout.cacheDir, id.marketplace, id.plugin);
}

export function pluginDataDir(layout: StoreLayout, id: PluginId): string {
  return path.join(layout.dataDir, `${id.plugin}-${id.marketplace}`);
}

/** `local` wins; then the highest by semver (1.10.0 > 1.9.0); semver beats non-semver; then text. */
export function compareVersions(a: string, b: string): number {
  if (a === b) return 0;
  if (a === "local") return 1;
  if (b === "local") return -1;
  const va = semver.valid(a);
  const vb = semver.valid(b);
  if (va && vb) return semver.compare(va, vb);
  if (va) return 1;
  if (vb) return -1;
  return a < b ? -1 : 1;
}

export function pickActiveVersion(versions: string[]): string | null {
  const valid = versions.filter(isValidVersionSegment);
  if (valid.length === 0) return null;
  return valid.reduce((best, v) => (compareVersions(v, best) > 0 ? v : best));
}
