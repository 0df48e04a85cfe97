import { compatEnabled, isTable, type LoadedConfig, userControlledLayers } from "../config/mod.ts";
import type { FileSystem, Platform } from "../platform/mod.ts";
import { type Diagnostic, errorDiagnostic } from "../shared/mod.ts";
import { type ClaudeInstalledPlugin, readClaudeInstalledPlugins } from "./claude_installed.ts";
import { digestTree } from "./content_digest.ts";
import { resolveDataDir } from "./data_dir.ts";
import { effectiveManifest, type EntryManifest } from "./effective_manifest.ts";
import { readInstallRecord } from "./install_record.ts";
import { loadManifest } from "./load_manifest.ts";
import type { PluginManifest } from "./manifest.ts";
import { loadCapabilities, type PluginCapabilities } from "./plugin_capabilities.ts";
import { invalidPluginKeyMessage, parsePluginId, type PluginId } from "./plugin_id.ts";
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
 * Loads every configured plugin (PL-9) and projects the active ones (PL-10), then the plugins a
 * Claude Code user installed (`[compat] claude_plugins`, read in place; one Trellis also has under
 * the same id is Trellis's). One broken plugin is an inactive entry with an error; it never hides
 * the others nor contributes anything.
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
  const claude = compatEnabled(options.loaded.config, "claude_plugins")
    ? await readClaudeInstalledPlugins(fs, options.loaded)
    : { items: [], diagnostics: [] };
  diagnostics.push(...claude.diagnostics);
  const { trellisOnes, claudeOnes } = await splitByInstaller(
    fs,
    layout,
    configured,
    claude.items,
    diagnostics,
  );
  const loadedOnes = await Promise.all([
    ...trellisOnes.map((p) => loadOne(fs, layout, p, knownIds)),
    ...claudeOnes.map((p) => loadClaudeOne(fs, p)),
  ]);
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
    const origin = plugin.origin ? { origin: plugin.origin } : {};
    const env = {
      PLUGIN_ROOT: root,
      PLUGIN_DATA: dataDir,
      CLAUDE_PLUGIN_ROOT: root,
      CLAUDE_PLUGIN_DATA: dataDir,
    };
    // Duplicate server names are resolved by the MCP subsystem after validation: a broken
    // definition never takes a name from a valid one (issue 14).
    for (const server of caps.mcpServers) {
      contributions.mcpServers.push({ pluginId: key, pluginRoot: root, dataDir, ...server, ...origin });
    }
    for (const path of caps.skillRoots) {
      contributions.skillRoots.push({ path, pluginId: key, namespace: manifest.name, ...origin });
    }
    for (const path of caps.commandRoots) {
      contributions.commandRoots.push({ path, pluginId: key, namespace: manifest.name, ...origin });
    }
    for (const agent of caps.agents) {
      contributions.agents.push({ pluginId: key, namespace: manifest.name, ...agent });
    }
    const content = caps.hookSources.length ? await hookContent(fs, root) : {};
    for (const hook of caps.hookSources) {
      contributions.hookSources.push({
        pluginId: key,
        pluginRoot: root,
        dataDir,
        ...hook,
        env,
        ...origin,
        ...content,
      });
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

/**
 * What a trusted hook of this plugin vouches for (#20 item 7): the tree digest `update` and `verify`
 * compare (paths, kinds, executable bits, bytes) plus the symlinks and special files the digest
 * leaves out, so planting one changes it too.
 */
async function hookContent(
  fs: FileSystem,
  root: string,
): Promise<{ contentDigest?: string; contentError?: string }> {
  try {
    const { digest, skipped } = await digestTree(fs, root);
    return { contentDigest: skipped.length ? `${digest} skipped ${JSON.stringify(skipped)}` : digest };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      contentError: code === "ENOENT"
        ? `its directory ${root} is gone`
        : `cannot read ${root}: ${(error as Error).message}`,
    };
  }
}

/**
 * Which of the configured ids are Trellis's plugins and which Claude Code's. An id both list is
 * Trellis's when Trellis's store has it installed (a note says the Claude Code copy is not loaded);
 * otherwise the `[plugins."<id>"]` entry only tunes the Claude Code plugin — `enabled = false` turns
 * it off, `mcp_servers` overrides apply to its servers — and is not a Trellis plugin missing.
 */
async function splitByInstaller(
  fs: FileSystem,
  layout: StoreLayout,
  configured: { key: string; enabled: boolean }[],
  claude: ClaudeInstalledPlugin[],
  diagnostics: Diagnostic[],
): Promise<{ trellisOnes: { key: string; enabled: boolean }[]; claudeOnes: ClaudeInstalledPlugin[] }> {
  const byKey = new Map(claude.map((p) => [p.id.key, p]));
  const trellisOnes: { key: string; enabled: boolean }[] = [];
  for (const p of configured) {
    const theirs = byKey.get(p.key);
    if (!theirs) {
      trellisOnes.push(p);
      continue;
    }
    if (await activeVersion(fs, layout, theirs.id)) {
      byKey.delete(p.key);
      trellisOnes.push(p);
      if (theirs.enabled) {
        diagnostics.push({
          level: "info",
          message:
            `Claude Code plugin ${p.key} is not loaded from ~/.claude: Trellis has its own install of it`,
          subject: p.key,
        });
      }
    } else if (!p.enabled) byKey.set(p.key, { ...theirs, enabled: false });
  }
  return { trellisOnes, claudeOnes: [...byKey.values()] };
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
  const record = await readInstallRecord(fs, layout, id);
  const entry = record?.version === active.version ? record.entry : undefined;
  const digest = record?.version === active.version ? record.digest : undefined;
  const plugin = { id: key, ...where, ...(digest ? { digest } : {}), enabled, active: true };
  return await loadInstalled(
    fs,
    id,
    { plugin, root: active.root, dataDir: where.dataDir, entry },
    diagnostics,
  );
}

/** A plugin Claude Code installed: its copy under `~/.claude/plugins/cache`, its data dir there too. */
async function loadClaudeOne(fs: FileSystem, p: ClaudeInstalledPlugin): Promise<OneLoad> {
  const plugin: LoadedPlugin = {
    id: p.id.key,
    version: p.version,
    root: p.root,
    dataDir: p.dataDir,
    enabled: p.enabled,
    active: false,
    origin: "claude",
  };
  if (!p.enabled) return { plugin, diagnostics: [] };
  // The missing copy was reported, naming installed_plugins.json, when the install list was read.
  if (!p.root) return { plugin: { ...plugin, error: "installed copy is missing" }, diagnostics: [] };
  return await loadInstalled(fs, p.id, {
    plugin: { ...plugin, active: true },
    root: p.root,
    dataDir: p.dataDir,
    entry: p.entry,
  }, []);
}

/** Manifest (plugin.json, else the marketplace entry, else the default layout) → capabilities. */
async function loadInstalled(
  fs: FileSystem,
  id: PluginId,
  where: { plugin: LoadedPlugin; root: string; dataDir: string; entry?: EntryManifest },
  diagnostics: Diagnostic[],
): Promise<OneLoad> {
  const file = await loadManifest(fs, where.root, { dirName: id.plugin });
  // No plugin.json is Claude Code's default layout, not an error (issue 14 revises PL-1).
  const { manifest, diagnostics: manifestDiagnostics } = effectiveManifest(file, {
    name: id.plugin,
    entry: where.entry,
    where: id.key,
  });
  diagnostics.push(...manifestDiagnostics);
  const caps = await loadCapabilities(fs, { id: id.key, root: where.root, dataDir: where.dataDir, manifest });
  diagnostics.push(...caps.diagnostics);
  return { plugin: where.plugin, diagnostics, manifest, caps };
}
