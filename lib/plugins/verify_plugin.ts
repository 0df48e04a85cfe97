import type { FileSystem } from "../platform/mod.ts";
import { digestTree } from "./content_digest.ts";
import { readInstallRecord } from "./install_record.ts";
import type { PluginId } from "./plugin_id.ts";
import { activeVersion } from "./store.ts";
import type { StoreLayout } from "./store_layout.ts";

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

/**
 * Re-hashes the active version and compares it with the install record under
 * `$TRELLIS_HOME/plugins/records/` — never with anything inside the bundle, which whoever changed the
 * files could have rewritten too. A record of another version does not vouch for this one.
 */
export async function verifyPlugin(fs: FileSystem, layout: StoreLayout, id: PluginId): Promise<VerifyResult> {
  const active = await activeVersion(fs, layout, id);
  if (!active) return { id: id.key, status: "not_installed", unexpected: [] };
  const record = await readInstallRecord(fs, layout, id);
  const { digest, skipped } = await digestTree(fs, active.root);
  const base = { id: id.key, version: active.version, actual: digest, unexpected: skipped };
  if (!record || record.version !== active.version) return { ...base, status: "no_record" };
  const status = record.digest === digest && skipped.length === 0 ? "ok" : "modified";
  return { ...base, status, expected: record.digest };
}
