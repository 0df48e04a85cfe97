import type { LoadedConfig } from "../config/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import { installPlugin, type InstallResult } from "./installer.ts";
import type { MarketplaceEntry } from "./marketplace_file.ts";
import { type LoadedMarketplace, loadMarketplaces } from "./marketplace_registry.ts";
import type { NpmLimits } from "./npm_source.ts";
import { setPluginEnabled } from "./plugin_config.ts";
import { invalidPluginKeyMessage, parsePluginId, type PluginId } from "./plugin_id.ts";
import { type StoreLayout, storeLayout } from "./store_layout.ts";

export interface PluginOpOptions {
  platform: Platform;
  loaded: LoadedConfig;
  layout?: StoreLayout;
  npmLimits?: NpmLimits;
}

export function requirePluginId(key: string): PluginId {
  const id = parsePluginId(key);
  if (!id) {
    throw new UsageError(`Cannot use plugin "${key}": ${invalidPluginKeyMessage(key)}`, { plugin: key });
  }
  return id;
}

/** The marketplace entry an id names, or a UsageError that says which half is unknown. */
export async function findEntry(
  options: PluginOpOptions,
  id: PluginId,
): Promise<{ marketplace: LoadedMarketplace; entry: MarketplaceEntry }> {
  const layout = options.layout ?? storeLayout(options.loaded.paths.home);
  const { marketplaces, diagnostics } = await loadMarketplaces(options.platform.fs, options.loaded, layout);
  const marketplace = marketplaces.find((m) => m.name === id.marketplace);
  if (!marketplace) {
    const failed = diagnostics.find((d) => d.subject === id.marketplace);
    throw new UsageError(
      `Cannot install "${id.key}": ${
        failed
          ? failed.message
          : `marketplace "${id.marketplace}" is not configured (run \`trellis plugin marketplace add\`)`
      }`,
      { plugin: id.key },
    );
  }
  const entry = marketplace.entries.find((e) => e.name === id.plugin);
  if (!entry) {
    throw new UsageError(
      `Cannot install "${id.key}": marketplace "${id.marketplace}" does not list "${id.plugin}"`,
    );
  }
  return { marketplace, entry };
}

/** `trellis plugin install ID`: installs, then enables it in the user config. */
export async function installById(options: PluginOpOptions & { id: string }): Promise<InstallResult> {
  const id = requirePluginId(options.id);
  const layout = options.layout ?? storeLayout(options.loaded.paths.home);
  const { marketplace, entry } = await findEntry(options, id);
  const result = await installPlugin({
    platform: options.platform,
    layout,
    marketplace,
    entry,
    npmLimits: options.npmLimits,
  });
  await setPluginEnabled(options.platform.fs, options.loaded.paths.userConfig, id.key, true);
  return result;
}

/** `trellis plugin update [ID]`: re-fetches and republishes whatever changed by digest, not by version. */
export async function updateById(options: PluginOpOptions & { id: string }): Promise<InstallResult> {
  const id = requirePluginId(options.id);
  const layout = options.layout ?? storeLayout(options.loaded.paths.home);
  const { marketplace, entry } = await findEntry(options, id);
  return await installPlugin({
    platform: options.platform,
    layout,
    marketplace,
    entry,
    npmLimits: options.npmLimits,
    skipIfUnchanged: true,
  });
}
