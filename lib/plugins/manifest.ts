import { type Diagnostic, errorDiagnostic, parseJsonText, warning } from "../shared/mod.ts";
import { parseInterface, type PluginInterface } from "./display_metadata.ts";
import { checkManifestPath } from "./manifest_path.ts";
import { isValidPluginName } from "./plugin_id.ts";

/** Where a plugin declares its MCP servers: a file in the bundle or an inline server table. */
export type McpDeclaration = { kind: "path"; path: string } | {
  kind: "inline";
  servers: Record<string, unknown>;
};

/** One `hooks` entry: a file, or an inline `{hooks:{…}}` object at index N of the manifest's list. */
export type HookDeclaration = { kind: "path"; path: string } | {
  kind: "inline";
  index: number;
  value: unknown;
  /** Declared by the marketplace entry rather than plugin.json (names its hook source). */
  origin?: "marketplace";
};

/**
 * Claude Code components Trellis records and reports but does not run. `lspServers` and the others
 * are never a reason to refuse a plugin: install says in one line that they are not run.
 */
export const UNSUPPORTED_COMPONENTS = [
  "lspServers",
  "outputStyles",
  "monitors",
  "userConfig",
  "channels",
  "dependencies",
] as const;
export type UnsupportedComponent = typeof UNSUPPORTED_COMPONENTS[number];

export interface PluginManifest {
  name: string;
  version?: string;
  description?: string;
  keywords: string[];
  /** Relative paths (no `./`), already checked lexically. */
  skills: string[];
  mcpServers?: McpDeclaration;
  apps?: string;
  /** Undefined when the manifest has no `hooks` key: the default `hooks/hooks.json` applies. */
  hooks?: HookDeclaration[];
  /** Claude Code `commands` paths (directories or `.md` files); undefined: the default `commands/`. */
  commands?: string[];
  /** Claude Code `agents` paths (directories or `.md` files); undefined: the default `agents/`. */
  agents?: string[];
  /** Declared components Trellis does not run, by manifest key (a path or an inline value). */
  unsupported?: Partial<Record<UnsupportedComponent, unknown>>;
  interface?: PluginInterface;
  /** Claude Code fields kept as metadata only. */
  metadata: Record<string, unknown>;
}

export interface ManifestParse {
  manifest: PluginManifest | null;
  diagnostics: Diagnostic[];
}

const CLAUDE_METADATA = ["author", "homepage", "repository", "license"] as const;

/** Pure: manifest text → strict manifest; invalid JSON or a value that is not an object gives none. */
export function parseManifest(text: string, options: { dirName?: string } = {}): ManifestParse {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return { manifest: null, diagnostics: [errorDiagnostic(`invalid JSON: ${parsed.message}`)] };
  }
  return parseManifestValue(parsed.value, options);
}

/** Pure: lenient raw JSON value → strict manifest, warning and dropping per field (PL-1..4). */
export function parseManifestValue(raw: unknown, options: { dirName?: string } = {}): ManifestParse {
  const diagnostics: Diagnostic[] = [];
  if (!isObject(raw)) {
    const found = Array.isArray(raw) ? "an array" : raw === null ? "null" : `a ${typeof raw}`;
    return { manifest: null, diagnostics: [errorDiagnostic(`expected a JSON object, found ${found}`)] };
  }
  const r = raw;
  const name = (typeof r.name === "string" ? r.name.trim() : "") || options.dirName || "";
  if (!isValidPluginName(name)) {
    return {
      manifest: null,
      diagnostics: [errorDiagnostic(`invalid plugin name "${name}"`, { field: "name" })],
    };
  }
  const manifest: PluginManifest = {
    name,
    keywords: stringList(r.keywords),
    skills: pathList(r.skills, "skills", diagnostics),
    metadata: {},
  };
  if (typeof r.version === "string" && r.version.trim()) manifest.version = r.version.trim();
  else if (r.version !== undefined && typeof r.version !== "string") {
    diagnostics.push(warning("ignoring version: expected a string", { field: "version" }));
  }
  if (typeof r.description === "string" && r.description.trim()) manifest.description = r.description.trim();
  const mcpServers = mcpDeclaration(r.mcpServers, diagnostics);
  if (mcpServers) manifest.mcpServers = mcpServers;
  const apps = r.apps === undefined ? undefined : singlePath(r.apps, "apps", diagnostics);
  if (apps) manifest.apps = apps;
  if (r.hooks !== undefined) manifest.hooks = hookDeclarations(r.hooks, diagnostics);
  if (r.commands !== undefined) manifest.commands = componentPaths(r.commands, "commands", diagnostics);
  if (r.agents !== undefined) manifest.agents = componentPaths(r.agents, "agents", diagnostics);
  for (const key of UNSUPPORTED_COMPONENTS) {
    if (r[key] !== undefined) (manifest.unsupported ??= {})[key] = r[key];
  }
  const iface = parseInterface(r.interface, diagnostics);
  if (iface) manifest.interface = iface;
  for (const key of CLAUDE_METADATA) {
    if (r[key] !== undefined) manifest.metadata[key] = r[key];
  }
  return { manifest, diagnostics };
}

/** The manifest of a plugin that has none: Claude Code's default layout under the given name. */
export function defaultManifest(name: string): PluginManifest {
  return { name, keywords: [], skills: [], metadata: {} };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function singlePath(value: unknown, field: string, diagnostics: Diagnostic[]): string | undefined {
  if (typeof value !== "string") {
    diagnostics.push(warning(`ignoring ${field}: expected a path string`, { field }));
    return undefined;
  }
  const check = checkManifestPath(value);
  if (check.ok) return check.relative;
  diagnostics.push(warning(`ignoring ${field}: ${check.reason}`, { field }));
  return undefined;
}

function pathList(value: unknown, field: string, diagnostics: Diagnostic[]): string[] {
  if (value === undefined) return [];
  const list = typeof value === "string" ? [value] : Array.isArray(value) ? value : null;
  if (!list) {
    diagnostics.push(warning(`ignoring ${field}: expected a path or an array of paths`, { field }));
    return [];
  }
  const out = list.map((v) => singlePath(v, field, diagnostics)).filter((p): p is string => !!p);
  return [...new Set(out)].sort();
}

/** `commands` / `agents`: a path or a list of paths, in declaration order (Claude Code's shapes). */
function componentPaths(value: unknown, field: string, diagnostics: Diagnostic[]): string[] {
  if (isObject(value)) {
    diagnostics.push(
      warning(`ignoring ${field}: the object form is not supported yet; list paths instead`, { field }),
    );
    return [];
  }
  return [...new Set(pathList(value, field, diagnostics))];
}

function mcpDeclaration(value: unknown, diagnostics: Diagnostic[]): McpDeclaration | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") {
    const p = singlePath(value, "mcpServers", diagnostics);
    return p ? { kind: "path", path: p } : undefined;
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const table = value as Record<string, unknown>;
    // An inline value may itself be wrapped as {"mcpServers": {...}} like a .mcp.json file.
    const servers = isObject(table.mcpServers) ? table.mcpServers : table;
    return { kind: "inline", servers: servers as Record<string, unknown> };
  }
  diagnostics.push(warning("ignoring mcpServers: expected a path or an object", { field: "mcpServers" }));
  return undefined;
}

function hookDeclarations(value: unknown, diagnostics: Diagnostic[]): HookDeclaration[] {
  const list = Array.isArray(value) ? value : [value];
  const out: HookDeclaration[] = [];
  list.forEach((entry, index) => {
    if (typeof entry === "string") {
      const p = singlePath(entry, "hooks", diagnostics);
      if (p) out.push({ kind: "path", path: p });
    } else if (isObject(entry)) {
      out.push({ kind: "inline", index, value: entry });
    } else {
      diagnostics.push(warning("ignoring hooks entry: expected a path or an object", { field: "hooks" }));
    }
  });
  return out;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
