/** A marketplace file (`marketplace.json`): the pure parse of its entries, sources and install policy (PL-6). */
import { type Diagnostic, errorDiagnostic, parseJsonText, warning } from "../shared/mod.ts";
import { type EntryManifest, entryManifestOf } from "./effective_manifest.ts";
import { isObject } from "./manifest.ts";
import { checkManifestPath } from "./manifest_path.ts";
import { isValidMarketplaceName, isValidPluginName } from "./plugin_id.ts";

/** Where a marketplace entry's bundle comes from (PL-6). */
export type PluginSource =
  | { kind: "local"; path: string }
  | { kind: "git"; url: string; path?: string; ref?: string; sha?: string }
  | { kind: "npm"; package: string; version?: string; registry?: string };

export type InstallPolicy = "NOT_AVAILABLE" | "AVAILABLE" | "INSTALLED_BY_DEFAULT";
export type AuthPolicy = "ON_INSTALL" | "ON_USE";

export interface MarketplaceEntry {
  name: string;
  source: PluginSource;
  installation: InstallPolicy;
  authentication: AuthPolicy;
  /** Absent = every product; [] = none. */
  products?: string[];
  category?: string;
  description?: string;
  keywords: string[];
  /** Manifest fields the entry carries, and Claude Code's `strict` (absent: plain catalogue entry). */
  manifest?: EntryManifest;
}

export interface MarketplaceFile {
  name: string;
  displayName?: string;
  entries: MarketplaceEntry[];
  diagnostics: Diagnostic[];
}

/** Products this host answers to: a marketplace written for Codex should work here unchanged. */
export const HOST_PRODUCTS = ["trellis", "codex"];

/** Pure: a marketplace.json text → its entries; bad entries are skipped with a warning. */
export function parseMarketplace(text: string, file: string): MarketplaceFile | { error: Diagnostic } {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return { error: errorDiagnostic(`Cannot parse marketplace "${file}": ${parsed.message}`, { file }) };
  }
  const raw = parsed.value;
  if (!isObject(raw) || typeof raw.name !== "string" || !isValidMarketplaceName(raw.name)) {
    return {
      error: errorDiagnostic(`Cannot load marketplace "${file}": missing or invalid "name"`, { file }),
    };
  }
  const diagnostics: Diagnostic[] = [];
  const entries: MarketplaceEntry[] = [];
  const plugins = Array.isArray(raw.plugins) ? raw.plugins : [];
  plugins.forEach((item, index) => {
    const entry = parseEntry(
      item,
      (message) => diagnostics.push(warning(`${file}: plugins[${index}]: ${message}`, { file })),
    );
    if (entry) entries.push(entry);
  });
  const iface = isObject(raw.interface) ? raw.interface : {};
  const displayName = typeof iface.displayName === "string" ? iface.displayName : undefined;
  return { name: raw.name, displayName, entries, diagnostics };
}

function parseEntry(item: unknown, warn: (message: string) => void): MarketplaceEntry | null {
  if (!isObject(item) || typeof item.name !== "string" || !isValidPluginName(item.name)) {
    warn("skipped: missing or invalid plugin name");
    return null;
  }
  const source = parseSource(item.source, warn);
  if (!source) return null;
  const policy = isObject(item.policy) ? item.policy : {};
  const installation =
    (["NOT_AVAILABLE", "AVAILABLE", "INSTALLED_BY_DEFAULT"] as const).find((p) =>
      p === policy.installation
    ) ?? "AVAILABLE";
  const authentication = policy.authentication === "ON_USE" ? "ON_USE" : "ON_INSTALL";
  const entry: MarketplaceEntry = {
    name: item.name,
    source,
    installation,
    authentication,
    keywords: Array.isArray(item.keywords) ? item.keywords.filter((k) => typeof k === "string") : [],
  };
  if (Array.isArray(policy.products)) entry.products = policy.products.filter((p) => typeof p === "string");
  if (typeof item.category === "string") entry.category = item.category;
  if (typeof item.description === "string") entry.description = item.description;
  const manifest = entryManifestOf(item);
  if (manifest) entry.manifest = manifest;
  return entry;
}

function parseSource(raw: unknown, warn: (message: string) => void): PluginSource | null {
  if (typeof raw === "string") return localSource(raw, warn);
  if (!isObject(raw)) {
    warn("skipped: unknown source shape");
    return null;
  }
  const str = (key: string) => (typeof raw[key] === "string" && raw[key] ? raw[key] as string : undefined);
  switch (raw.source) {
    case "local":
      return localSource(str("path") ?? "", warn);
    case "url":
    case "git":
    case "git-subdir":
    case "github": {
      const url = raw.source === "github" ? str("repo") : str("url");
      if (!url) {
        warn("skipped: git source without url");
        return null;
      }
      return { kind: "git", url, path: str("path"), ref: str("ref"), sha: str("sha") };
    }
    case "npm": {
      const pkg = str("package");
      if (!pkg) {
        warn("skipped: npm source without package");
        return null;
      }
      return { kind: "npm", package: pkg, version: str("version"), registry: str("registry") };
    }
    default:
      warn(`skipped: unknown source kind ${JSON.stringify(raw.source)}`);
      return null;
  }
}

function localSource(value: string, warn: (message: string) => void): PluginSource | null {
  const check = checkManifestPath(value);
  if (check.ok) return { kind: "local", path: check.relative };
  warn(`skipped: source ${JSON.stringify(value)}: ${check.reason}`);
  return null;
}

/** Whether an entry may be installed on this host: policy and product restriction. */
export function installBlockReason(entry: MarketplaceEntry, marketplace: string): string | null {
  const notAvailable =
    `plugin \`${entry.name}\` is not available for install in marketplace \`${marketplace}\``;
  if (entry.installation === "NOT_AVAILABLE") return notAvailable;
  if (entry.products && !entry.products.some((p) => HOST_PRODUCTS.includes(p.toLowerCase()))) {
    return notAvailable;
  }
  return null;
}
