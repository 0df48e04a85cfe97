import {
  codexNotTakenLine,
  type CompatFile,
  compatFiles,
  formatKeyPath,
  isTable,
  type LoadedConfig,
} from "../config/mod.ts";
import type { Workspace } from "./workspace.ts";

/**
 * What `trellis config show` reports (issue #26 item 2): the effective config, each value with the
 * layer it came from, and the other agents' files read in place with the switch that stops each.
 */
export interface ConfigReport {
  config: LoadedConfig["config"];
  /** Every leaf value by its dotted key (`mcp_servers.docs.command`), with its layer. */
  values: { key: string; value: unknown; source: string }[];
  layers: { kind: string; source: string }[];
  project: { root: string; trusted: boolean };
  profile: string | null;
  compat: (CompatFile & { found: boolean })[];
  /** Codex config keys Trellis read and did not take, or null (none, or Codex's file is off). */
  codex_not_taken: string | null;
}

export async function configReport(ws: Workspace): Promise<ConfigReport> {
  const loaded = ws.loaded;
  const fs = ws.platform.fs;
  const values: ConfigReport["values"] = [];
  walk(loaded.config as Record<string, unknown>, [], (keyPath, value) => {
    const key = formatKeyPath(keyPath);
    values.push({ key, value, source: loaded.provenance.get(key) ?? "built-in" });
  });
  const files = compatFiles(loaded);
  const compat = await Promise.all(
    files.map(async (f) => ({ ...f, found: (await fs.stat(f.path)) !== null })),
  );
  const notTaken = files.find((f) => f.key === "compat.codex_config")?.enabled
    ? codexNotTakenLine(fs, loaded.paths)
    : null;
  return {
    config: loaded.config,
    values,
    layers: loaded.layers.map((l) => ({ kind: l.kind, source: l.source })),
    project: { root: loaded.paths.projectRoot, trusted: loaded.projectTrusted },
    profile: loaded.profile ?? null,
    compat,
    codex_not_taken: notTaken,
  };
}

/** Leaves in key order; an empty table is a leaf (it is a value the user wrote). */
function walk(
  node: Record<string, unknown>,
  prefix: string[],
  visit: (p: string[], v: unknown) => void,
): void {
  for (const [key, value] of Object.entries(node)) {
    if (isTable(value) && Object.keys(value).length > 0) walk(value, [...prefix, key], visit);
    else visit([...prefix, key], value);
  }
}
