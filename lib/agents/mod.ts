/**
 * Subagents (#22): agent definitions from Claude Code's, plugins' and Trellis's `agents/*.md`, the
 * tool set each is offered, and the `Agent` tool the model calls. Running a subagent (a child turn)
 * is lib/app's job (lib/app/subagents.ts): this folder knows no loop.
 * @module
 */
export type { AgentDefinition } from "./types.ts";
export { agentSources, loadAgents } from "./load_agents.ts";
export type { LoadedAgents, PluginAgentFiles } from "./load_agents.ts";
export { selectAgentTools } from "./tool_selection.ts";
export { agentTool } from "./agent_tool.ts";
export { agentLimits } from "./limits.ts";
export type { AgentLimits } from "./limits.ts";
export { AgentCallRefused, codexAgentTools } from "./codex_agent_tools.ts";
export type { CodexSpawn } from "./codex_agent_tools.ts";
export { agentToolStyle } from "./tool_style.ts";
export { resolveAgentModel } from "./resolve_model.ts";
export { childPermissions, WRITING_HOOK_NAMES } from "./permission_mode.ts";
export { agentHookSource } from "./agent_hooks.ts";
