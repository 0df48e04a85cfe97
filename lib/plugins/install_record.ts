import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { INSTALL_RECORD_FILE } from "./content_digest.ts";
import type { PluginSource } from "./marketplace_file.ts";

/**
 * What was installed, written inside the staged version dir (temp file + rename) before the dir is
 * published, so a published version and its record appear together in one rename.
 */
export interface InstallRecord {
  schema: 1;
  id: string;
  version: string;
  digest: string;
  files: number;
  source: PluginSource;
  installedAt: string;
}

export async function writeInstallRecord(
  fs: FileSystem,
  versionDir: string,
  record: InstallRecord,
): Promise<void> {
  await fs.writeFileAtomic(
    path.join(versionDir, INSTALL_RECORD_FILE),
    JSON.stringify(record, null, 2) + "\n",
  );
}

export async function readInstallRecord(fs: FileSystem, versionDir: string): Promise<InstallRecord | null> {
  try {
    const parsed = JSON.parse(await fs.readTextFile(path.join(versionDir, INSTALL_RECORD_FILE)));
    return parsed?.schema === 1 && typeof parsed.digest === "string" ? parsed as InstallRecord : null;
  } catch {
    return null;
  }
}
