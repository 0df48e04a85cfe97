import { type ToolDefinition, type ToolResult, type ToolRunContext, UsageError } from "../shared/mod.ts";
import type { AgentDefinition } from "./types.ts";

/** Claude Code's `Agent` arguments. */
export interface AgentCallArgs {
  subagent_type: string;
  description: string;
  prompt: string;
  run_in_background: boolean;
}

/**
 * Runs one subagent (the engine, wired by lib/app): in the foreground its answer is the tool
 * result; in the background the result says it started and the answer comes later as Claude Code's
 * `<task-notification>` user message.
 */
export type SpawnAgent = (
  request: { definition: AgentDefinition; description: string; prompt: string; background: boolean },
  ctx: ToolRunContext,
) => Promise<ToolResult>;

/**
 * Claude Code's `Agent` tool (`Task`, its older name, is accepted from the model): one call runs one
 * subagent in the foreground and its final message comes back as the call's output. Calls of one
 * step run concurrently (`parallel`), as Claude Code runs several Agent calls of one message.
 */
export function agentTool(agents: AgentDefinition[], spawn: SpawnAgent): ToolDefinition {
  const byName = new Map(agents.map((a) => [a.name, a]));
  const listing = agents.map((a) => `- ${a.name}: ${a.description}`).join("\n");
  return {
    name: "Agent",
    callAliases: ["Task"],
    hookName: "Agent",
    hookAliases: ["Task"],
    description:
      "Launch a new agent to handle a complex, multi-step task on its own. Available agent types:\n" +
      `${listing}\n\nSend several Agent calls in one message to run agents concurrently. The agent's final ` +
      "message is returned to you; it is not shown to the user, so relay what matters. With " +
      "run_in_background the call returns at once and the answer arrives later in a notification.",
    parameters: {
      type: "object",
      properties: {
        description: { type: "string", description: "A short (3-5 word) description of the task" },
        prompt: { type: "string", description: "The task for the agent to perform" },
        subagent_type: { type: "string", description: "The type of specialized agent to use for this task" },
        run_in_background: {
          type: "boolean",
          description: "Run the agent in the background; you are notified when it finishes",
        },
      },
      required: ["description", "prompt", "subagent_type"],
      additionalProperties: false,
    },
    parallel: true,
    source: { kind: "agents" },
    approval: () => ({ kind: "none" }),
    parseArguments(raw: unknown): AgentCallArgs {
      const r = (raw ?? {}) as Record<string, unknown>;
      for (const key of ["description", "prompt", "subagent_type"] as const) {
        if (typeof r[key] !== "string" || (r[key] as string).trim() === "") {
          throw new UsageError(`\`${key}\` must be a non-empty string`, { field: key });
        }
      }
      return {
        description: r.description as string,
        prompt: r.prompt as string,
        subagent_type: r.subagent_type as string,
        run_in_background: r.run_in_background === true,
      };
    },
    async run(args: unknown, ctx: ToolRunContext): Promise<ToolResult> {
      const a = args as AgentCallArgs;
      const definition = byName.get(a.subagent_type);
      if (!definition) {
        return {
          output: `Agent type "${a.subagent_type}" not found. Available agents: ${
            [...byName.keys()].join(", ")
          }`,
          status: "error",
        };
      }
      return await spawn({
        definition,
        description: a.description,
        prompt: a.prompt,
        background: a.run_in_background,
      }, ctx);
    },
  };
}
