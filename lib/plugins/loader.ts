import { isTable, type LoadedConfig, userControlledLayers } from "../config/mod.ts";
import type { FileSystem, Platform } from "../platform/mod.ts";
import { type Diagnostic, errorDiagnostic, warning } from "../shared/mod.ts";
import { readInstallRecord } from "./install_record.ts";
import { loadManifest } from "./load_manifest.ts";
import type { PluginManifest } from "./manifest.ts";
import { loadCapabilities, type PluginCapabilities } from "./plugin_capabilities.ts";
import { invalidPluginKeyMessage, parsePluginId } from "./plugin_id.ts";
import type { LoadedPlugin, PluginContributions, PluginLoadResult } from "./plugin_types.ts";
import { activeVersion } from "./store.ts";
import { pluginDataDir, type StoreLayout, storeLayout } from "./store_layout.ts";

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
    mcpServers: [],
    hookSources: [],
    summaries: [],
  };
  const seenServers = new Set<string>();
  // Plugins load concurrently; their results are merged in key order so precedence stays stable.
  const loadedOnes = await Promise.all(configuredPlugins(options.loaded).map((p) => loadOne(fs, layout, p)));
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
    const serverNames: string[] = [];
    for (const server of caps.mcpServers) {
      if (seenServers.has(server.name)) {
        diagnostics.push(
          warning(`${key}: skipping duplicate plugin MCP server name "${server.name}"`, { subject: key }),
        );
        continue;
      }
      seenServers.add(server.name);
      serverNames.push(server.name);
      contributions.mcpServers.push({ pluginId: key, pluginRoot: root, ...server });
    }
    for (const path of caps.skillRoots) {
      contributions.skillRoots.push({ path, pluginId: key, namespace: manifest.name });
    }
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
      mcpServerNames: serverNames,
      appConnectorIds: caps.appConnectorIds,
    };
    contributions.summaries.push(summary);
    plugins.push({ ...plugin, summary });
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
  const where = {
    version: active?.version ?? null,
    root: active?.root ?? null,
    dataDir: pluginDataDir(layout, id),
  };
  if (!enabled) return inactive(undefined, where);
  if (!active) return inactive("plugin is not installed", where);
  if (!(await fs.stat(active.root))?.isDirectory) {
    return inactive("path does not exist or is not a directory", where);
  }
  const { manifest, diagnostics: manifestDiagnostics } = await loadManifest(fs, active.root, {
    dirName: id.plugin,
  });
  diagnostics.push(...manifestDiagnostics);
  if (!manifest) return inactive("missing or invalid plugin.json", where);
  const [caps, record] = await Promise.all([
    loadCapabilities(fs, { id: key, root: active.root, dataDir: where.dataDir, manifest }),
    readInstallRecord(fs, active.root),
  ]);
  diagnostics.push(...caps.diagnostics);
  const digest = record?.digest;
  return {
    plugin: { id: key, ...where, ...(digest ? { digest } : {}), enabled, active: true },
    diagnostics,
    manifest,
    caps,
  };
}
