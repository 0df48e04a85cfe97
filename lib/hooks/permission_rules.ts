import * as path from "node:path";
import { compatEnabled, type LoadedConfig, readLayerText } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import {
  type Diagnostic,
  parseJsonText,
  type PermissionRuleHit,
  type PermissionRuleKind,
  type PermissionRules,
  warning,
} from "../shared/mod.ts";
import { type IfRule, judgeIfRule, parseIfRule } from "./if_rule.ts";

/**
 * Claude Code's permission rules (`permissions.allow` / `ask` / `deny`), read from the user's Claude
 * settings, a trusted project's `.claude/settings*.json` and Trellis's own `[permissions]` tables, in
 * the syntax (and through the matcher) of a hook's `if` (if_rule.ts). A project cannot pre-approve
 * itself: an `allow` read from a project file is listed as ignored, with one warning.
 */
export interface PermissionRuleEntry {
  kind: PermissionRuleKind;
  /** The rule as written. */
  text: string;
  /** The file it came from (`-c` for the command line). */
  origin: string;
  /** Why the rule does nothing (an allow from a project, a tool Trellis does not have). */
  ignored?: string;
  /** Parsed, when it takes effect. */
  rule?: IfRule;
}

export interface LoadedPermissionRules {
  entries: PermissionRuleEntry[];
  diagnostics: Diagnostic[];
}

const KINDS: readonly PermissionRuleKind[] = ["deny", "ask", "allow"];

/**
 * Hook-facing tool names Trellis has (built-ins and its MCP helper tools); `mcp__…` names and
 * wildcards are judged at call time. A rule for any other tool (WebFetch, Task, …) cannot match.
 */
const KNOWN_TOOLS = new Set([
  "Bash",
  "Read",
  "Edit",
  "Write",
  "MultiEdit",
  "Grep",
  "Glob",
  "LS",
  "shell",
  "shell_command",
  "exec_command",
  "list_mcp_resources",
  "list_mcp_resource_templates",
  "read_mcp_resource",
  "search_tools",
  "request_plugin_install",
]);

/** `permissions` keys of Claude Code that Trellis does not take (one warning each). */
const UNHONOURED_KEYS = new Set(["additionalDirectories", "defaultMode", "disableBypassPermissionsMode"]);

/** Every permission rule this session loads, in origin order, with the warnings reading them gave. */
export function loadPermissionRules(fs: FileSystem, loaded: LoadedConfig): LoadedPermissionRules {
  const entries: PermissionRuleEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const claude = compatEnabled(loaded.config, "claude_permissions");
  const { claudeDir, projectDirs } = loaded.paths;
  if (claude) {
    const file = path.join(claudeDir, "settings.json");
    const text = readUserSettings(fs, file, diagnostics);
    if (text !== undefined) addClaudeSettings(text, file, false, entries, diagnostics);
  }
  for (const layer of loaded.layers) {
    if (layer.kind === "default") continue;
    const table = (layer.table as Record<string, unknown>).permissions;
    if (table !== undefined) {
      addTable(
        table,
        `${layer.source} [permissions]`,
        layer.source,
        layer.kind === "project",
        entries,
        diagnostics,
      );
    }
  }
  // A project's Claude settings load only when trusted, as checked against its trust record (#20):
  // the text comes from the approved layers, never a second read.
  if (claude && loaded.projectTrusted) {
    for (const dir of projectDirs) {
      for (const name of ["settings.json", "settings.local.json"]) {
        const file = path.join(dir, ".claude", name);
        const text = loaded.projectLayers.get(file);
        if (text !== undefined) addClaudeSettings(text, file, true, entries, diagnostics);
      }
    }
  }
  if (claude && !loaded.projectTrusted) noteUntrusted(fs, projectDirs, diagnostics);
  const projectAllows = entries.filter((e) => e.kind === "allow" && e.ignored === PROJECT_ALLOW);
  if (projectAllows.length > 0) {
    const files = [...new Set(projectAllows.map((e) => e.origin))];
    diagnostics.push(warning(
      `Ignored ${projectAllows.length} "allow" permission rule${projectAllows.length > 1 ? "s" : ""} ` +
        `from ${files.join(", ")}: a project cannot pre-approve its own tool calls (its deny and ask ` +
        `rules apply; put allow rules in your own settings)`,
      { file: files[0] },
    ));
  }
  return { entries, diagnostics };
}

/** An untrusted project's Claude settings with rules: said once per file, never loaded. */
function noteUntrusted(fs: FileSystem, dirs: readonly string[], diagnostics: Diagnostic[]): void {
  for (const dir of dirs) {
    for (const name of ["settings.json", "settings.local.json"]) {
      const file = path.join(dir, ".claude", name);
      const read = readLayerText(fs, file);
      if (!("text" in read)) continue;
      const json = parseJsonText(read.text);
      if (!json.ok || !isRecord(json.value) || json.value.permissions === undefined) continue;
      diagnostics.push({
        level: "info",
        message: `Skipped permission rules in ${file}: this project is not trusted ` +
          "(run `trellis project trust` to load its deny and ask rules)",
        file,
      });
    }
  }
}

const PROJECT_ALLOW = "an allow rule from a project file (a project cannot pre-approve itself)";

function readUserSettings(fs: FileSystem, file: string, diagnostics: Diagnostic[]): string | undefined {
  try {
    return fs.sync.readTextFile(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") {
      diagnostics.push(
        warning(`Cannot read permissions in "${file}": ${(error as Error).message}`, { file }),
      );
    }
    return undefined;
  }
}

function addClaudeSettings(
  text: string,
  file: string,
  fromProject: boolean,
  entries: PermissionRuleEntry[],
  diagnostics: Diagnostic[],
): void {
  const json = parseJsonText(text);
  if (!json.ok) {
    // Named here as well as by the hooks loader: what is lost is said for each (its rules too).
    diagnostics.push(warning(`Cannot load permissions "${file}": invalid JSON (${json.message})`, { file }));
    return;
  }
  if (!isRecord(json.value) || json.value.permissions === undefined) return;
  addTable(json.value.permissions, `${file} permissions`, file, fromProject, entries, diagnostics);
}

/** One `permissions` object: its three arrays; anything else is named and left out. */
function addTable(
  table: unknown,
  where: string,
  origin: string,
  fromProject: boolean,
  entries: PermissionRuleEntry[],
  diagnostics: Diagnostic[],
): void {
  if (!isRecord(table)) {
    diagnostics.push(warning(
      `Ignored ${where}: expected an object with "allow", "ask" and "deny" arrays, got ${shape(table)}`,
      { file: origin },
    ));
    return;
  }
  for (const [key, value] of Object.entries(table)) {
    if (KINDS.includes(key as PermissionRuleKind)) continue;
    const why = UNHONOURED_KEYS.has(key)
      ? "Trellis does not honour it (approval_policy and sandbox_mode decide that)"
      : "not a permissions key (allow, ask, deny)";
    diagnostics.push(warning(`Ignored ${where}.${key} = ${JSON.stringify(value)}: ${why}`, { file: origin }));
  }
  for (const kind of KINDS) {
    const list = table[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      diagnostics.push(warning(`Ignored ${where}.${kind}: expected an array of rules, got ${shape(list)}`, {
        file: origin,
      }));
      continue;
    }
    for (const raw of list) {
      const parsed = parseIfRule(raw);
      if (!parsed.ok) {
        diagnostics.push(warning(`Ignored ${kind} rule in ${where}: ${parsed.error}`, { file: origin }));
        continue;
      }
      const text = parsed.rule.text.trim();
      if (kind === "allow" && fromProject) {
        entries.push({ kind, text, origin, ignored: PROJECT_ALLOW });
        continue;
      }
      const missing = unknownTool(parsed.rule.tool);
      if (missing) {
        diagnostics.push(warning(
          `Permission rule ${kind} "${text}" in ${where} has no effect: Trellis has no ${missing} tool`,
          { file: origin },
        ));
        entries.push({ kind, text, origin, ignored: `Trellis has no ${missing} tool` });
        continue;
      }
      entries.push({ kind, text, origin, rule: parsed.rule });
    }
  }
}

function unknownTool(tool: string): string | undefined {
  if (tool.includes("*") || tool.startsWith("mcp__") || KNOWN_TOOLS.has(tool)) return undefined;
  return tool;
}

/**
 * `Read(…)` rules also cover the other read tools, and `Edit(…)` every tool that writes a file,
 * as in Claude Code.
 */
function ruleNames(toolName: string, aliases: readonly string[]): string[] {
  const names = [toolName, ...aliases];
  if (toolName === "Grep" || toolName === "Glob" || toolName === "LS") names.push("Read");
  if (toolName === "Write" || toolName === "MultiEdit" || toolName === "NotebookEdit") names.push("Edit");
  return names;
}

/**
 * The loop's port over the loaded rules. A command line that cannot be read (`eval`, a command
 * known only at run time) counts as matching a deny or an ask rule and never as matching an allow
 * rule: on doubt, the safer side.
 */
export function permissionRules(entries: readonly PermissionRuleEntry[], home: string): PermissionRules {
  const active = entries.filter((e): e is PermissionRuleEntry & { rule: IfRule } => e.rule !== undefined);
  if (active.length === 0) return { judge: () => Promise.resolve(undefined) };
  return {
    async judge(input, cwd, asCalled): Promise<PermissionRuleHit | undefined> {
      const call = { names: ruleNames(input.toolName, input.aliases), input: input.toolInput, cwd, home };
      // `.env` as a link to elsewhere, or a link to `.env`: a deny or ask holds for either name.
      const forms = asCalled === undefined || asCalled === input.toolInput
        ? [call]
        : [call, { ...call, input: asCalled }];
      for (const kind of KINDS) {
        for (const entry of active) {
          if (entry.kind !== kind) continue;
          for (const form of kind === "allow" ? [call] : forms) {
            const verdict = await judgeIfRule(entry.rule, form);
            if (verdict.matches && (kind !== "allow" || verdict.unjudged === undefined)) {
              return { kind, rule: entry.text, origin: entry.origin };
            }
          }
        }
      }
      return undefined;
    },
  };
}

function shape(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
