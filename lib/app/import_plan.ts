import * as path from "node:path";
import {
  type ConfigEdit,
  editConfigFile,
  isTable,
  type LoadedConfig,
  readClaudeJson,
  readCodexConfig,
  removeKey,
  setKey,
  type TomlTable,
  type TomlValue,
  validateLayer,
} from "../config/mod.ts";
import { HOOK_SETTING_KEYS, readHooksFile } from "../hooks/mod.ts";
import { importClaudeEntry, importCodexEntry, type ImportedEntry } from "../mcp/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import type { Diagnostic } from "../shared/mod.ts";

export type ImportSource = "codex" | "claude";

/** What another agent's files hold that an import can copy, read from where they are. */
export interface ImportSources {
  source: ImportSource;
  servers: { name: string; entry: unknown; from: string }[];
  /** Entries an import leaves where they are, with why (Claude Code's per-project servers). */
  kept: { key: string; from: string; reason: string }[];
  hooks: { events: Record<string, unknown>; from: string }[];
  /** Codex's model keys (`model`, `model_provider`, one `model_providers.<id>` each, …). */
  settings: { key: string[]; value: unknown; from: string }[];
  /** Keys the source sets that Trellis deliberately does not take (they would loosen a session). */
  notTaken: { keys: string[]; from: string } | null;
  /** The switches that read these files in place, for the hint printed after an import. */
  switches: string[];
  diagnostics: Diagnostic[];
}

/** One thing an import writes, or leaves out and why. */
export interface ImportItem {
  /** `mcp_servers.<name>` or `hooks.<Event>`. */
  key: string;
  from: string;
  action: "add" | "replace" | "append" | "skip";
  reason?: string;
  notes: string[];
}

export interface ImportPlan {
  items: ImportItem[];
  edits: ConfigEdit[];
  /** The tables the edits write, for `--dry-run` to print as TOML. */
  written: {
    mcp_servers?: Record<string, TomlValue>;
    hooks?: Record<string, TomlValue>;
    /** Codex's model keys (`model`, `model_providers`, …). */
    [setting: string]: TomlValue | Record<string, TomlValue> | undefined;
  };
}

/**
 * Reads what `trellis import codex|claude` copies — whatever the `[compat]` switches say, since the
 * user asked for these files by name: Codex's `[mcp_servers]` and `[hooks]` of config.toml and its
 * hooks.json; Claude Code's user `mcpServers` of `~/.claude.json` and the hooks of its settings.json.
 * Claude Code's per-project servers stay where they are: Trellis's config has no private,
 * per-project place for them (they keep being read in place for that project).
 */
export function readImportSources(fs: FileSystem, loaded: LoadedConfig, source: ImportSource): ImportSources {
  const out: ImportSources = {
    source,
    servers: [],
    kept: [],
    hooks: [],
    settings: [],
    notTaken: null,
    switches: [],
    diagnostics: [],
  };
  const { paths } = loaded;
  if (source === "codex") {
    const codex = readCodexConfig(fs, paths);
    out.diagnostics.push(...codex.diagnostics);
    if (codex.items) {
      const { file, mcpServers, hooks, modelKeys, notTaken } = codex.items;
      for (const [name, entry] of Object.entries(mcpServers)) out.servers.push({ name, entry, from: file });
      for (const [key, value] of Object.entries(modelKeys)) {
        if (key === "model_providers" && isTable(value)) {
          for (const [id, entry] of Object.entries(value)) {
            out.settings.push({ key: ["model_providers", id], value: entry, from: file });
          }
        } else out.settings.push({ key: [key], value, from: file });
      }
      if (notTaken.length) out.notTaken = { keys: notTaken, from: file };
      if (hooks) out.hooks.push({ events: hooks, from: file });
      out.switches.push("compat.codex_config");
    }
    const json = readHooksFile(fs, path.join(paths.codexHome, "hooks.json"));
    out.diagnostics.push(...json.diagnostics);
    if (json.hooks) {
      out.hooks.push({ events: json.hooks, from: path.join(paths.codexHome, "hooks.json") });
      out.switches.push("compat.codex_hooks");
    }
    return out;
  }
  const claude = readClaudeJson(fs, paths);
  out.diagnostics.push(...claude.diagnostics);
  if (claude.items) {
    const { file, userServers, projectServers } = claude.items;
    for (const [name, entry] of Object.entries(userServers)) out.servers.push({ name, entry, from: file });
    for (const { project, servers } of projectServers) {
      for (const name of Object.keys(servers)) {
        out.kept.push({
          key: `mcp_servers.${name}`,
          from: `${file} (projects[${JSON.stringify(project)}])`,
          reason: "Claude Code's per-project server: it stays read in place for that project",
        });
      }
    }
    // Turning the file off would also drop the per-project servers an import leaves in it.
    if (out.kept.length === 0) out.switches.push("compat.claude_json");
  }
  const settings = path.join(paths.claudeDir, "settings.json");
  const json = readHooksFile(fs, settings, { settings: true });
  out.diagnostics.push(...json.diagnostics);
  if (json.hooks) {
    out.hooks.push({ events: json.hooks, from: settings });
    out.switches.push("hooks.claude_code");
  }
  return out;
}

/**
 * What to write into the user config `doc`: each server as `[mcp_servers.<name>]` (an existing one is
 * replaced only with `force`), each hook event's groups under `[hooks]` (an event Trellis already has
 * gets the groups it lacks appended only with `force`; groups it already holds are left out). Pure:
 * `editConfigFile` calls it with the file as it is under the lock.
 */
export function planImport(
  sources: ImportSources,
  doc: TomlTable,
  options: { force?: boolean } = {},
): ImportPlan {
  const plan: ImportPlan = { items: [], edits: [], written: {} };
  const existingServers = isTable(doc.mcp_servers) ? doc.mcp_servers : {};
  for (const { name, entry, from } of sources.servers) {
    const key = `mcp_servers.${name}`;
    const converted: ImportedEntry = sources.source === "codex"
      ? importCodexEntry(name, entry)
      : importClaudeEntry(name, entry);
    if (!converted.ok) {
      plan.items.push({ key, from, action: "skip", reason: converted.reason, notes: [] });
      continue;
    }
    const exists = Object.hasOwn(existingServers, name);
    if (exists && !options.force) {
      const reason = "Trellis's config already has this server (--force replaces it)";
      plan.items.push({ key, from, action: "skip", reason, notes: [] });
      continue;
    }
    if (exists) plan.edits.push(removeKey(["mcp_servers", name]));
    const table = plain(converted.table) as Record<string, TomlValue>;
    for (const [field, value] of Object.entries(table)) {
      plan.edits.push(setKey(["mcp_servers", name, field], value));
    }
    (plan.written.mcp_servers ??= {})[name] = table;
    plan.items.push({ key, from, action: exists ? "replace" : "add", notes: converted.notes });
  }
  for (const kept of sources.kept) plan.items.push({ ...kept, action: "skip", notes: [] });
  planSettings(sources, doc, options, plan);
  planHooks(sources, doc, options, plan);
  return plan;
}

/**
 * Codex's model keys (issue #21 item 8): each is copied unless Trellis's config sets it already
 * (`--force` replaces). A value Trellis's schema refuses is left out with the reason.
 */
function planSettings(
  sources: ImportSources,
  doc: TomlTable,
  options: { force?: boolean },
  plan: ImportPlan,
) {
  for (const { key, value, from } of sources.settings) {
    const dotted = key.join(".");
    const checked = checkSetting(key, value);
    if (checked.reason !== undefined) {
      plan.items.push({ key: dotted, from, action: "skip", reason: checked.reason, notes: [] });
      continue;
    }
    const exists = valueAt(doc, key) !== undefined;
    if (exists && !options.force) {
      const reason = "Trellis's config already sets it (--force replaces it)";
      plan.items.push({ key: dotted, from, action: "skip", reason, notes: [] });
      continue;
    }
    if (exists) plan.edits.push(removeKey(key));
    const taken = plain(checked.value) as TomlValue;
    plan.edits.push(setKey(key, taken));
    const written = plan.written as Record<string, unknown>;
    if (key.length === 1) written[key[0]] = taken;
    else ((written[key[0]] ??= {}) as Record<string, unknown>)[key[1]] = taken;
    plan.items.push({ key: dotted, from, action: exists ? "replace" : "add", notes: checked.notes });
  }
}

/**
 * `value` as Trellis's schema takes it at `key` (keys it does not know dropped, each named in a note),
 * or why it refuses it.
 */
function checkSetting(key: string[], value: unknown): { value?: unknown; reason?: string; notes: string[] } {
  const raw = key.length === 1 ? { [key[0]]: value } : { [key[0]]: { [key[1]]: value } };
  try {
    const checked = validateLayer(raw, { file: sourceLabel }) as { value: Record<string, unknown> };
    const taken = key.length === 1
      ? checked.value[key[0]]
      : (checked.value[key[0]] as Record<string, unknown>)[key[1]];
    const notes = validateNotes(raw);
    return { value: taken, notes };
  } catch (error) {
    return { reason: (error as Error).message, notes: [] };
  }
}

const sourceLabel = "the Codex config";

function validateNotes(raw: Record<string, unknown>): string[] {
  return validateLayer(raw, { file: sourceLabel }).diagnostics.map((d) =>
    d.message.replace(/^Unknown config key "([^"]+)" in .*$/, "leaves out $1 (Trellis does not use it)")
  );
}

function valueAt(doc: TomlTable, key: string[]): unknown {
  let node: unknown = doc;
  for (const part of key) {
    if (!isTable(node)) return undefined;
    node = node[part];
  }
  return node;
}

function planHooks(sources: ImportSources, doc: TomlTable, options: { force?: boolean }, plan: ImportPlan) {
  // The event arrays as they will be once earlier sources' groups are in (two files may share an event).
  const current = new Map<string, unknown[]>();
  const existing = isTable(doc.hooks) ? doc.hooks : {};
  for (const [event, groups] of Object.entries(existing)) {
    if (Array.isArray(groups)) current.set(event, groups);
  }
  const touched = new Map<string, { from: string[]; action: "add" | "append"; count: number }>();
  for (const { events, from } of sources.hooks) {
    for (const [event, groups] of Object.entries(events)) {
      if (HOOK_SETTING_KEYS.has(event)) continue;
      const key = `hooks.${event}`;
      if (!Array.isArray(groups) || !groups.every(isTomlValue)) {
        plan.items.push({
          key,
          from,
          action: "skip",
          reason: "not an array of hook groups TOML can hold",
          notes: [],
        });
        continue;
      }
      const before = current.get(event);
      const fresh = (plain(groups) as unknown[]).filter((g) => !(before ?? []).some((b) => sameValue(b, g)));
      if (fresh.length === 0) {
        plan.items.push({
          key,
          from,
          action: "skip",
          reason: "Trellis's config already has these hooks",
          notes: [],
        });
        continue;
      }
      const inTrellis = Object.hasOwn(existing, event);
      if (inTrellis && !options.force) {
        const reason = `Trellis's config already has ${event} hooks (--force appends these ${fresh.length})`;
        plan.items.push({ key, from, action: "skip", reason, notes: [] });
        continue;
      }
      current.set(event, [...(before ?? []), ...fresh]);
      const seen = touched.get(event);
      touched.set(event, {
        from: [...(seen?.from ?? []), from],
        action: inTrellis ? "append" : "add",
        count: (seen?.count ?? 0) + fresh.length,
      });
    }
  }
  for (const [event, t] of touched) {
    const groups = current.get(event)! as TomlValue[];
    plan.edits.push(setKey(["hooks", event], groups));
    (plan.written.hooks ??= {})[event] = groups;
    const note = `${t.count} group(s); each hook runs only once trusted (trellis hooks list)`;
    plan.items.push({ key: `hooks.${event}`, from: t.from.join(", "), action: t.action, notes: [note] });
  }
}

/**
 * A plain copy: TOML parsers hand out null-prototype tables, which the editor's write check
 * (rightly) does not take for the plain objects it reads back.
 */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (isTable(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

function isTomlValue(value: unknown): boolean {
  if (typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isTomlValue);
  return isTable(value) && Object.values(value).every(isTomlValue);
}

/** Deep equality of plain JSON/TOML values, key order aside. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
      a.every((v, i) => sameValue(v, b[i]));
  }
  if (isTable(a) && isTable(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return a === b;
}

/** What `importInto` did (or, on a dry run, would do) to the user config. */
export interface ImportOutcome {
  plan: ImportPlan;
  sources: ImportSources;
  file: string;
  /** The file's text before and after, on a dry run only. */
  preview?: { before: string; after: string };
}

/**
 * Copies what a Codex or Claude Code user has into the user config, through the one locked,
 * verified, atomic editor. A dry run goes through the same editor and checks, and stops before the
 * lock and the write.
 */
export async function importInto(
  fs: FileSystem,
  loaded: LoadedConfig,
  sources: ImportSources,
  options: { force?: boolean; dryRun?: boolean } = {},
): Promise<ImportOutcome> {
  const file = loaded.paths.userConfig;
  let plan: ImportPlan = { items: [], edits: [], written: {} };
  const edit = await editConfigFile(fs, file, (doc) => {
    plan = planImport(sources, doc, { force: options.force === true });
    return plan.edits;
  }, { dryRun: options.dryRun === true });
  return { plan, sources, file, ...(edit.preview ? { preview: edit.preview } : {}) };
}
