import * as path from "node:path";
import { sanitizeSingleLine } from "./frontmatter.ts";
import type { FullYamlParse } from "./yaml_library.ts";
import type { SkillInterface, SkillPolicy, SkillToolDependency } from "./types.ts";

/** What `agents/openai.yaml` adds to a skill (SK-6); every field is optional and dropped when bad. */
export interface OpenAiYaml {
  interface?: SkillInterface;
  dependencies?: { tools: SkillToolDependency[] };
  policy?: Partial<SkillPolicy>;
  warnings: string[];
}

const INTERFACE_LIMITS: Record<string, [keyof SkillInterface, number]> = {
  display_name: ["displayName", 64],
  short_description: ["shortDescription", 1024],
  default_prompt: ["defaultPrompt", 1024],
};

const DEPENDENCY_LIMITS: [keyof SkillToolDependency, number, boolean][] = [
  ["type", 64, true],
  ["value", 1024, true],
  ["description", 1024, false],
  ["transport", 64, false],
  ["command", 1024, false],
  ["url", 1024, false],
];

/** Fail-open parse: invalid YAML or fields give warnings, never an error for the skill. */
export function parseOpenAiYaml(
  text: string,
  where: IconPlace & { file: string },
  parseYaml: FullYamlParse,
): OpenAiYaml {
  let raw: unknown;
  try {
    raw = parseYaml(text, { maxAliasCount: 50, logLevel: "error" });
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return { warnings: [`Ignored ${where.file}: invalid YAML: ${message}`] };
  }
  if (!isRecord(raw)) return { warnings: raw == null ? [] : [`Ignored ${where.file}: not a mapping`] };
  const warnings: string[] = [];
  const result: OpenAiYaml = { warnings };
  const iface = parseInterface(raw.interface, where, warnings);
  if (iface) result.interface = iface;
  const tools = parseDependencies(raw.dependencies, where.file, warnings);
  if (tools.length > 0) result.dependencies = { tools };
  if (isRecord(raw.policy)) {
    const policy: Partial<SkillPolicy> = {};
    if (typeof raw.policy.allow_implicit_invocation === "boolean") {
      policy.allowImplicitInvocation = raw.policy.allow_implicit_invocation;
    }
    if (Array.isArray(raw.policy.products)) policy.products = raw.policy.products.map(String);
    result.policy = policy;
  }
  return result;
}

function parseInterface(
  raw: unknown,
  where: IconPlace & { file: string },
  warnings: string[],
): SkillInterface | undefined {
  if (!isRecord(raw)) return undefined;
  const out: SkillInterface = {};
  for (const [key, [field, limit]] of Object.entries(INTERFACE_LIMITS)) {
    const value = typeof raw[key] === "string" ? sanitizeSingleLine(raw[key] as string) : "";
    if (value && [...value].length <= limit) out[field] = value;
    else if (value) {
      warnings.push(`Ignored interface.${key} in ${where.file}: longer than ${limit} characters`);
    }
  }
  for (const [key, field] of [["icon_small", "iconSmall"], ["icon_large", "iconLarge"]] as const) {
    if (typeof raw[key] !== "string") continue;
    const icon = resolveIcon(raw[key] as string, where);
    if (icon) out[field] = icon;
    else {
      warnings.push(
        `Ignored interface.${key} in ${where.file}: must be a relative path that stays inside the skill's folder (or its plugin)`,
      );
    }
  }
  if (typeof raw.brand_color === "string") {
    if (/^#[0-9A-Fa-f]{6}$/.test(raw.brand_color)) out.brandColor = raw.brand_color;
    else warnings.push(`Ignored interface.brand_color in ${where.file}: expected #RRGGBB`);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Where a skill's icons may live: relative to its folder, and inside one of `assetRoots`. */
export interface IconPlace {
  skillDir: string;
  /**
   * Folders besides the skill's own that icons may point into: a plugin skill's plugin root. Real
   * skills write `./assets/x.png` (their own folder) and plugins `../../assets/logo.svg` (assets
   * shared by the plugin's skills), as Codex accepts.
   */
  assetRoots?: string[];
}

/** The icon's absolute path, or undefined when it is absolute or leaves every allowed root. */
function resolveIcon(value: string, where: IconPlace): string | undefined {
  const rel = value.trim();
  if (rel === "" || path.isAbsolute(rel) || /^[A-Za-z]:[\\/]/.test(rel) || /^[a-z]+:/i.test(rel)) {
    return undefined;
  }
  const resolved = path.resolve(where.skillDir, ...rel.split(/[\\/]/));
  const roots = [where.skillDir, ...(where.assetRoots ?? [])];
  return roots.some((root) => resolved === root || resolved.startsWith(root + path.sep))
    ? resolved
    : undefined;
}

function parseDependencies(raw: unknown, file: string, warnings: string[]): SkillToolDependency[] {
  if (!isRecord(raw) || !Array.isArray(raw.tools)) return [];
  const tools: SkillToolDependency[] = [];
  raw.tools.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    const dep: Record<string, string> = {};
    for (const [field, limit, required] of DEPENDENCY_LIMITS) {
      const value = typeof entry[field] === "string" ? sanitizeSingleLine(entry[field] as string) : "";
      if (value && [...value].length <= limit) dep[field] = value;
      else if (required) {
        warnings.push(`Ignored dependencies.tools[${index}] in ${file}: missing or invalid "${field}"`);
        return;
      }
    }
    tools.push(dep as unknown as SkillToolDependency);
  });
  return tools;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
