import * as path from "node:path";
import { commandSegments } from "./command_segments.ts";

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

export function ifRuleMatches(rule: IfRule, call: RuleCall): boolean {
  if (!call.names.some((name) => toolMatches(rule.tool, name))) return false;
  if (rule.specifier === undefined || rule.specifier === "*") return true;
  const input = (typeof call.input === "object" && call.input !== null ? call.input : {}) as Record<
    string,
    unknown
  >;
  if (typeof input.command === "string") return commandMatches(rule.specifier, input.command);
  const file = [input.file_path, input.notebook_path, input.path].find((v) => typeof v === "string");
  if (typeof file === "string") return pathMatches(rule.specifier, file, call);
  if (typeof input.url === "string" && rule.specifier.startsWith("domain:")) {
    return hostOf(input.url) === rule.specifier.slice("domain:".length);
  }
  return false;
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
 * `cmd:*` is a prefix ending at a word boundary; any other `*` is a wildcard over the whole command
 * (`git *` needs the space, `ls*` does not); otherwise the command must be exactly the specifier.
 * Any simple command of a compound line may match (`ls && git push`, `FOO=1 git push`).
 */
function commandMatches(specifier: string, command: string): boolean {
  const segments = commandSegments(command);
  if (specifier.endsWith(":*")) {
    const prefix = specifier.slice(0, -2).trim();
    return segments.some((s) => s === prefix || s.startsWith(`${prefix} `));
  }
  if (specifier.includes("*")) {
    const regex = wildcard(specifier);
    return segments.some((s) => regex.test(s));
  }
  const exact = specifier.replace(/\s+/g, " ");
  return segments.some((s) => s === exact);
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

/**
 * Claude Code's rule wildcard: `*` is the only special character and matches anything, `/` and
 * spaces included. Not picomatch: checked against it, `Bash(npm test?)` would match "npm tests",
 * `Bash(ls [ab])` "ls a", `Bash(echo {a,b})` "echo a" (Claude Code reads all three literally), and
 * `Bash(git *)` would miss "git add src/x.ts" unless `bash: true`. Path specifiers, which are globs,
 * go to node:path.matchesGlob above.
 */
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
