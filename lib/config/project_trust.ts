import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import { removeKey, setKey, type TomlTable } from "./config_edit.ts";
import { isTable } from "./merge.ts";
import { hashProjectLayers, type TrustChanges, trustChanges } from "./project_layers.ts";
import { editConfigFile } from "./user_config_file.ts";

export interface ProjectTrustResult {
  /** The canonical directory written. */
  project: string;
  /** Trusting: the layer files recorded now against the last record (all new for a first trust). */
  changes?: TrustChanges;
  /** Trusting: layer files that could not be read (a FIFO, a directory, unreadable), not recorded. */
  warnings: string[];
}

/**
 * Writes Codex's `[projects."<abs path>"] trust_level = "trusted"` into the user config (or removes
 * it, with the table it leaves empty), and with it the content hash of every layer file of the project
 * at any depth (`layer_hashes`, #20): a layer file that appears or changes later is not loaded until
 * the project is trusted again. Only an existing directory can be trusted, under its real path;
 * untrusting also works for a project directory that is gone.
 */
export async function setProjectTrust(
  fs: FileSystem,
  userConfig: string,
  dir: string,
  trusted: boolean,
): Promise<ProjectTrustResult> {
  const abs = path.resolve(dir);
  const info = await fs.stat(abs);
  if (trusted && !info?.isDirectory) {
    throw new UsageError(`Cannot trust "${abs}": ${info ? "not a directory" : "no such directory"}`, {
      file: abs,
    });
  }
  const canonical = info ? await fs.realPath(abs) : abs;
  if (!trusted) {
    await editConfigFile(fs, userConfig, () => [
      removeKey(["projects", canonical, "layer_hashes"]),
      removeKey(["projects", canonical, "trust_level"], { prune: true }),
    ]);
    return { project: canonical, warnings: [] };
  }
  const { hashes, warnings } = hashProjectLayers(fs, canonical);
  let changes: TrustChanges | undefined;
  await editConfigFile(fs, userConfig, (doc) => {
    const before = recordedHashes(doc, canonical);
    changes = trustChanges(before, hashes);
    // An empty table still says "recorded, nothing there": a layer that appears later is new.
    return [
      setKey(["projects", canonical, "trust_level"], "trusted"),
      setKey(["projects", canonical, "layer_hashes"], hashes),
    ];
  });
  return { project: canonical, changes, warnings };
}

function recordedHashes(doc: TomlTable, dir: string): Record<string, string> | undefined {
  const projects = doc.projects;
  const entry = isTable(projects) ? projects[dir] : undefined;
  const hashes = isTable(entry) ? entry.layer_hashes : undefined;
  if (!isTable(hashes)) return undefined;
  return Object.fromEntries(Object.entries(hashes).filter(([, v]) => typeof v === "string")) as Record<
    string,
    string
  >;
}
