import type { FileSystem } from "../platform/mod.ts";
import {
  type ConversationItem,
  type EventSink,
  extractFrontmatter,
  loadYamlParser,
  parseFrontmatterYaml,
  type ToolResult,
} from "../shared/mod.ts";
import { readSkillBody, type SkillMetadata } from "../skills/mod.ts";

/** Runs one forked skill in a subagent (Subagents.forkForSkill). */
export type ForkSkill = (
  request: { agentType: string; skill: string; prompt: string; signal: AbortSignal },
) => Promise<ToolResult>;

/**
 * Claude Code's `context: fork` (#22 item 5): a selected skill whose frontmatter says so is not put
 * into the parent's context; its injected text becomes the prompt of a subagent (`agent:`, default
 * `general-purpose`) and the subagent's answer takes the skill's place. Other skills pass through
 * unchanged. A preview (`debug prompt`, `debug context`) never forks: it shows the skill's text.
 */
export async function forkSkills(
  injected: ConversationItem[],
  selected: SkillMetadata[],
  options: { fs: FileSystem; fork: ForkSkill; signal: AbortSignal; events: EventSink },
): Promise<ConversationItem[]> {
  const out: ConversationItem[] = [];
  for (const item of injected) {
    const skill = item.type === "message" && item.role === "user"
      ? selected.find((s) =>
        item.content.startsWith(`<skill>\n<name>${s.name}</name>\n<path>${s.path}</path>\n`)
      )
      : undefined;
    const fork = skill ? await forkSetting(options.fs, skill) : null;
    if (!skill || !fork || item.type !== "message") {
      out.push(item);
      continue;
    }
    const head = `<skill>\n<name>${skill.name}</name>\n<path>${skill.path}</path>\n`;
    const prompt = item.content.slice(head.length, -"\n</skill>".length);
    const answer = await options.fork({
      agentType: fork.agent,
      skill: skill.name,
      prompt: fork.body ?? prompt,
      signal: options.signal,
    });
    if (answer.status !== "success") {
      options.events({ type: "warning", message: `Skill ${skill.name} (context: fork): ${answer.output}` });
    }
    out.push({
      type: "message",
      role: "user",
      content:
        `${head}(context: fork — run by the ${fork.agent} agent; its answer:)\n${answer.output}\n</skill>`,
    });
  }
  return out;
}

/** `context: fork` and `agent:` from the skill file's frontmatter; null when it does not fork. */
async function forkSetting(
  fs: FileSystem,
  skill: SkillMetadata,
): Promise<{ agent: string; body?: string } | null> {
  const text = await readSkillBody(fs, skill.path);
  if (!text.ok) return null;
  const split = extractFrontmatter(text.text);
  if (!split.ok) return null;
  const parsed = parseFrontmatterYaml(split.yaml, await loadYamlParser());
  if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null) return null;
  const fields = parsed.value as Record<string, unknown>;
  if (fields.context !== "fork") return null;
  const agent = typeof fields.agent === "string" && fields.agent.trim() !== ""
    ? fields.agent.trim()
    : "general-purpose";
  // A SKILL.md's body is the task; a command's injected text (arguments filled in) already is.
  return skill.command ? { agent } : { agent, body: split.body.trim() };
}
