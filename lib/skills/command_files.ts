import * as path from "node:path";
import type { DirEntry, FileSystem } from "../platform/mod.ts";
import { extractFrontmatter, parseFrontmatterYaml, sanitizeSingleLine } from "./frontmatter.ts";
import { MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, scalar } from "./skill_text.ts";
import { splitToolList } from "./tool_list.ts";
import type { SkillCandidate } from "./discovery.ts";
import type { FullYamlParse } from "./yaml_library.ts";
import type { SkillCommand, SkillExtraFields } from "./types.ts";

/** Claude Code namespaces a command in a subfolder as `<folder>:<command>`; one level is enough here. */
const MAX_COMMAND_DEPTH = 2;
/** A command file larger than this is not read at load time (its frontmatter must close before it). */
export const MAX_COMMAND_BYTES = 256 * 1024;

/**
 * Lists a plugin's `commands/` directory: every `*.md` file (`*.toml` for a Gemini CLI extension's;
 * and those one folder down, named `<folder>:<file>`), sorted. Hidden entries are skipped. Unreadable folders are warnings.
 */
export function scanCommandRoot(fs: FileSystem, canonicalRoot: string, label: string, extension = ".md") {
  const candidates: SkillCandidate[] = [];
  const warnings: string[] = [];
  let dirs = 0;
  let entries = 0;
  const walk = (dir: string, prefix: string[], depth: number) => {
    let listing: DirEntry[];
    try {
      listing = fs.sync.readDir(dir).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      warnings.push(`Cannot read commands directory "${dir}" (${label}): ${(error as Error).message}`);
      return;
    }
    dirs++;
    for (const entry of listing) {
      entries++;
      if (entry.name.startsWith(".")) continue;
      const full = path.join(dir, entry.name);
      if (entry.isFile && entry.name.toLowerCase().endsWith(extension)) {
        const stem = entry.name.slice(0, -extension.length);
        candidates.push({ path: full, dir, commandName: [...prefix, stem].join(":") });
      } else if (entry.isDirectory && depth < MAX_COMMAND_DEPTH) {
        walk(full, [...prefix, entry.name], depth + 1);
      }
    }
  };
  walk(canonicalRoot, [], 1);
  return { candidates, warnings, dirsScanned: dirs, entriesScanned: entries };
}

export interface ParsedCommandText {
  description: string;
  command: SkillCommand;
  extra: SkillExtraFields;
}

export type CommandTextResult =
  | { ok: true; value: ParsedCommandText }
  | { ok: false; error: string; needsParser?: true };

/**
 * Parses a Claude Code command file. Frontmatter is optional (`description`, `argument-hint`,
 * `allowed-tools`, `model`); without a `description`, the body's first non-empty line is used, as
 * Claude Code does. Pure.
 */
export function parseCommandText(text: string, parseYaml?: FullYamlParse): CommandTextResult {
  const split = extractFrontmatter(text);
  let fm: Record<string, unknown> = {};
  let body = text;
  if (split.ok) {
    const parsed = parseFrontmatterYaml(split.yaml, parseYaml);
    if (!parsed.ok) return parsed;
    fm = isRecord(parsed.value) ? parsed.value : {};
    body = split.body;
  }
  const firstLine = body.split("\n").map((l) => l.replace(/^#+\s*/, "").trim()).find((l) => l !== "") ?? "";
  const description = [...(scalar(fm.description) || sanitizeSingleLine(firstLine))]
    .slice(0, MAX_DESCRIPTION_CHARS).join("");
  const command: SkillCommand = {};
  const hint = scalar(fm["argument-hint"]);
  if (hint) command.argumentHint = hint;
  const model = scalar(fm.model);
  if (model) command.model = model;
  const allowed = splitToolList(fm["allowed-tools"]);
  return {
    ok: true,
    value: {
      description,
      command,
      extra: {
        ...(allowed.length > 0 ? { allowedTools: allowed } : {}),
        ...(isRecord(fm.hooks) ? { hooks: fm.hooks } : {}),
      },
    },
  };
}

/** The qualified name of a command, or an error when it is too long (SK-5's name limit). */
export function commandSkillName(namespace: string, commandName: string): string | { error: string } {
  if ([...commandName].length > MAX_NAME_CHARS) {
    return { error: `invalid name: exceeds maximum length of ${MAX_NAME_CHARS} characters` };
  }
  return `${namespace}:${commandName}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
