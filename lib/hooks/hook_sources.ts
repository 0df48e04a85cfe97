import * as path from "node:path";
import { parse as parseToml } from "smol-toml";
import { compatEnabled, type ConfigLayer, type LoadedConfig, readCodexConfig } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, parseJsonText, warning } from "../shared/mod.ts";
import type { HookSource, HookSourceKind } from "./hook_handler.ts";
import { SETTING_KEYS } from "./parse_source.ts";
import { discoverVendorSources } from "./vendor_sources.ts";

type Read<T> = { value?: T; diagnostics: Diagnostic[] };

/** Every non-plugin hook source in display order (HK-2), plus the managed-only switch. */
export async function discoverHookSources(
  fs: FileSystem,
  loaded: LoadedConfig,
): Promise<{ sources: HookSource[]; diagnostics: Diagnostic[]; managedOnly: boolean }> {
  const diagnostics: Diagnostic[] = [];
  const sources: HookSource[] = [];
  const { systemDir, home, claudeDir, codexHome, projectDirs } = loaded.paths;
  const add = (kind: HookSourceKind, file: string, events: Record<string, unknown> | undefined) => {
    if (events) sources.push({ kind, path: file, managed: isManaged(kind), events });
  };

  const requirementsFile = path.join(systemDir, "requirements.toml");
  const requirements = readRequirements(fs, requirementsFile);
  diagnostics.push(...requirements.diagnostics);
  add("requirements", requirementsFile, requirements.value?.hooks);
  const managedFile = path.join(systemDir, "managed", "hooks.json");
  add("managed", managedFile, readJsonHooks(fs, managedFile, diagnostics));

  const layerOf = (kind: ConfigLayer["kind"], dir?: string) =>
    loaded.layers.find((l) => l.kind === kind && (dir === undefined || l.dir === dir));
  addLayer(fs, sources, diagnostics, "system", path.join(systemDir, "hooks.json"), layerOf("system"));
  addLayer(fs, sources, diagnostics, "user", path.join(home, "hooks.json"), layerOf("user"));
  addCodexLayer(fs, loaded, path.join(codexHome, "hooks.json"), sources, diagnostics);

  const claudeEnabled = loaded.config.hooks?.claude_code !== false;
  if (claudeEnabled) {
    const file = path.join(claudeDir, "settings.json");
    add("claude_user", file, readJsonHooks(fs, file, diagnostics, { settings: true }));
  }
  for (const dir of projectDirs) {
    const trellisDir = path.join(dir, ".trellis");
    const jsonFile = path.join(trellisDir, "hooks.json");
    const claudeFiles = claudeEnabled
      ? [path.join(dir, ".claude", "settings.json"), path.join(dir, ".claude", "settings.local.json")]
      : [];
    if (!loaded.projectTrusted) {
      await noteSkipped(fs, [jsonFile, ...claudeFiles], diagnostics);
      continue;
    }
    // A trusted project's files are read as checked against its trust record (#20), never again.
    const approved = loaded.projectLayers;
    addLayer(fs, sources, diagnostics, "project", jsonFile, layerOf("project", trellisDir), approved);
    for (const file of claudeFiles) {
      add("claude_project", file, readJsonHooks(fs, file, diagnostics, { settings: true, approved }));
    }
  }
  sources.push(...discoverVendorSources(fs, loaded, diagnostics));
  const session = layerOf("session");
  const sessionEvents = session?.table.hooks;
  if (sessionEvents && hasEvents(sessionEvents)) add("session", "-c", sessionEvents);
  return { sources, diagnostics, managedOnly: requirements.value?.managedOnly === true };
}

/** Managed hooks come from files only an administrator can write: requirements, managed dir, /etc. */
function isManaged(kind: HookSourceKind): boolean {
  return kind === "requirements" || kind === "managed" || kind === "system";
}

function addLayer(
  fs: FileSystem,
  sources: HookSource[],
  diagnostics: Diagnostic[],
  kind: HookSourceKind,
  jsonFile: string,
  layer: ConfigLayer | undefined,
  approved?: ReadonlyMap<string, string>,
): void {
  const json = readJsonHooks(fs, jsonFile, diagnostics, { approved });
  const toml = layer?.table.hooks && hasEvents(layer.table.hooks) ? layer.table.hooks : undefined;
  if (json && hasEvents(json) && toml && layer) {
    diagnostics.push(warning(
      `loading hooks from both ${jsonFile} and ${layer.source}; prefer a single representation for this layer`,
      { file: jsonFile },
    ));
  }
  if (json) sources.push({ kind, path: jsonFile, managed: isManaged(kind), events: json });
  if (toml && layer) sources.push({ kind, path: layer.source, managed: isManaged(kind), events: toml });
}

/**
 * A Codex user's hooks, read in place (`[compat] codex_hooks`, `codex_config`): `$CODEX_HOME/hooks.json`
 * and `[hooks]` of `$CODEX_HOME/config.toml` — one layer, as Codex reads them, with Codex's warning
 * when both hold hooks. Unmanaged: each handler runs only once trusted (HK-3).
 */
function addCodexLayer(
  fs: FileSystem,
  loaded: LoadedConfig,
  jsonFile: string,
  sources: HookSource[],
  diagnostics: Diagnostic[],
): void {
  const json = compatEnabled(loaded.config, "codex_hooks")
    ? readJsonHooks(fs, jsonFile, diagnostics)
    : undefined;
  let toml: { file: string; events: Record<string, unknown> } | undefined;
  if (compatEnabled(loaded.config, "codex_config")) {
    const read = readCodexConfig(fs, loaded.paths);
    diagnostics.push(...read.diagnostics);
    const hooks = read.items?.hooks;
    if (read.items && hooks && hasEvents(hooks)) toml = { file: read.items.file, events: hooks };
  }
  if (json && hasEvents(json) && toml) {
    diagnostics.push(warning(
      `loading hooks from both ${jsonFile} and ${toml.file}; prefer a single representation for this layer`,
      { file: jsonFile },
    ));
  }
  if (json) sources.push({ kind: "codex_user", path: jsonFile, managed: false, events: json });
  if (toml) sources.push({ kind: "codex_user", path: toml.file, managed: false, events: toml.events });
}

function hasEvents(table: Record<string, unknown>): boolean {
  return Object.keys(table).some((k) => !SETTING_KEYS.has(k));
}

function readText(
  fs: FileSystem,
  file: string,
  diagnostics: Diagnostic[],
  approved?: ReadonlyMap<string, string>,
): string | undefined {
  // A project file: its checked text, or nothing (held back or unreadable: loadConfig said so once).
  if (approved) return approved.get(file);
  try {
    return fs.sync.readTextFile(file); // a settings file, read at every session start
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") {
      diagnostics.push(warning(`Cannot read hooks file "${file}": ${(error as Error).message}`, { file }));
    }
    return undefined;
  }
}

/**
 * The event arrays of one hooks file — a hooks.json, or a Claude Code settings file (`settings`:
 * its `hooks` key is optional) — for `trellis import`; absent → undefined, a bad file → a warning.
 */
export function readHooksFile(
  fs: FileSystem,
  file: string,
  options: { settings?: boolean } = {},
): { hooks?: Record<string, unknown>; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const hooks = readJsonHooks(fs, file, diagnostics, options);
  return { ...(hooks && hasEvents(hooks) ? { hooks } : {}), diagnostics };
}

/** A hooks.json (`{ "hooks": {…} }`) or a Claude Code settings file whose `hooks` key is optional. */
function readJsonHooks(
  fs: FileSystem,
  file: string,
  diagnostics: Diagnostic[],
  options: { settings?: boolean; approved?: ReadonlyMap<string, string> } = {},
): Record<string, unknown> | undefined {
  const text = readText(fs, file, diagnostics, options.approved);
  if (text === undefined) return undefined;
  const json = parseJsonText(text);
  if (!json.ok) {
    diagnostics.push(warning(`Cannot load hooks "${file}": invalid JSON (${json.message})`, { file }));
    return undefined;
  }
  const parsed = json.value;
  const hooks = isRecord(parsed) ? parsed.hooks : undefined;
  if (hooks === undefined && options.settings && isRecord(parsed)) return undefined;
  if (!isRecord(hooks)) {
    diagnostics.push(
      warning(`Cannot load hooks "${file}": expected an object with a "hooks" object`, { file }),
    );
    return undefined;
  }
  return hooks;
}

function readRequirements(
  fs: FileSystem,
  file: string,
): Read<{ hooks?: Record<string, unknown>; managedOnly: boolean }> {
  const diagnostics: Diagnostic[] = [];
  const text = readText(fs, file, diagnostics);
  if (text === undefined) return { diagnostics };
  let raw: Record<string, unknown>;
  try {
    raw = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const first = (error as Error).message.split("\n")[0];
    diagnostics.push(warning(`Cannot load hooks "${file}": invalid TOML (${first})`, { file }));
    return { diagnostics };
  }
  const hooks = isRecord(raw.hooks) ? raw.hooks : undefined;
  const managedOnly = raw.allow_managed_hooks_only === true || hooks?.allow_managed_hooks_only === true;
  return { value: { hooks: hooks && hasEvents(hooks) ? hooks : undefined, managedOnly }, diagnostics };
}

async function noteSkipped(fs: FileSystem, files: string[], diagnostics: Diagnostic[]): Promise<void> {
  for (const file of files) {
    if (!(await fs.stat(file))) continue;
    diagnostics.push({
      level: "info",
      message:
        `Skipped hooks in ${file}: this project is not trusted (run \`trellis project trust\` to load it)`,
      file,
    });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
