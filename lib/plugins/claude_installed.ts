import * as path from "node:path";
import type { LoadedConfig } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";
import type { EntryManifest } from "./effective_manifest.ts";
import { isObject } from "./manifest.ts";
import { parseMarketplace } from "./marketplace_file.ts";
import { parsePluginId, type PluginId } from "./plugin_id.ts";

/** A plugin Claude Code installed, as its own files describe it. */
export interface ClaudeInstalledPlugin {
  id: PluginId;
  /** Enabled in Claude Code's settings (`enabledPlugins`), as Claude Code decides it. */
  enabled: boolean;
  /** The installed copy Claude Code runs (`installPath`); null when it is missing on disk. */
  root: string | null;
  version: string | null;
  /** Claude Code's `${CLAUDE_PLUGIN_DATA}`: `plugins/data/<id with [^A-Za-z0-9_-] as ->`. */
  dataDir: string;
  /** The marketplace entry's manifest fields (Claude Code's `strict`), when its clone is on disk. */
  entry?: EntryManifest;
}

interface Installation {
  scope?: unknown;
  projectPath?: unknown;
  installPath?: unknown;
  version?: unknown;
}

type Read = { items: ClaudeInstalledPlugin[]; diagnostics: Diagnostic[] };

/**
 * The plugins a Claude Code user installed, read in place from `$CLAUDE_CONFIG_DIR/plugins`
 * (default `~/.claude/plugins`): `installed_plugins.json` (version 2: `{"plugins": {"<id>": [
 * {scope, installPath, version, projectPath?}…]}}`, or version 1's single object per id) says what is
 * installed and where — `cache/<marketplace>/<plugin>/<version>/` — and `enabledPlugins` in
 * `settings.json` (`{"<id>": true}`) says what is on, a trusted project's `.claude/settings.json`
 * and `settings.local.json` overriding it, as Claude Code layers them. An install scoped to a
 * project (`project`, `local`) counts only in that project. `known_marketplaces.json` leads to the
 * marketplace clone, whose entry may carry the manifest (`strict`).
 *
 * Problems are one warning each, naming the file: an unreadable or malformed install list, a
 * missing installed copy; everything else still loads.
 */
export async function readClaudeInstalledPlugins(
  fs: FileSystem,
  loaded: Pick<LoadedConfig, "paths" | "projectTrusted" | "projectLayers">,
): Promise<Read> {
  const { paths } = loaded;
  const pluginsDir = path.join(paths.claudeDir, "plugins");
  const file = path.join(pluginsDir, "installed_plugins.json");
  const diagnostics: Diagnostic[] = [];
  const raw = readJson(fs, file, diagnostics, "its plugins are not loaded");
  if (raw === undefined) return { items: [], diagnostics };
  const plugins = isObject(raw) ? raw.plugins : undefined;
  if (!isObject(plugins)) {
    diagnostics.push(warning(
      `Cannot read "${file}": expected {"plugins": {"<plugin>@<marketplace>": […]}}; its plugins are not loaded`,
      { file },
    ));
    return { items: [], diagnostics };
  }
  const enabled = enabledPlugins(fs, loaded, diagnostics);
  const market = marketplaceEntries(fs, pluginsDir, diagnostics);
  const items: ClaudeInstalledPlugin[] = [];
  for (const key of Object.keys(plugins).sort()) {
    const id = parsePluginId(key);
    if (!id) {
      diagnostics.push(warning(`${file}: ignoring "${key}": not a <plugin>@<marketplace> id`, { file }));
      continue;
    }
    const installation = applicable(plugins[key], paths.projectDirs);
    if (!installation) continue;
    const version = typeof installation.version === "string" ? installation.version : null;
    const plugin: ClaudeInstalledPlugin = {
      id,
      enabled: enabled.get(key) === true,
      root: null,
      version,
      dataDir: path.join(pluginsDir, "data", key.replace(/[^A-Za-z0-9_-]/g, "-")),
    };
    if (plugin.enabled) {
      plugin.root = await installedCopy(fs, pluginsDir, id, installation, version);
      if (!plugin.root) {
        const where = typeof installation.installPath === "string" ? ` "${installation.installPath}"` : "";
        diagnostics.push(warning(
          `Claude Code plugin ${key}: its installed copy${where} is missing (listed in "${file}"); it is not loaded`,
          { file, subject: key },
        ));
      }
      const entry = plugin.root ? await market(id) : undefined;
      if (entry) plugin.entry = entry;
    }
    items.push(plugin);
  }
  return { items, diagnostics };
}

/** The installation that applies here: user (or managed) scope, or one made for this project. */
function applicable(value: unknown, projectDirs: readonly string[]): Installation | null {
  const list = (Array.isArray(value) ? value : [value]).filter(isObject) as Installation[];
  const local = list.find((i) =>
    (i.scope === "local" || i.scope === "project") && typeof i.projectPath === "string" &&
    projectDirs.includes(path.resolve(i.projectPath))
  );
  return local ?? list.find((i) => i.scope === undefined || i.scope === "user" || i.scope === "managed") ??
    null;
}

/** `installPath` when it is a directory, else the conventional cache path of that version. */
async function installedCopy(
  fs: FileSystem,
  pluginsDir: string,
  id: PluginId,
  installation: Installation,
  version: string | null,
): Promise<string | null> {
  const candidates: string[] = [];
  if (typeof installation.installPath === "string") candidates.push(installation.installPath);
  if (version && /^[A-Za-z0-9._+-]+$/.test(version) && version !== "." && version !== "..") {
    candidates.push(path.join(pluginsDir, "cache", id.marketplace, id.plugin, version));
  }
  for (const dir of candidates) {
    if ((await fs.stat(dir))?.isDirectory) return path.resolve(dir);
  }
  return null;
}

/**
 * `enabledPlugins` as Claude Code layers it: user settings, then — in a trusted project only — the
 * project's `.claude/settings.json` and `settings.local.json` (later wins). An untrusted project that
 * would turn a plugin on is named in a note: a repository cannot start a plugin's servers by itself.
 */
function enabledPlugins(
  fs: FileSystem,
  loaded: Pick<LoadedConfig, "paths" | "projectTrusted" | "projectLayers">,
  diagnostics: Diagnostic[],
): Map<string, boolean> {
  const enabled = new Map<string, boolean>();
  const apply = (file: string, project: boolean) => {
    // A trusted project's settings as checked against its trust record (#20); held back → nothing.
    const approved = project && loaded.projectTrusted ? loaded.projectLayers : undefined;
    const settings = readJson(fs, file, diagnostics, "its enabledPlugins are not read", approved);
    const map = isObject(settings) ? settings.enabledPlugins : undefined;
    if (map === undefined) return;
    if (!isObject(map)) {
      diagnostics.push(warning(`Cannot read enabledPlugins in "${file}": expected an object`, { file }));
      return;
    }
    const turnsOn = Object.entries(map).filter(([, v]) => v === true).map(([k]) => k);
    if (project && !loaded.projectTrusted) {
      if (turnsOn.length > 0) {
        diagnostics.push({
          level: "info",
          message: `Skipped enabledPlugins in ${file} (${
            turnsOn.join(", ")
          }): this project is not trusted (run \`trellis project trust\` to load it)`,
          file,
        });
      }
      return;
    }
    for (const [key, value] of Object.entries(map)) {
      if (typeof value === "boolean") enabled.set(key, value);
    }
  };
  apply(path.join(loaded.paths.claudeDir, "settings.json"), false);
  for (const dir of loaded.paths.projectDirs) {
    apply(path.join(dir, ".claude", "settings.json"), true);
    apply(path.join(dir, ".claude", "settings.local.json"), true);
  }
  return enabled;
}

/**
 * Looks up a plugin's marketplace entry in the clone Claude Code keeps (`known_marketplaces.json`
 * → `installLocation`, else `plugins/marketplaces/<name>`); each marketplace file is read once.
 * A missing clone only means no entry: the installed copy still loads by its own plugin.json.
 */
function marketplaceEntries(
  fs: FileSystem,
  pluginsDir: string,
  diagnostics: Diagnostic[],
): (id: PluginId) => Promise<EntryManifest | undefined> {
  let known: Promise<Record<string, unknown>> | undefined;
  const files = new Map<string, Promise<Map<string, EntryManifest>>>();
  const knownFile = path.join(pluginsDir, "known_marketplaces.json");
  const entriesOf = async (marketplace: string) => {
    known ??= Promise.resolve(readJson(fs, knownFile, diagnostics, "marketplace entries are not read"))
      .then((v) => (isObject(v) ? v : {}));
    const record = (await known)[marketplace];
    const location = isObject(record) && typeof record.installLocation === "string"
      ? record.installLocation
      : path.join(pluginsDir, "marketplaces", marketplace);
    const file = path.join(location, ".claude-plugin", "marketplace.json");
    const entries = new Map<string, EntryManifest>();
    let text: string;
    try {
      text = await fs.readTextFile(file);
    } catch {
      return entries;
    }
    const parsed = parseMarketplace(text, file);
    if ("error" in parsed) return entries;
    for (const e of parsed.entries) if (e.manifest) entries.set(e.name, e.manifest);
    return entries;
  };
  return async (id) => {
    if (!files.has(id.marketplace)) files.set(id.marketplace, entriesOf(id.marketplace));
    return (await files.get(id.marketplace)!).get(id.plugin);
  };
}

/**
 * A settings file's JSON value; absent → undefined silently; unreadable or not JSON → one warning.
 * Read through the regular-file check (a FIFO there never blocks start-up); a project file comes
 * from `approved`, the texts checked against the project's trust record.
 */
function readJson(
  fs: FileSystem,
  file: string,
  diagnostics: Diagnostic[],
  consequence: string,
  approved?: ReadonlyMap<string, string>,
): unknown {
  let text: string;
  try {
    if (approved) {
      const checked = approved.get(file);
      if (checked === undefined) return undefined;
      text = checked;
    } else text = fs.sync.readTextFile(file);
  } catch (error) {
    const code = String((error as { code?: string }).code ?? "");
    if (code !== "ENOENT" && code !== "ENOTDIR") {
      diagnostics.push(
        warning(`Cannot read "${file}": ${(error as Error).message}; ${consequence}`, { file }),
      );
    }
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    diagnostics.push(
      warning(`Cannot read "${file}": not JSON (${(error as Error).message}); ${consequence}`, {
        file,
      }),
    );
    return undefined;
  }
}
