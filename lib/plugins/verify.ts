import type { FileSystem } from "../platform/mod.ts";
import { digestTree } from "./content_digest.ts";
import { readInstallRecord } from "./install_record.ts";
import type { PluginId } from "./plugin_id.ts";
import { activeVersion, discard, recoverStore } from "./store.ts";
import { pluginBaseDir, pluginDataDir, type StoreLayout } from "./store_layout.ts";

export type VerifyStatus = "ok" | "modified" | "no_record" | "not_installed";

export interface VerifyResult {
  id: string;
  status: VerifyStatus;
  version?: string;
  expected?: string;
  actual?: string;
  /** Symlinks or special files found in the store (never installed by Trellis, so tampering). */
  unexpected: string[];
}

/** Re-hashes the active version and compares it with the digest recorded at install time. */
export async function verifyPlugin(fs: FileSystem, layout: StoreLayout, id: PluginId): Promise<VerifyResult> {
  const active = await activeVersion(fs, layout, id);
  if (!active) return { id: id.key, status: "not_installed", unexpected: [] };
  const record = await readInstallRecord(fs, active.root);
  const { digest, skipped } = await digestTree(fs, active.root);
  const base = { id: id.key, version: active.version, actual: digest, unexpected: skipped };
  if (!record) return { ...base, status: "no_record" };
  const status = record.digest === digest && skipped.length === 0 ? "ok" : "modified";
  return { ...base, status, expected: record.digest };
}

/** Removes every installed version; the data dir survives unless `purge` (PL-7). */
export async function uninstallPlugin(
  fs: FileSystem,
  layout: StoreLayout,
  id: PluginId,
  options: { purge?: boolean } = {},
): Promise<{ removed: boolean; purged: boolean }> {
  await recoverStore(fs, layout);
  const base = pluginBaseDir(layout, id);
  const removed = !!(await fs.lstat(base));
  if (removed) await discard(fs, layout, base);
  const data = pluginDataDir(layout, id);
  const purged = !!options.purge && !!(await fs.lstat(data));
  if (purged) await discard(fs, layout, data);
  return { removed, purged };
}
