/** A manifest's `interface` block: display metadata (PL-4), never a source of capabilities. */
import { type Diagnostic, warning } from "../shared/mod.ts";
import { checkManifestPath } from "./manifest_path.ts";

/** Display metadata (PL-4): shown to people and the model, never a source of capabilities. */
export interface PluginInterface {
  displayName?: string;
  shortDescription?: string;
  longDescription?: string;
  developerName?: string;
  category?: string;
  capabilities?: string[];
  websiteUrl?: string;
  privacyPolicyUrl?: string;
  termsOfServiceUrl?: string;
  defaultPrompts?: string[];
  brandColor?: string;
  composerIcon?: string;
  logo?: string;
  logoDark?: string;
  screenshots?: string[];
}

export const MAX_DEFAULT_PROMPTS = 3;
export const MAX_DEFAULT_PROMPT_CHARS = 128;

const flatten = (text: string) => text.split(/\s+/).filter(Boolean).join(" ");

const TEXT_FIELDS = [
  ["displayName", "displayName"],
  ["shortDescription", "shortDescription"],
  ["longDescription", "longDescription"],
  ["developerName", "developerName"],
  ["category", "category"],
  ["websiteUrl", "websiteURL", "websiteUrl"],
  ["privacyPolicyUrl", "privacyPolicyURL", "privacyPolicyUrl"],
  ["termsOfServiceUrl", "termsOfServiceURL", "termsOfServiceUrl"],
] as const;

const ASSET_FIELDS = ["composerIcon", "logo", "logoDark"] as const;

/** Lenient: each bad field is dropped with a warning; an interface with nothing left is absent. */
export function parseInterface(raw: unknown, diagnostics: Diagnostic[]): PluginInterface | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    diagnostics.push(warning("ignoring interface: expected an object", { field: "interface" }));
    return undefined;
  }
  const r = raw as Record<string, unknown>;
  const out: PluginInterface = {};
  for (const [target, ...keys] of TEXT_FIELDS) {
    const key = keys.find((k) => r[k] !== undefined);
    if (!key) continue;
    if (typeof r[key] === "string" && r[key].trim()) out[target] = (r[key] as string).trim();
    else diagnostics.push(warning(`ignoring interface.${key}: expected a non-empty string`, { field: key }));
  }
  if (r.capabilities !== undefined) {
    const caps = Array.isArray(r.capabilities) ? r.capabilities.filter((c) => typeof c === "string") : [];
    if (caps.length) out.capabilities = caps as string[];
  }
  const prompts = parseDefaultPrompts(r.defaultPrompt, diagnostics);
  if (prompts.length) out.defaultPrompts = prompts;
  if (typeof r.brandColor === "string" && /^#[0-9A-Fa-f]{6}$/.test(r.brandColor)) {
    out.brandColor = r.brandColor;
  } else if (r.brandColor !== undefined) {
    diagnostics.push(warning("ignoring interface.brandColor: expected #RRGGBB"));
  }
  for (const key of ASSET_FIELDS) {
    const value = assetPath(r[key], key, diagnostics);
    if (value) out[key] = value;
  }
  if (Array.isArray(r.screenshots)) {
    const shots = r.screenshots.map((s, i) => assetPath(s, `screenshots[${i}]`, diagnostics)).filter(
      (s): s is string => !!s,
    );
    if (shots.length) out.screenshots = shots;
  }
  return Object.keys(out).length ? out : undefined;
}

function assetPath(value: unknown, field: string, diagnostics: Diagnostic[]): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    diagnostics.push(warning(`ignoring interface.${field}: expected a path string`, { field }));
    return undefined;
  }
  const check = checkManifestPath(value);
  if (check.ok) return check.relative;
  diagnostics.push(warning(`ignoring interface.${field}: ${check.reason}`, { field }));
  return undefined;
}

/** At most 3 prompts of ≤ 128 chars, whitespace flattened; empty or wrong-typed entries skipped. */
export function parseDefaultPrompts(raw: unknown, diagnostics: Diagnostic[]): string[] {
  if (raw === undefined) return [];
  const list = typeof raw === "string" ? [raw] : Array.isArray(raw) ? raw : null;
  if (!list) {
    diagnostics.push(warning("ignoring interface.defaultPrompt: expected a string or an array of strings"));
    return [];
  }
  const prompts: string[] = [];
  for (const entry of list) {
    const text = typeof entry === "string" ? flatten(entry) : "";
    if (!text) {
      diagnostics.push(warning("ignoring interface.defaultPrompt entry: expected a non-empty string"));
    } else if (text.length > MAX_DEFAULT_PROMPT_CHARS) {
      diagnostics.push(
        warning(`ignoring interface.defaultPrompt entry: longer than ${MAX_DEFAULT_PROMPT_CHARS} characters`),
      );
    } else prompts.push(text);
  }
  if (prompts.length > MAX_DEFAULT_PROMPTS) {
    diagnostics.push(
      warning(
        `interface.defaultPrompt: keeping the first ${MAX_DEFAULT_PROMPTS} of ${prompts.length} prompts`,
      ),
    );
  }
  return prompts.slice(0, MAX_DEFAULT_PROMPTS);
}
