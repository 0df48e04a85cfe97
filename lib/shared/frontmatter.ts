import { parseSimpleYaml } from "./simple_yaml.ts";
import type { FullYamlParse } from "./yaml_library.ts";

/**
 * SKILL.md frontmatter, pure functions of the text: find the `---` block, parse it with a real YAML
 * parser, and retry once with common unquoted-scalar mistakes repaired (Codex's newest loader).
 *
 * Why the `---` split is hand-written rather than `yaml.parseAllDocuments` (the library's way to
 * read a `---`-separated stream): the body after the frontmatter is Markdown, which that call would
 * parse as YAML too. Measured (tests/skills/_measure_parsers.ts, 26 real SKILL.md files, whole
 * files): 61 µs a file for extractFrontmatter against 6.2 ms for parseAllDocuments (~100×), which
 * also reports errors from the Markdown. The YAML itself is always parsed by the library (or the
 * measured fast path in simple_yaml.ts).
 */

export const MISSING_FRONTMATTER = "missing YAML frontmatter delimited by ---";

export type FrontmatterSplit =
  | { ok: true; yaml: string; body: string }
  | { ok: false; error: string };

/** Splits `text` into the YAML between the first two `---` lines and the body after them. */
export function extractFrontmatter(text: string): FrontmatterSplit {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = src.split("\n");
  if (lines.length < 3 || lines[0].trim() !== "---") return { ok: false, error: MISSING_FRONTMATTER };
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() !== "---") continue;
    if (i === 1) return { ok: false, error: MISSING_FRONTMATTER };
    return {
      ok: true,
      yaml: lines.slice(1, i).map(stripCr).join("\n"),
      body: lines.slice(i + 1).join("\n"),
    };
  }
  return { ok: false, error: MISSING_FRONTMATTER };
}

/**
 * True when `prefix` (the first bytes of a longer file) already holds the closing `---` on a complete
 * line, so the rest of the file need not be read.
 */
export function frontmatterClosedIn(prefix: string): boolean {
  const complete = prefix.slice(0, prefix.lastIndexOf("\n") + 1);
  const split = extractFrontmatter(complete);
  return split.ok;
}

/** Whitespace other than a single inner space: a run, a leading or trailing one, or a tab/newline/etc. */
const NEEDS_SANITIZING = /[^\S ]| {2}|^ | $/;

/** Whitespace runs become one space; leading and trailing whitespace goes. */
export function sanitizeSingleLine(value: string): string {
  // Most values are already clean; skip the split/join (and its garbage) for them.
  if (!NEEDS_SANITIZING.test(value)) return value;
  return value.split(/\s+/).filter((part) => part !== "").join(" ");
}

/** `needsParser`: the fast path could not decide; call again with the full parser (yaml_library.ts). */
export type YamlParse =
  | { ok: true; value: unknown }
  | { ok: false; error: string; needsParser?: true };

/** Parses frontmatter YAML; on failure retries once with unquoted scalars repaired. */
export function parseFrontmatterYaml(yaml: string, parseYaml?: FullYamlParse): YamlParse {
  const simple = parseSimpleYaml(yaml);
  if (simple) return { ok: true, value: simple };
  if (!parseYaml) return { ok: false, error: "frontmatter needs the full YAML parser", needsParser: true };
  const first = tryParse(yaml, parseYaml);
  if (first.ok) return first;
  const repaired = repairUnquotedScalars(yaml, parseYaml);
  if (repaired !== yaml) {
    const second = tryParse(repaired, parseYaml);
    if (second.ok) return second;
  }
  return { ok: false, error: `invalid YAML: ${first.error}` };
}

function tryParse(yaml: string, parseYaml: FullYamlParse): YamlParse {
  try {
    return { ok: true, value: parseYaml(yaml, { maxAliasCount: 50, logLevel: "error" }) };
  } catch (error) {
    return { ok: false, error: firstLine(error) };
  }
}

const KEY_VALUE = /^(\s*[A-Za-z0-9_.-]+:[ \t]+)(.*?)\s*$/;

/**
 * Single-quotes the value of a `key: value` line when it is unquoted, contains `": "` or starts with
 * one of `[ { @ \``, and does not parse on its own. Block scalars and quoted values are left alone.
 */
export function repairUnquotedScalars(yaml: string, parseYaml: FullYamlParse): string {
  return yaml.split("\n").map((line) => {
    const m = KEY_VALUE.exec(line);
    if (!m) return line;
    const value = m[2];
    if (value === "" || /^['"|>]/.test(value)) return line;
    if (!value.includes(": ") && !/^[[{@`]/.test(value)) return line;
    if (tryParse(line.trimStart(), parseYaml).ok) return line;
    return `${m[1]}'${value.replaceAll("'", "''")}'`;
  }).join("\n");
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0];
}
