import { type Diagnostic, warning } from "../shared/mod.ts";
import type { LoadedManifest } from "./load_manifest.ts";
import {
  defaultManifest,
  parseManifestValue,
  type PluginManifest,
  UNSUPPORTED_COMPONENTS,
} from "./manifest.ts";

/**
 * Manifest fields a marketplace entry may carry (Claude Code: "strict" entries). Stored in the
 * install record, so the loader sees the same manifest the install saw.
 */
export interface EntryManifest {
  /** Claude Code's default true: plugin.json is the authority and the entry supplements it. */
  strict: boolean;
  fields: Record<string, unknown>;
}

const COMPONENT_KEYS = [
  "skills",
  "commands",
  "agents",
  "hooks",
  "mcpServers",
  "apps",
  ...UNSUPPORTED_COMPONENTS,
];

/**
 * The manifest a plugin runs with (PL-1, PL-3 as revised by issue 14): plugin.json when there is
 * one, merged with the marketplace entry's fields as Claude Code merges them (`strict: false`: the
 * entry is the whole definition); no plugin.json, or one that is not a manifest, gives the default
 * layout under `name` — with one warning naming the file in the second case, never a refusal.
 */
export function effectiveManifest(
  file: LoadedManifest,
  options: { name: string; entry?: EntryManifest; where?: string },
): { manifest: PluginManifest; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const label = options.where ? `${options.where}: ` : "";
  const own = file.manifest;
  if (!own && file.location) {
    const problem = file.diagnostics.find((d) => d.level === "error") ?? file.diagnostics[0];
    const path = problem?.file ?? file.location;
    diagnostics.push(
      warning(`${label}ignoring ${path}: ${problem?.message ?? "not a manifest"}; using the default layout`, {
        file: path,
        subject: options.where,
      }),
    );
  } else {
    // plugin.json's own warnings ("ignoring version: …") name the plugin they are about (#16 item 8).
    diagnostics.push(...file.diagnostics.map((d) => ({
      ...d,
      message: `${label}${d.message}`,
      ...(options.where ? { subject: options.where } : {}),
    })));
  }
  const entry = options.entry ? entryManifest(options.entry, options.name, label, diagnostics) : null;
  if (!entry) return { manifest: own ?? defaultManifest(options.name), diagnostics };
  if (!options.entry!.strict) {
    if (own && declaresComponents(file)) {
      diagnostics.push(
        warning(
          `${label}the marketplace entry is the plugin's whole definition (strict: false); the components ${file.location} declares are ignored`,
          { file: file.location ?? undefined, subject: options.where },
        ),
      );
    }
    const whole = own
      ? { ...own, ...withoutComponents(entry), version: entry.version ?? own.version }
      : entry;
    return { manifest: compact({ ...whole, name: options.name }), diagnostics };
  }
  return { manifest: compact(own ? supplement(own, entry) : entry), diagnostics };
}

function entryManifest(
  entry: EntryManifest,
  name: string,
  label: string,
  diagnostics: Diagnostic[],
): PluginManifest | null {
  if (Object.keys(entry.fields).length === 0 && entry.strict) return null;
  const parsed = parseManifestValue({ ...entry.fields, name });
  for (const d of parsed.diagnostics) {
    diagnostics.push({ ...d, message: `${label}marketplace entry: ${d.message}` });
  }
  const manifest = parsed.manifest ?? defaultManifest(name);
  if (manifest.hooks) {
    manifest.hooks = manifest.hooks.map((h) =>
      h.kind === "inline" ? { ...h, origin: "marketplace" as const } : h
    );
  }
  return manifest;
}

/** Drops keys left undefined by a merge, so a manifest compares equal to a parsed one. */
function compact(manifest: PluginManifest): PluginManifest {
  for (const key of Object.keys(manifest) as (keyof PluginManifest)[]) {
    if (manifest[key] === undefined) delete manifest[key];
  }
  return manifest;
}

function declaresComponents(file: LoadedManifest): boolean {
  const m = file.manifest;
  return !!m && (m.skills.length > 0 || m.mcpServers !== undefined || m.apps !== undefined ||
    m.hooks !== undefined || m.commands !== undefined || m.agents !== undefined ||
    m.unsupported !== undefined);
}

/** The entry's components in place of the file's (strict: false keeps only the file's metadata). */
function withoutComponents(entry: PluginManifest): Partial<PluginManifest> {
  const out: Partial<PluginManifest> = { skills: entry.skills };
  for (const key of ["mcpServers", "apps", "hooks", "commands", "agents", "unsupported"] as const) {
    // deno-lint-ignore no-explicit-any
    (out as any)[key] = entry[key];
  }
  return out;
}

/** strict: true — plugin.json wins; the entry adds skills, hooks, commands and agents beside it. */
function supplement(own: PluginManifest, entry: PluginManifest): PluginManifest {
  const merged: PluginManifest = { ...own };
  merged.skills = [...new Set([...own.skills, ...entry.skills])].sort();
  merged.mcpServers = own.mcpServers ?? entry.mcpServers;
  merged.apps = own.apps ?? entry.apps;
  if (entry.hooks) merged.hooks = [...(own.hooks ?? []), ...entry.hooks];
  for (const key of ["commands", "agents"] as const) {
    if (entry[key]) merged[key] = [...new Set([...(own[key] ?? []), ...entry[key]!])];
  }
  if (entry.unsupported) merged.unsupported = { ...entry.unsupported, ...own.unsupported };
  merged.version = own.version ?? entry.version;
  merged.description = own.description ?? entry.description;
  return merged;
}

/** The manifest fields of a raw marketplace entry (Claude Code entries may carry any of them). */
export function entryManifestOf(item: Record<string, unknown>): EntryManifest | undefined {
  const fields: Record<string, unknown> = {};
  for (const key of [...COMPONENT_KEYS, "version", "description", "keywords", "author", "license"]) {
    if (item[key] !== undefined) fields[key] = item[key];
  }
  const strict = item.strict !== false;
  const hasComponents = COMPONENT_KEYS.some((k) => fields[k] !== undefined);
  return hasComponents || !strict || fields.version !== undefined ? { strict, fields } : undefined;
}
