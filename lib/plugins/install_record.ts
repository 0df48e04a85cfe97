import type { FileSystem } from "../platform/mod.ts";
import type { EntryManifest } from "./effective_manifest.ts";
import type { PluginSource } from "./marketplace_file.ts";
import type { PluginId } from "./plugin_id.ts";
import { installRecordFile, type StoreLayout } from "./store_layout.ts";

/**
 * What was installed, kept under `$TRELLIS_HOME/plugins/records/`, outside the bundle it describes:
 * the digest `verify` checks a bundle against must not be writable by whoever can change the bundle
 * (a record inside it was rewritten along with the files; #13). Written by temp file + rename once
 * the version is published; a version without a record is reported, never trusted.
 */
export interface InstallRecord {
  schema: 2;
  id: string;
  version: string;
  digest: string;
  files: number;
  source: PluginSource;
  installedAt: string;
  /** Manifest fields the marketplace entry carried (Claude Code `strict`), applied at every load. */
  entry?: EntryManifest;
}

export async function writeInstallRecord(
  fs: FileSystem,
  layout: StoreLayout,
  id: PluginId,
  record: InstallRecord,
): Promise<void> {
  await fs.writeFileAtomic(installRecordFile(layout, id), JSON.stringify(record, null, 2) + "\n");
}

export async function readInstallRecord(
  fs: FileSystem,
  layout: StoreLayout,
  id: PluginId,
): Promise<InstallRecord | null> {
  try {
    const parsed = JSON.parse(await fs.readTextFile(installRecordFile(layout, id)));
    return parsed?.schema === 2 && typeof parsed.digest === "string" && parsed.id === id.key
      ? parsed as InstallRecord
      : null;
  } catch {
    return null;
  }
}

export async function removeInstallRecord(fs: FileSystem, layout: StoreLayout, id: PluginId): Promise<void> {
  await fs.remove(installRecordFile(layout, id));
}
