import { editConfigFile, removeTomlTable, setTomlTable, setTomlValue } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import type { MarketplaceSetting } from "./marketplace_registry.ts";

/** Writes of the user config for plugins: format-preserving edits landed by temp file + rename. */

export async function setPluginEnabled(
  fs: FileSystem,
  userConfig: string,
  id: string,
  enabled: boolean,
): Promise<void> {
  await editConfigFile(fs, userConfig, (text) => setTomlValue(text, ["plugins", id], "enabled", enabled));
}

export async function removePluginConfig(fs: FileSystem, userConfig: string, id: string): Promise<void> {
  await editConfigFile(fs, userConfig, (text) => removeTomlTable(text, ["plugins", id]));
}

export async function writeMarketplaceSetting(
  fs: FileSystem,
  userConfig: string,
  setting: MarketplaceSetting,
): Promise<void> {
  const entries: Record<string, string> = { source: setting.source, kind: setting.kind };
  if (setting.ref) entries.ref = setting.ref;
  await editConfigFile(fs, userConfig, (text) => setTomlTable(text, ["marketplaces", setting.name], entries));
}

export async function removeMarketplaceSetting(
  fs: FileSystem,
  userConfig: string,
  name: string,
): Promise<void> {
  await editConfigFile(fs, userConfig, (text) => removeTomlTable(text, ["marketplaces", name]));
}
