import { isTable, type LoadedConfig, userControlledLayers } from "../config/mod.ts";
import type { FileSystem, Platform } from "../platform/mod.ts";
import { type Diagnostic, errorDiagnostic } from "../shared/mod.ts";
import { resolveDataDir } from "./data_dir.ts";
import { effectiveManifest } from "./effective_manifest.ts";
import { readInstallRecord } from "./install_record.ts";
import { loadManifest } from "./load_manifest.ts";
import type { PluginManifest } from "./manifest.ts";
import { loadCapabilities, type PluginCapabilities } from "./plugin_capabilities.ts";
import { invalidPluginKeyMessage, parsePluginId } from "./plugin_id.ts";
import type { LoadedPlugin, PluginContributions, PluginLoadResult } from "./plugin_types.ts";
import { activeVersion, installedPluginIds } from "./store.ts";
import { type StoreLayout, storeLayout } from "./store_layout.ts";

/** `[plugins."id"] enabled` from the user layer and session flags only (default true), sorted by key. */
export function configuredPlugins(loaded: LoadedConfig): { key: string; enabled: boolean }[] {
  const enabled = new Map<string, boolean>();
  for (const layer of userControlledLayers(loaded)) {
    const table = (layer.table as Record<string, unknown>).plugins;
    if (!isTable(table)) continue;
    for (const [key, value] of Object.entries(table)) {
      const flag = isTable(value) && typeof value.enabled === "boolean" ? value.enabled : undefined;
      enabled.set(key, flag ?? enabled.get(key) ?? true);
    }
  }
  return [...enabled].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, on]) => ({ key, enabled: on }));
}

/**
 * Loads every configured plugin (PL-9) and projects the active ones (PL-10). One broken plugin is
 * an inactive entry with an error; it never hides the others nor contributes anything.
 */
export async function loadPlugins(
  options: { loaded: LoadedConfig; platform: Platform; layout?: StoreLayout },
): Promise<PluginLoadResult> {
  const fs = options.platform.fs;
  const layout = options.layout ?? storeLayout(options.loaded.paths.home);
  const plugins: LoadedPlugin[] = [];
  const diagnostics: Diagnostic[] = [];
  const contributions: PluginContributions = {
    skillRoots: [],
    commandRoots: [],
    agents: [],
    mcpServers: [],
    hookSources: [],
    summaries: [],
  };
  const configured = configuredPlugins(options.loaded);
  // Only consulted when a data dir of the earlier, ambiguous naming is found (see data_dir.ts).
  let known: Promise<string[]> | undefined;
  const knownIds = () =>
    known ??= installedPluginIds(fs, layout).then((
      ids,
    ) => [...ids.map((i) => i.key), ...configured.map((p) => p.key)]);
  // Plugins load concurrently; their results are merged in key order so precedence stays stable.
  const loadedOnes = await Promise.all(configured.map((p) => loadOne(fs, layout, p, knownIds)));
  for (const one of loadedOnes) {
    diagnostics.push(...one.diagnostics);
    if (!one.caps || !one.manifest || !one.plugin.root || !one.plugin.dataDir) {
      plugins.push(one.plugin);
      continue;
    }
    const { caps, manifest, plugin } = one;
    const root = plugin.root!;
    const dataDir = plugin.dataDir!;
    const key = plugin.id;
    const env = {
      PLUGIN_ROOT: root,
      PLUGIN_DATA: dataDir,
      CLAUDE_PLUGIN_ROOT: root,
      CLAUDE_PLUGIN_DATA: dataDir,
    };
    // Duplicate server names are resolved by the MCP subsystem after validation: a broken
    // definition never takes a name from a valid one (issue 14).
    for (const server of caps.mcpServers) {
      contributions.mcpServers.push({ pluginId: key, pluginRoot: root, dataDir, ...server });
    }
    for (const path of caps.skillRoots) {
      contributions.skillRoots.push({ path, pluginId: key, namespace: manifest.name });
    }
    for (const path of caps.commandRoots) {
      contributions.commandRoots.push({ path, pluginId: key, namespace: manifest.name });
    }
    for (const agent of caps.agents) contributions.agents.push({ pluginId: key, ...agent });
    for (const hook of caps.hookSources) {
      contributions.hookSources.push({ pluginId: key, pluginRoot: root, dataDir, ...hook, env });
    }
    const description = manifest.interface?.shortDescription ?? manifest.description;
    const summary = {
      pluginId: key,
      configName: key,
      displayName: manifest.interface?.displayName ?? manifest.name,
      ...(description ? { description } : {}),
      hasSkills: caps.skillRoots.length > 0,
      mcpServerNames: caps.mcpServers.map((s) => s.name),
      appConnectorIds: caps.appConnectorIds,
    };
    contributions.summaries.push(summary);
    plugins.push({ ...plugin, summary, components: caps.components });
  }
  return { plugins, contributions, diagnostics };
}

interface OneLoad {
  plugin: LoadedPlugin;
  diagnostics: Diagnostic[];
  manifest?: PluginManifest;
  caps?: PluginCapabilities;
}

/** PL-9 for one plugin: parse id → active root → enabled? → installed? → directory? → manifest → capabilities. */
async function loadOne(
  fs: FileSystem,
  layout: StoreLayout,
  { key, enabled }: { key: string; enabled: boolean },
  knownIds: () => Promise<string[]>,
): Promise<OneLoad> {
  const diagnostics: Diagnostic[] = [];
  const inactive = (error: string | undefined, extra: Partial<LoadedPlugin> = {}): OneLoad => {
    if (error) diagnostics.push(errorDiagnostic(`plugin ${key}: ${error}`, { subject: key }));
    return {
      plugin: {
        id: key,
        version: null,
        root: null,
        dataDir: null,
        enabled,
        active: false,
        ...(error ? { error } : {}),
        ...extra,
      },
      diagnostics,
    };
  };
  const id = parsePluginId(key);
  if (!id) return inactive(invalidPluginKeyMessage(key));
  const active = await activeVersion(fs, layout, id);
  const data = await resolveDataDir(fs, layout, id, { knownIds });
  diagnostics.push(...data.diagnostics);
  const where = {
    version: active?.version ?? null,
    root: active?.root ?? null,
    dataDir: data.dir,
  };
  if (!enabled) return inactive(undefined, where);
  if (!active) return inactive("plugin is not installed", where);
  if (!(await fs.stat(active.root))?.isDirectory) {
    return inactive("path does not exist or is not a directory", where);
  }
  const [file, record] = await Promise.all([
    loadManifest(fs, active.root, { dirName: id.plugin }),
    readInstallRecord(fs, layout, id),
  ]);
  // No plugin.json is Claude Code's default layout, not an error (issue 14 revises PL-1).
  const { manifest, diagnostics: manifestDiagnostics } = effectiveManifest(file, {
    name: id.plugin,
    entry: record?.version === active.version ? record.entry : undefined,
    where: key,
  });
  diagnostics.push(...manifestDiagnostics);
  const caps = await loadCapabilities(fs, { id: key, root: active.root, dataDir: where.dataDir, manifest });
  diagnostics.push(...caps.diagnostics);
  const digest = record?.version === active.version ? record.digest : undefined;
  return {
    plugin: { id: key, ...where, ...(digest ? { digest } : {}), enabled, active: true },
    diagnostics,
    manifest,
    caps,
  };
}
