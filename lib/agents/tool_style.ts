/**
 * `agents.tool_style` (#22 item 2): which face of the subagent engine the model is offered. `auto`
 * follows the family the model was trained with: OpenAI's models get Codex's `multi_agent_v1`
 * tools, Claude and every other model Claude Code's `Agent` tool.
 */
export type AgentToolStyle = "codex" | "claude";

const OPENAI_FAMILY = /^(gpt-|o[1-9]|codex-|chatgpt-)/;

export function agentToolStyle(style: string | undefined, model: string): AgentToolStyle {
  if (style === "codex" || style === "claude") return style;
  const slug = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  return OPENAI_FAMILY.test(slug) ? "codex" : "claude";
}
