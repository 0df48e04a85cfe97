import type { ToolDefinition } from "../shared/mod.ts";
import type { ConversationItem, EventSink, PromptExpansion } from "../shared/mod.ts";
import { UsageError } from "../shared/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import {
  detectImplicitUse,
  implicitUseKey,
  renderSkillsCatalog,
  selectSkills,
  type ShellRunner,
  type SkillMetadata,
} from "../skills/mod.ts";
import type { Capabilities } from "./capabilities.ts";
import { INSTRUCTIONS_HEADING, projectInstructionsMessage } from "./project_instructions_message.ts";

export interface TurnContext {
  /**
   * Recorded before the prompt when changed: the project instructions (a user message, as Codex
   * sends AGENTS.md), then the skills catalog and plugin summaries (developer messages).
   */
  preamble: ConversationItem[];
  /** Items recorded after the prompt and the expansions (none today; attachments follow). */
  injected: ConversationItem[];
  /**
   * `$mcp__server__prompt` mentions, then selected skills and plugin commands (SK-11): recorded after
   * the prompt unless a UserPromptExpansion hook blocks them (#24 item 1).
   */
  expansions: PromptExpansion[];
  /**
   * The skills and commands this turn selected: their frontmatter `hooks:` run during it, and a
   * `context: fork` one runs in a subagent (skill_forks.ts).
   */
  selected: SkillMetadata[];
  /** Implicit skill-use detection on each finished call (SK-13), de-duplicated per turn. */
  onCall: (tool: ToolDefinition, args: string) => void;
}

const SKILLS_TAG = "<skills_instructions>";
const PLUGINS_TAG = "<plugins_instructions>";

/**
 * What a turn adds to the model's context from skills and plugins. Blocks already in the history
 * are not repeated; a changed catalog is recorded again so the model sees the current one.
 */
export async function prepareTurnContext(options: {
  capabilities: Capabilities;
  history: ConversationItem[];
  prompt: string;
  skills: string[];
  fs: FileSystem;
  events: EventSink;
  contextWindow?: number;
  mcpServers: string[];
  /** The session's working directory, named in the instructions message. */
  cwd: string;
  /** Where a Gemini command's `@{path}` may read: the cwd and the project root. */
  workspaceRoots: string[];
  /** Runs a Gemini command's `!{…}` after approval (command_injections.ts). */
  runCommand?: ShellRunner;
}): Promise<TurnContext> {
  const { capabilities, events } = options;
  const { snapshot, input } = await capabilities.skillsSnapshot();
  for (const e of snapshot.errors) {
    events({ type: "warning", message: `skill ${e.path}: ${e.message}`, subject: e.path });
  }
  for (const w of snapshot.warnings) events({ type: "warning", message: w });
  const catalog = renderSkillsCatalog(snapshot, {
    ...input.catalog,
    ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}),
  });
  for (const w of catalog.warnings) events({ type: "warning", message: w });
  const preamble: ConversationItem[] = [];
  const instructions = await capabilities.projectInstructions();
  const message = projectInstructionsMessage(instructions, options.cwd);
  if (
    message?.type === "message" &&
    latestBlock(options.history, INSTRUCTIONS_HEADING, "user") !== message.content
  ) {
    preamble.push(message);
  }
  if (capabilities.firstInstructionsUse()) {
    for (const w of instructions.warnings) events({ type: "warning", message: w });
  }
  for (
    const [tag, text] of [[SKILLS_TAG, catalog.text], [PLUGINS_TAG, capabilities.pluginSummaries()]] as const
  ) {
    if (text && latestBlock(options.history, tag) !== text) {
      preamble.push({ type: "message", role: "developer", content: text });
    }
  }
  const selection = await selectSkills(snapshot, {
    texts: [options.prompt],
    structured: options.skills,
    mcpServers: options.mcpServers,
    workspaceRoots: options.workspaceRoots,
    ...(options.runCommand ? { runCommand: options.runCommand } : {}),
  }, options.fs);
  if (selection.unresolved.length > 0) {
    throw new UsageError(
      `Cannot select skill "${selection.unresolved[0]}": no enabled skill has that name or path`,
      {
        field: "--skill",
      },
    );
  }
  for (const w of selection.warnings) events({ type: "warning", message: w });
  for (const s of selection.selected) {
    events({ type: "skill.used", name: s.name, path: s.path, scope: s.scope, how: "explicit" });
  }
  const seen = new Set(selection.selected.map(implicitUseKey));
  const onCall = (tool: ToolDefinition, args: string) => {
    const observed = observedCommand(tool, args);
    const skill = observed ? detectImplicitUse(snapshot, observed) : null;
    if (!skill || seen.has(implicitUseKey(skill))) return;
    seen.add(implicitUseKey(skill));
    events({ type: "skill.used", name: skill.name, path: skill.path, scope: skill.scope, how: "implicit" });
  };
  // `$mcp__server__prompt args` mentions: the prompts' messages follow the user's (issue #14).
  const prompts = await capabilities.mcp.expandPromptMentions(options.prompt);
  const skills: PromptExpansion[] = selection.expansions.map(({ skill, args, item }) => ({
    expansionType: skill.command ? "plugin_command" : "slash_command",
    commandName: skill.name,
    commandArgs: args,
    commandSource: skill.plugin ? "plugin" : skill.scope === "repo" ? "project" : skill.scope,
    items: [item],
  }));
  return {
    preamble,
    injected: [],
    expansions: [...prompts, ...skills],
    selected: selection.selected,
    onCall,
  };
}

/**
 * The latest project instructions, skills catalog and plugin summaries in the history: what a
 * compaction in the middle of a turn keeps (the next turn's context would add them again, the running
 * one does not).
 */
export function latestContextBlocks(history: readonly ConversationItem[]): ConversationItem[] {
  const blocks: ConversationItem[] = [];
  const instructions = latestBlock(history, INSTRUCTIONS_HEADING, "user");
  if (instructions !== null) blocks.push({ type: "message", role: "user", content: instructions });
  for (const tag of [SKILLS_TAG, PLUGINS_TAG]) {
    const content = latestBlock(history, tag);
    if (content !== null) blocks.push({ type: "message", role: "developer", content });
  }
  return blocks;
}

function latestBlock(
  history: readonly ConversationItem[],
  tag: string,
  role: "developer" | "user" = "developer",
): string | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i];
    if (item.type === "message" && item.role === role && item.content.startsWith(tag)) {
      return item.content;
    }
  }
  return null;
}

function observedCommand(tool: ToolDefinition, args: string) {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(args);
  } catch {
    return null;
  }
  if (tool.hookName === "Bash" && typeof parsed.command === "string") {
    return { kind: "shell" as const, command: parsed.command };
  }
  if (tool.hookName === "Read" && typeof parsed.path === "string") {
    return { kind: "read" as const, path: parsed.path };
  }
  return null;
}
