import { extractFrontmatter, parseFrontmatterYaml, sanitizeSingleLine } from "./frontmatter.ts";
import type { FullYamlParse } from "./yaml_library.ts";
import { splitToolList } from "./tool_list.ts";
import type { SkillExtraFields } from "./types.ts";

/** SKILL.md limits (SK-5), in characters. */
export const MAX_NAME_CHARS = 64;
export const MAX_QUALIFIED_NAME_CHARS = 128;
export const MAX_DESCRIPTION_CHARS = 1024;

/** What SKILL.md itself says; the body is deliberately not part of it (SK-7). */
export interface ParsedSkillText {
  name: string;
  description: string;
  shortDescription?: string;
  /** Claude Code's `disable-model-invocation: true` hides the skill from the catalog. */
  disableModelInvocation: boolean;
  extra: SkillExtraFields;
}

/**
 * `needsParser`: call again with the full YAML parser (only frontmatter off the fast path needs it).
 * `notes`: what was repaired on the way (a description cut to its limit), for a warning naming the file.
 */
export type SkillTextResult =
  | { ok: true; value: ParsedSkillText; notes: string[] }
  | { ok: false; error: string; needsParser?: true };

/**
 * Parses SKILL.md text. Pure: the same text, directory name and namespace always give the same
 * result. Errors use Codex's texts so users can search for them. Without `parseYaml`, frontmatter
 * that is not simple `key: value` lines comes back as `needsParser`. A description or short
 * description over 1,024 characters is cut to its first 1,024 with a note, never an error (SK-5):
 * real skills ship such descriptions (anthropics/skills' `claude-api`) and Codex loads them.
 */
export function parseSkillText(
  text: string,
  where: { dirName: string; namespace?: string },
  parseYaml?: FullYamlParse,
): SkillTextResult {
  const split = extractFrontmatter(text);
  if (!split.ok) return split;
  const parsed = parseFrontmatterYaml(split.yaml, parseYaml);
  if (!parsed.ok) return parsed;
  const fm = isRecord(parsed.value) ? parsed.value : {};
  const name = scalar(fm.name) || sanitizeSingleLine(where.dirName) || "skill";
  if ([...name].length > MAX_NAME_CHARS) {
    return { ok: false, error: `invalid name: exceeds maximum length of ${MAX_NAME_CHARS} characters` };
  }
  const qualified = where.namespace ? `${where.namespace}:${name}` : name;
  if ([...qualified].length > MAX_QUALIFIED_NAME_CHARS) {
    return {
      ok: false,
      error: `invalid qualified name: exceeds maximum length of ${MAX_QUALIFIED_NAME_CHARS} characters`,
    };
  }
  const notes: string[] = [];
  const description = limited(scalar(fm.description), "description", notes);
  if (description === "") return { ok: false, error: "missing field `description`" };
  const metadata = isRecord(fm.metadata) ? fm.metadata : {};
  const shortDescription = limited(
    scalar(metadata["short-description"]),
    "metadata.short-description",
    notes,
  );
  return {
    ok: true,
    notes,
    value: {
      name: qualified,
      description,
      ...(shortDescription ? { shortDescription } : {}),
      disableModelInvocation: fm["disable-model-invocation"] === true,
      extra: extraFields(fm, metadata),
    },
  };
}

function extraFields(fm: Record<string, unknown>, metadata: Record<string, unknown>): SkillExtraFields {
  const extra: SkillExtraFields = {};
  const license = scalar(fm.license);
  if (license) extra.license = license;
  const compatibility = scalar(fm.compatibility);
  if (compatibility) extra.compatibility = compatibility;
  const allowed = splitToolList(fm["allowed-tools"]);
  if (allowed.length > 0) extra.allowedTools = allowed;
  const entries = Object.entries(metadata).map(([k, v]) => [k, scalar(v)]).filter(([, v]) => v !== "");
  if (entries.length > 0) extra.metadata = Object.fromEntries(entries);
  if (isRecord(fm.hooks)) extra.hooks = fm.hooks;
  return extra;
}

/** A single-line string field; numbers and booleans are taken as written, anything else is absent. */
export function scalar(value: unknown): string {
  if (typeof value === "string") return sanitizeSingleLine(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

/** The first MAX_DESCRIPTION_CHARS characters of `value`, noting the cut. */
function limited(value: string, field: string, notes: string[]): string {
  const chars = [...value];
  if (chars.length <= MAX_DESCRIPTION_CHARS) return value;
  notes.push(
    `${field} is ${chars.length} characters; only its first ${MAX_DESCRIPTION_CHARS} are used`,
  );
  return chars.slice(0, MAX_DESCRIPTION_CHARS).join("").trimEnd();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
