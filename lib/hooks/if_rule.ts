import * as path from "node:path";
import { compileCommandRule, globMatches } from "./command_pattern.ts";
import { type CommandSegment, commandSegments } from "./command_segments.ts";
import { loadBashParser } from "./shell_parser.ts";

/**
 * A handler's `if` (HK-5): one rule in Claude Code's permission-rule syntax, deciding per tool call
 * whether the handler spawns at all. `Bash` (every call of the tool), `Bash(git commit:*)` (prefix),
 * `Bash(git *)` (glob), `Bash(npm test)` (exact), `Edit(src/**)` (path glob), `mcp__server`,
 * `mcp__server__*`, `mcp__server__tool`, `WebFetch(domain:example.com)`.
 */
export interface IfRule {
  /** The rule as written: also what the trust hash covers. */
  text: string;
  tool: string;
  specifier?: string;
}

export type IfRuleParseResult = { ok: true; rule: IfRule } | { ok: false; error: string };

const RULE = /^([A-Za-z0-9_*.-]+)(?:\((.*)\))?$/s;

export function parseIfRule(raw: unknown): IfRuleParseResult {
  if (typeof raw !== "string") return { ok: false, error: `expected a string, got ${JSON.stringify(raw)}` };
  const text = raw.trim();
  const match = RULE.exec(text);
  if (!match) {
    return { ok: false, error: `"${raw}" is not a permission rule (expected Tool or Tool(specifier))` };
  }
  const specifier = match[2]?.trim();
  if (match[2] !== undefined && specifier === "") {
    return { ok: false, error: `"${raw}" has an empty specifier (write ${match[1]} for every call)` };
  }
  return { ok: true, rule: { text: raw, tool: match[1], ...(specifier ? { specifier } : {}) } };
}

/** The tool call an `if` rule is judged against. */
export interface RuleCall {
  /** Canonical hook name first, then its matcher aliases. */
  names: readonly string[];
  /** The hook-facing tool_input. */
  input: unknown;
  cwd: string;
  home: string;
}

/**
 * Whether the handler runs. `unjudged` says why a command line could not be read (a syntax error,
 * a command word known only at run time, `eval`, shells nested too deep): such a call counts as
 * matching, since a guard that runs once too often is safe and one that never runs is not, and the
 * caller warns with the reason.
 */
export interface IfRuleVerdict {
  matches: boolean;
  unjudged?: string;
}

export async function judgeIfRule(rule: IfRule, call: RuleCall): Promise<IfRuleVerdict> {
  if (!call.names.some((name) => toolMatches(rule.tool, name))) return { matches: false };
  if (rule.specifier === undefined || rule.specifier === "*") return { matches: true };
  const input = (typeof call.input === "object" && call.input !== null ? call.input : {}) as Record<
    string,
    unknown
  >;
  const command = input.command;
  if (typeof command === "string" || isWords(command)) return await commandMatches(rule.specifier, command);
  const file = [input.file_path, input.notebook_path, input.path].find((v) => typeof v === "string");
  if (typeof file === "string") return { matches: pathMatches(rule.specifier, file, call) };
  if (typeof input.url === "string" && rule.specifier.startsWith("domain:")) {
    return { matches: hostOf(input.url) === rule.specifier.slice("domain:".length) };
  }
  return { matches: false };
}

function isWords(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((w) => typeof w === "string");
}

/** `mcp__server` covers every tool of that server; `*` in a tool name is a wildcard. */
function toolMatches(pattern: string, name: string): boolean {
  if (pattern === name) return true;
  if (pattern.startsWith("mcp__") && !pattern.slice(5).includes("__") && name.startsWith(`${pattern}__`)) {
    return true;
  }
  return pattern.includes("*") && wildcard(pattern).test(name);
}

/**
 * Any simple command the line runs may match (`ls && git push`, `FOO=1 git push`, `{ rm x; }`,
 * `sudo rm`, `bash -c "rm x"`, `/bin/rm`: command_segments.ts); the specifier forms are in
 * command_pattern.ts. A match that holds only for some value of a word known at run time
 * (`$CMD x`) still counts, as unjudged.
 */
async function commandMatches(specifier: string, command: string | string[]): Promise<IfRuleVerdict> {
  let segments: CommandSegment[];
  try {
    segments = commandSegments(command, await loadBashParser());
  } catch (error) {
    return { matches: true, unjudged: `the Bash parser could not be loaded (${(error as Error).message})` };
  }
  const globs = compileCommandRule(specifier);
  const text = segments.map((s) => s.words.join(" "));
  if (text.some((t) => globs.some((g) => globMatches(g, t, "certain")))) return { matches: true };
  const index = text.findIndex((t) => globs.some((g) => globMatches(g, t, "possible")));
  if (index < 0) return { matches: false };
  const segment = segments[index];
  return {
    matches: true,
    unjudged: segment.unjudged ?? `${segment.dynamic[0] ?? "a word"} is only known when the command runs`,
  };
}

/**
 * Gitignore-style, as in Claude Code's Read/Edit rules: `//abs` is absolute, `~/x` is under the home
 * directory, `/x`, `./x` and `x/…` are under the working directory (a single `dir/**` only there),
 * and a pattern without a slash matches a file name at any depth (`.env`, `*.ts`).
 */
function pathMatches(specifier: string, file: string, call: RuleCall): boolean {
  const target = path.resolve(call.cwd, file);
  let pattern: string;
  if (specifier.startsWith("//")) pattern = specifier.slice(1);
  else if (specifier.startsWith("~/")) pattern = path.join(call.home, specifier.slice(2));
  else if (!specifier.includes("/")) pattern = `**/${specifier}`;
  else pattern = path.join(call.cwd, specifier.replace(/^\.?\//, ""));
  return path.matchesGlob(target, pattern);
}

/** A tool-name wildcard: `*` matches anything (command specifiers: command_pattern.ts). */
function wildcard(glob: string): RegExp {
  const body = glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${body}$`, "s");
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
