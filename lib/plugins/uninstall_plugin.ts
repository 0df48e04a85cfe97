import type { FileSystem } from "../platform/mod.ts";
import type { Diagnostic } from "../shared/mod.ts";
import { resolveDataDir } from "./data_dir.ts";
import { removeInstallRecord } from "./install_record.ts";
import type { PluginId } from "./plugin_id.ts";
import { discard, installedPluginIds, recoverStore } from "./store.ts";
import { pluginBaseDir, type StoreLayout } from "./store_layout.ts";

/** Removes every installed version and its record; the data dir survives unless `purge` (PL-7). */
export async function uninstallPlugin(
  fs: FileSystem,
  layout: StoreLayout,
  id: PluginId,
  options: { purge?: boolean; knownIds?: string[] } = {},
): Promise<{ removed: boolean; purged: boolean; diagnostics: Diagnostic[] }> {
  await recoverStore(fs, layout);
  const base = pluginBaseDir(layout, id);
  const removed = !!(await fs.lstat(base));
  // Resolve (and migrate) the data dir before the bundle goes: it counts among the known ids.
  const { dir: data, diagnostics } = await resolveDataDir(fs, layout, id, {
    knownIds: async () => [
      ...(options.knownIds ?? []),
      ...(await installedPluginIds(fs, layout)).map((i) => i.key),
    ],
  });
  if (removed) await discard(fs, layout, base);
  await removeInstallRecord(fs, layout, id);
  const purged = !!options.purge && !!(await fs.lstat(data));
  if (purged) await discard(fs, layout, data);
  return { removed, purged, diagnostics };
}
