import type { AgentDefinition } from "./types.ts";

/** Claude Code's built-in agent for open-ended work: every tool the parent has. */
export const GENERAL_PURPOSE: AgentDefinition = {
  name: "general-purpose",
  description:
    "General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks.",
  prompt: [
    "You are an agent for Trellis. Given the user's message, use the tools available to complete the task.",
    "Do what has been asked; nothing more, nothing less. When you complete the task, respond with a",
    "concise report of what was done and any key findings: the caller relays it, it is your only output.",
  ].join(" "),
  disallowedTools: [],
  notApplied: [],
  skills: [],
  mcpServers: [],
  origin: "built-in",
};
