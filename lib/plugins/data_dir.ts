import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";
import type { PluginId } from "./plugin_id.ts";
import { legacyPluginDataDir, pluginDataDir, type StoreLayout } from "./store_layout.ts";

/**
 * A plugin's persistent data dir, moving one left under the earlier, ambiguous name
 * (`<plugin>-<marketplace>`) to the injective one (`<plugin>@<marketplace>`) when exactly one known
 * plugin can own it. When two known ids map to the old name (`x-y@z`, `x@y-z`), nothing is moved
 * and a warning names both: data is never handed to the wrong plugin, nor orphaned silently.
 */
export async function resolveDataDir(
  fs: FileSystem,
  layout: StoreLayout,
  id: PluginId,
  options: { knownIds: () => Promise<string[]>; create?: boolean },
): Promise<{ dir: string; diagnostics: Diagnostic[] }> {
  const dir = pluginDataDir(layout, id);
  const diagnostics: Diagnostic[] = [];
  const done = async () => {
    if (options.create) await fs.mkdir(dir);
    return { dir, diagnostics };
  };
  if (await fs.lstat(dir)) return { dir, diagnostics };
  const legacy = legacyPluginDataDir(layout, id);
  if (!(await fs.lstat(legacy))) return await done();
  const legacyName = path.basename(legacy);
  const claimants = [...new Set([...(await options.knownIds()), id.key])].filter((key) => {
    const at = key.lastIndexOf("@");
    return at > 0 && `${key.slice(0, at)}-${key.slice(at + 1)}` === legacyName;
  }).sort();
  if (claimants.length > 1) {
    diagnostics.push(
      warning(
        `${id.key}: the data dir ${legacy} may belong to ${
          claimants.join(" or ")
        }; it is left in place — move it to ${dir} if it is this plugin's`,
        { subject: id.key, file: legacy },
      ),
    );
    return await done();
  }
  try {
    await fs.rename(legacy, dir);
    diagnostics.push({
      level: "info",
      message: `${id.key}: moved its data dir ${legacy} to ${dir}`,
      subject: id.key,
    });
  } catch (error) {
    // Another process may have moved it first; anything else is worth a warning, not a failure.
    if (!(await fs.lstat(dir))) {
      diagnostics.push(
        warning(`${id.key}: cannot move ${legacy} to ${dir}: ${(error as Error).message}`, {
          subject: id.key,
        }),
      );
      return { dir: legacy, diagnostics };
    }
  }
  return { dir, diagnostics };
}
