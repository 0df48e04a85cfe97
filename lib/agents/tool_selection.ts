import type { ToolDefinition } from "../shared/mod.ts";
import type { AgentDefinition } from "./types.ts";

/** Claude Code tool names that name a Trellis tool by another name. */
const CLAUDE_ALIASES: Record<string, string> = { MultiEdit: "Edit", Task: "Agent" };

/** Does one `tools` entry (`Read`, `Bash(git:*)`, `mcp__server`, `mcp__server__tool`) name `tool`? */
function names(entry: string, tool: ToolDefinition): boolean {
  const bare = entry.replace(/\(.*\)$/, "").trim(); // a permission pattern narrows nothing here
  const wanted = CLAUDE_ALIASES[bare] ?? bare;
  if (wanted === "*") return true;
  if (tool.name === wanted || tool.hookName === wanted || tool.hookAliases.includes(wanted)) return true;
  // `mcp__server` (Claude Code's whole-server form) names each of that server's tools.
  return wanted.startsWith("mcp__") && wanted.split("__").length === 2 &&
    tool.hookName.startsWith(`${wanted}__`);
}

/**
 * The tools an agent is offered out of its parent's step catalog: `tools` (absent: all of them),
 * minus `disallowedTools`. Returns the entries that named nothing, for the agent's notes.
 */
export function selectAgentTools(
  definition: Pick<AgentDefinition, "tools" | "disallowedTools">,
  catalog: ToolDefinition[],
): { tools: ToolDefinition[]; unmatched: string[] } {
  const allowed = definition.tools
    ? catalog.filter((t) => definition.tools!.some((entry) => names(entry, t)))
    : catalog;
  const tools = allowed.filter((t) => !definition.disallowedTools.some((entry) => names(entry, t)));
  const unmatched = [...definition.tools ?? [], ...definition.disallowedTools].filter((entry) =>
    !catalog.some((t) => names(entry, t))
  );
  return { tools, unmatched };
}
