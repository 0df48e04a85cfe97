import * as path from "node:path";
import type { Platform } from "../platform/mod.ts";
import { type Diagnostic, UsageError, warning } from "../shared/mod.ts";
import { copyTree } from "./copy_tree.ts";
import { writeInstallRecord } from "./install_record.ts";
import { readInstallRecord } from "./install_record.ts";
import { loadManifest } from "./load_manifest.ts";
import { installBlockReason, type MarketplaceEntry } from "./marketplace_file.ts";
import type { LoadedMarketplace } from "./marketplace_registry.ts";
import type { NpmLimits } from "./npm_source.ts";
import { isValidVersionSegment, type PluginId } from "./plugin_id.ts";
import { fetchSource } from "./source_fetch.ts";
import { activeVersion, publishVersion, recoverStore } from "./store.ts";
import { pluginDataDir, type StoreLayout } from "./store_layout.ts";

export interface InstallOptions {
  platform: Platform;
  layout: StoreLayout;
  marketplace: LoadedMarketplace;
  entry: MarketplaceEntry;
  npmLimits?: NpmLimits;
  /** For `update`: keep the installed version when the fetched content has the same digest. */
  skipIfUnchanged?: boolean;
}

export interface InstallResult {
  id: string;
  version: string;
  digest: string;
  root: string;
  /** False when `skipIfUnchanged` found the same digest already installed. */
  changed: boolean;
  previous?: { version: string; digest?: string };
  diagnostics: Diagnostic[];
}

/**
 * Fetch → validate (PL-8) → stage a copy of regular files and dirs → record its digest → publish by
 * rename. Any failure before the rename removes the staging dir and leaves the store as it was.
 */
export async function installPlugin(options: InstallOptions): Promise<InstallResult> {
  const { platform, layout, marketplace, entry } = options;
  const fs = platform.fs;
  const id: PluginId = {
    plugin: entry.name,
    marketplace: marketplace.name,
    key: `${entry.name}@${marketplace.name}`,
  };
  const blocked = installBlockReason(entry, marketplace.name);
  if (blocked) throw new UsageError(`Cannot install "${id.key}": ${blocked}`, { plugin: id.key });
  await recoverStore(fs, layout);
  await fs.mkdir(layout.stagingDir);
  const work = await fs.makeTempDir("plugin-install-", layout.stagingDir);
  try {
    const fetched = await fetchSource(platform, {
      marketplace,
      entry,
      workDir: work,
      npmLimits: options.npmLimits,
    });
    const { manifest, diagnostics } = await loadManifest(fs, fetched.dir, { dirName: entry.name });
    if (!manifest) {
      const why = diagnostics[0]?.message ?? "missing or invalid plugin.json";
      throw new UsageError(`Cannot install "${id.key}": missing or invalid plugin.json (${why})`, {
        plugin: id.key,
      });
    }
    if (manifest.name !== entry.name) {
      throw new UsageError(
        `Cannot install "${id.key}": plugin manifest name \`${manifest.name}\` does not match marketplace plugin name \`${entry.name}\``,
        { plugin: id.key },
      );
    }
    const version = manifest.version ?? "local";
    if (!isValidVersionSegment(version)) {
      throw new UsageError(`Cannot install "${id.key}": invalid version segment "${version}"`, {
        plugin: id.key,
      });
    }
    const staged = path.join(work, "bundle");
    const copied = await copyTree(fs, fetched.dir, staged);
    for (const skipped of copied.skipped) {
      diagnostics.push(
        warning(`skipped ${skipped}: symlinks and special files are not installed`, { subject: id.key }),
      );
    }
    const current = await activeVersion(fs, layout, id);
    const currentRecord = current ? await readInstallRecord(fs, current.root) : null;
    const previous = current ? { version: current.version, digest: currentRecord?.digest } : undefined;
    const result = { id: id.key, version, digest: copied.digest, previous, diagnostics };
    if (options.skipIfUnchanged && current?.version === version && currentRecord?.digest === copied.digest) {
      return { ...result, root: current.root, changed: false };
    }
    await writeInstallRecord(fs, staged, {
      schema: 1,
      id: id.key,
      version,
      digest: copied.digest,
      files: copied.files,
      source: entry.source,
      installedAt: new Date().toISOString(),
    });
    await publishVersion(fs, layout, id, version, staged);
    await fs.mkdir(pluginDataDir(layout, id));
    return { ...result, root: path.join(layout.cacheDir, id.marketplace, id.plugin, version), changed: true };
  } finally {
    await fs.remove(work, { recursive: true });
  }
}
