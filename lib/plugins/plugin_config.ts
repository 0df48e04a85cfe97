import { editConfigFile, removeKey, setKey } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import type { MarketplaceSetting } from "./marketplace_registry.ts";

/** Writes of the user config for plugins: locked, checked, format-preserving edits (editConfigFile). */

export async function setPluginEnabled(
  fs: FileSystem,
  userConfig: string,
  id: string,
  enabled: boolean,
): Promise<void> {
  await editConfigFile(fs, userConfig, () => [setKey(["plugins", id, "enabled"], enabled)]);
}

export async function removePluginConfig(fs: FileSystem, userConfig: string, id: string): Promise<void> {
  await editConfigFile(fs, userConfig, () => [removeKey(["plugins", id])]);
}

export async function writeMarketplaceSetting(
  fs: FileSystem,
  userConfig: string,
  setting: MarketplaceSetting,
): Promise<void> {
  const entries: Record<string, string> = { source: setting.source, kind: setting.kind };
  if (setting.ref) entries.ref = setting.ref;
  await editConfigFile(fs, userConfig, () => [
    removeKey(["marketplaces", setting.name]),
    ...Object.entries(entries).map(([key, value]) => setKey(["marketplaces", setting.name, key], value)),
  ]);
}

export async function removeMarketplaceSetting(
  fs: FileSystem,
  userConfig: string,
  name: string,
): Promise<void> {
  await editConfigFile(fs, userConfig, () => [removeKey(["marketplaces", name])]);
}
