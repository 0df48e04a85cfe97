import * as path from "node:path";
import type { Platform } from "../platform/mod.ts";
import { type Diagnostic, UsageError, warning } from "../shared/mod.ts";
import { copyTree } from "./copy_tree.ts";
import { resolveDataDir } from "./data_dir.ts";
import { effectiveManifest } from "./effective_manifest.ts";
import { readInstallRecord, writeInstallRecord } from "./install_record.ts";
import { installReport } from "./install_report.ts";
import { loadManifest } from "./load_manifest.ts";
import { installBlockReason, type MarketplaceEntry } from "./marketplace_file.ts";
import type { LoadedMarketplace } from "./marketplace_registry.ts";
import { DEFAULT_NPM_LIMITS, type NpmLimits } from "./npm_source.ts";
import { loadCapabilities } from "./plugin_capabilities.ts";
import { isValidVersionSegment, type PluginId } from "./plugin_id.ts";
import type { PluginComponent } from "./plugin_types.ts";
import { fetchSource } from "./source_fetch.ts";
import { activeVersion, installedPluginIds, publishVersion, recoverStore } from "./store.ts";
import { pluginDataDir, type StoreLayout } from "./store_layout.ts";

export interface InstallOptions {
  platform: Platform;
  layout: StoreLayout;
  marketplace: LoadedMarketplace;
  entry: MarketplaceEntry;
  /** npm archive limits; `maxUnpackedBytes` also bounds local and git bundles. */
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
  /** Every component the plugin brought and what became of it. */
  components: PluginComponent[];
  diagnostics: Diagnostic[];
}

/**
 * Fetch → manifest (plugin.json, the marketplace entry, or the default layout) → validate (PL-8) →
 * stage a size-bounded copy of regular files and dirs → publish by rename → record its digest under
 * `plugins/records/`. Any failure before the rename removes the staging dir and leaves the store as
 * it was.
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
    const file = await loadManifest(fs, fetched.dir, { dirName: entry.name });
    if (file.manifest && file.manifest.name !== entry.name) {
      throw new UsageError(
        `Cannot install "${id.key}": plugin manifest name \`${file.manifest.name}\` does not match marketplace plugin name \`${entry.name}\``,
        { plugin: id.key },
      );
    }
    const { manifest, diagnostics } = effectiveManifest(file, {
      name: entry.name,
      entry: entry.manifest,
      where: id.key,
    });
    const version = manifest.version ?? "local";
    if (!isValidVersionSegment(version)) {
      throw new UsageError(`Cannot install "${id.key}": invalid version segment "${version}"`, {
        plugin: id.key,
      });
    }
    const staged = path.join(work, "bundle");
    const maxBytes = (options.npmLimits ?? DEFAULT_NPM_LIMITS).maxUnpackedBytes;
    const copied = await copyTree(fs, fetched.dir, staged, { maxBytes, label: id.key });
    for (const skipped of copied.skipped) {
      diagnostics.push(
        warning(`${id.key}: skipped ${skipped}: symlinks and special files are not installed`, {
          subject: id.key,
        }),
      );
    }
    const current = await activeVersion(fs, layout, id);
    const currentRecord = current ? await readInstallRecord(fs, layout, id) : null;
    const previous = current ? { version: current.version, digest: currentRecord?.digest } : undefined;
    const caps = await loadCapabilities(fs, {
      id: id.key,
      root: staged,
      dataDir: pluginDataDir(layout, id),
      manifest,
    });
    const components = caps.components.map((c) => ({ ...c }));
    const result = { id: id.key, version, digest: copied.digest, previous, components, diagnostics };
    if (
      options.skipIfUnchanged && current?.version === version && currentRecord?.version === version &&
      currentRecord.digest === copied.digest
    ) {
      return { ...result, root: current.root, changed: false };
    }
    diagnostics.push(...caps.diagnostics.map((d) => ({ ...d, message: d.message.replaceAll(staged, ".") })));
    await publishVersion(fs, layout, id, version, staged);
    await writeInstallRecord(fs, layout, id, {
      schema: 2,
      id: id.key,
      version,
      digest: copied.digest,
      files: copied.files,
      source: entry.source,
      installedAt: new Date().toISOString(),
      ...(entry.manifest ? { entry: entry.manifest } : {}),
    });
    const data = await resolveDataDir(fs, layout, id, {
      create: true,
      knownIds: async () => (await installedPluginIds(fs, layout)).map((i) => i.key),
    });
    diagnostics.push(...data.diagnostics, ...installReport(id.key, components));
    return { ...result, root: path.join(layout.cacheDir, id.marketplace, id.plugin, version), changed: true };
  } finally {
    await fs.remove(work, { recursive: true });
  }
}
