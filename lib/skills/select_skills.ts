import type { FileSystem } from "../platform/mod.ts";
import type { ConversationItem } from "../shared/mod.ts";
import { findByPath, resolveSkillRef } from "./resolve_skill.ts";
import { parseSkillMentions } from "./mentions.ts";
import { compareSkills } from "./snapshot.ts";
import { missingMcpDependencies, type MissingMcpDependency } from "./mcp_dependencies.ts";
import { readSkillBody, skillMessage } from "./skill_body.ts";
import { expandCommandBody } from "./command_arguments.ts";
import { expandGeminiPrompt } from "./gemini_command.ts";
import { readWorkspacePath, type ShellRunner } from "./gemini_injections.ts";
import { extractFrontmatter } from "./frontmatter.ts";
import type { SkillMetadata, SkillsSnapshot } from "./types.ts";

export interface SkillSelectionInput {
  /** The turn's user texts, scanned for `[$name](skill:///…/SKILL.md)` links and `$name` mentions. */
  texts: string[];
  /** Structured selections (`--skill NAME|PATH`), resolved first. */
  structured: string[];
  /** App/connector slugs: a bare `$name` equal to one (lowercased) is not a skill mention. */
  connectorSlugs?: string[];
  /** Configured MCP server names; when given, selected skills' MCP dependencies are checked (SK-14). */
  mcpServers?: string[];
  /** The session's cwd and project root: where a Gemini command's `@{path}` may read (none: not read). */
  workspaceRoots?: string[];
  /** Runs a Gemini command's `!{…}` after approval, as the shell tool runs a command (none: not run). */
  runCommand?: ShellRunner;
}

export interface SkillSelection {
  /** One `<skill>` user message per selected skill, in the skills' own order. */
  items: ConversationItem[];
  selected: SkillMetadata[];
  warnings: string[];
  /** Structured references that matched no enabled skill (the CLI may treat them as a usage error). */
  unresolved: string[];
  missingMcpDependencies: MissingMcpDependency[];
  /** Each selected skill whose body was read, with its arguments and its message (UserPromptExpansion). */
  expansions: { skill: SkillMetadata; args: string; item: ConversationItem }[];
}

/**
 * A skill's file as written; a plugin command's body (no frontmatter) with its arguments filled in;
 * a Gemini command's prompt with its `@{…}` files read from under `workspaceRoots`.
 */
async function injectedText(
  skill: SkillMetadata,
  text: string,
  args: string,
  context: { fs: FileSystem; workspaceRoots?: string[]; runCommand?: ShellRunner; warnings: string[] },
): Promise<string> {
  if (!skill.command) return text;
  if (skill.command.format === "gemini") {
    const roots = context.workspaceRoots;
    const read = roots?.length ? (p: string) => readWorkspacePath(context.fs, p, roots) : undefined;
    const expanded = await expandGeminiPrompt(skill.name, text, args, {
      ...(read ? { read } : {}),
      ...(context.runCommand ? { run: context.runCommand } : {}),
    });
    context.warnings.push(...expanded.warnings);
    return expanded.text;
  }
  const split = extractFrontmatter(text);
  return expandCommandBody((split.ok ? split.body : text).replace(/^\n+/, ""), args);
}

/** SK-11/12/14: resolves explicit selections, reads each body once and builds the injection items. */
export async function selectSkills(
  snapshot: SkillsSnapshot,
  input: SkillSelectionInput,
  fs: FileSystem,
): Promise<SkillSelection> {
  const enabled = snapshot.enabledSkills();
  const chosen = new Set<SkillMetadata>();
  const warnings: string[] = [];
  const unresolved: string[] = [];
  const blockedNames = new Set<string>();
  for (const ref of input.structured) {
    const found = await resolveSkillRef(fs, snapshot, ref, enabled);
    if (found.kind === "found") {
      chosen.add(found.skill);
      blockedNames.add(found.skill.name);
    } else {
      unresolved.push(ref);
      warnings.push(
        found.kind === "ambiguous"
          ? `Skill name "${ref}" is ambiguous (${
            found.matches.map((s) => s.path).join(", ")
          }); select it by path`
          : `No enabled skill matches "${ref}"`,
      );
    }
  }
  const slugs = new Set((input.connectorSlugs ?? []).map((s) => s.toLowerCase()));
  const mentions = input.texts.map(parseSkillMentions);
  const commandArgs = new Map<SkillMetadata, string>();
  for (const m of mentions) {
    for (const linked of m.linkedPaths) {
      const skill = await findByPath(fs, snapshot, linked, enabled);
      if (skill) chosen.add(skill);
    }
  }
  for (const name of mentions.flatMap((m) => m.names)) {
    if (blockedNames.has(name) || slugs.has(name.toLowerCase())) continue;
    const matches = enabled.filter((s) => s.name === name);
    if (matches.length !== 1) continue;
    chosen.add(matches[0]);
    if (!commandArgs.has(matches[0])) {
      commandArgs.set(matches[0], mentions.find((m) => name in m.args)?.args[name] ?? "");
    }
  }
  const selected = [...chosen].sort(compareSkills);
  const items: ConversationItem[] = [];
  const expansions: SkillSelection["expansions"] = [];
  for (const skill of selected) {
    const body = await readSkillBody(fs, skill.path);
    if (body.ok) {
      const args = commandArgs.get(skill) ?? "";
      const text = await injectedText(skill, body.text, args, {
        fs,
        ...(input.workspaceRoots ? { workspaceRoots: input.workspaceRoots } : {}),
        ...(input.runCommand ? { runCommand: input.runCommand } : {}),
        warnings,
      });
      const item = skillMessage(skill, text);
      items.push(item);
      expansions.push({ skill, args, item });
    } else warnings.push(`Failed to load skill ${skill.name} at ${skill.path}: ${body.error}`);
  }
  const missing = input.mcpServers ? missingMcpDependencies(selected, input.mcpServers) : [];
  for (const m of missing) warnings.push(`Skill ${m.skill} needs MCP server "${m.server}": ${m.hint}`);
  return { items, selected, warnings, unresolved, missingMcpDependencies: missing, expansions };
}
