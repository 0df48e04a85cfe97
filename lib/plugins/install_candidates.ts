import type { FileSystem } from "../platform/mod.ts";
import { installBlockReason } from "./marketplace_file.ts";
import { loadMarketplaces } from "./marketplace_registry.ts";
import type { PluginOpOptions } from "./plugin_operations.ts";
import { installedPluginIds } from "./store.ts";
import { type StoreLayout, storeLayout } from "./store_layout.ts";

/** A plugin the model may suggest installing (PL-13). */
export interface InstallCandidate {
  id: string;
  name: string;
  marketplace: string;
  description?: string;
}

/** Installable (policy, product), not installed, and not declined before. */
export async function listInstallCandidates(options: PluginOpOptions): Promise<InstallCandidate[]> {
  const fs = options.platform.fs;
  const layout = options.layout ?? storeLayout(options.loaded.paths.home);
  const { marketplaces } = await loadMarketplaces(fs, options.loaded, layout);
  const installed = new Set((await installedPluginIds(fs, layout)).map((id) => id.key));
  const declined = new Set(readDeclined(fs, layout));
  return marketplaces.flatMap((m) =>
    m.entries.filter((e) => !installBlockReason(e, m.name)).map((e) => ({
      id: `${e.name}@${m.name}`,
      name: e.name,
      marketplace: m.name,
      ...(e.description ? { description: e.description } : {}),
    }))
  ).filter((c) => !installed.has(c.id) && !declined.has(c.id));
}

export function readDeclined(fs: FileSystem, layout: StoreLayout): string[] {
  try {
    const parsed = JSON.parse(fs.sync.readTextFile(layout.declinedFile)); // every start: blocking
    return Array.isArray(parsed?.declined)
      ? parsed.declined.filter((d: unknown) => typeof d === "string")
      : [];
  } catch {
    return [];
  }
}

/** Remembers a declined suggestion so the model is not offered it again (temp file + rename). */
export async function rememberDeclined(fs: FileSystem, layout: StoreLayout, id: string): Promise<void> {
  const declined = new Set(readDeclined(fs, layout));
  declined.add(id);
  await fs.writeFileAtomic(
    layout.declinedFile,
    JSON.stringify({ declined: [...declined].sort() }, null, 2) + "\n",
  );
}
