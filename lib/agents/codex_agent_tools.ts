import { type ToolDefinition, type ToolResult, type ToolRunContext, UsageError } from "../shared/mod.ts";
import type { AgentDefinition } from "./types.ts";

/**
 * Codex's face of the subagent engine (#22 item 2): the `multi_agent_v1` namespace as Codex 0.171
 * declares it to OpenAI-family models — `spawn_agent` → `{agent_id, nickname}`, `send_input`,
 * `wait_agent` (`targets`), `close_agent`, `resume_agent`. The parameter shapes are Codex's (a
 * model trained on them calls them as they are); the descriptions are Trellis's own words. Every
 * answer is the JSON Codex returns; a mistake (an unknown id) is an error output naming it.
 */
export const CODEX_AGENT_NAMESPACE = {
  name: "multi_agent_v1",
  description: "Start subagents and manage the ones running.",
};

/** What the engine (lib/app) does for the Codex face; each resolves to the JSON the model gets. */
export interface CodexAgentOps {
  spawn(request: CodexSpawn, ctx: ToolRunContext): Promise<Record<string, unknown>>;
  sendInput(
    request: { target: string; message: string; interrupt: boolean },
  ): Promise<Record<string, unknown>>;
  wait(
    request: { targets: string[]; timeoutMs: number },
    ctx: ToolRunContext,
  ): Promise<Record<string, unknown>>;
  close(target: string): Promise<Record<string, unknown>>;
  resume(id: string): Promise<Record<string, unknown>>;
}

/**
 * One spawn_agent call: the definition with the call's `model` and `reasoning_effort` over its
 * own, the task, and `fork_context` (the child starts from this thread's history).
 */
export interface CodexSpawn {
  definition: AgentDefinition;
  message: string;
  forkContext: boolean;
}

/** A mistake the model made (unknown id, limit reached): the tool's output is this message. */
export class AgentCallRefused extends UsageError {}

/** Codex's bounds on `wait_agent`'s `timeout_ms` (default 30 s, 10 s to an hour). */
export const WAIT_TIMEOUT = { defaultMs: 30_000, minMs: 10_000, maxMs: 3_600_000 };

const INPUT_ITEMS = {
  type: "array",
  description: "The input as typed items (text, image, local_image, skill, mention …) instead of `message`.",
  items: {
    type: "object",
    properties: {
      audio_url: { type: "string", description: "For type audio: the audio's data URL." },
      image_url: { type: "string", description: "For type image: the image's URL." },
      name: { type: "string", description: "For a skill or mention: the name shown." },
      path: { type: "string", description: "For local files, skills and mentions: the path or target." },
      text: { type: "string", description: "For type text: the text." },
      type: {
        type: "string",
        description: "text, image, local_image, audio, local_audio, skill or mention.",
      },
    },
    additionalProperties: false,
  },
};

export function codexAgentTools(agents: AgentDefinition[], ops: CodexAgentOps): ToolDefinition[] {
  const byName = new Map(agents.map((a) => [a.name, a]));
  const fallback = byName.get("general-purpose") ?? agents[0];
  const roles = agents.map((a) => `${a.name}: ${a.description}`).join("\n");
  const tool = (
    name: string,
    description: string,
    parameters: Record<string, unknown>,
    parse: (r: Record<string, unknown>) => unknown,
    run: (args: never, ctx: ToolRunContext) => Promise<Record<string, unknown>>,
  ): ToolDefinition => ({
    name,
    namespace: CODEX_AGENT_NAMESPACE,
    hookName: name,
    hookAliases: [],
    description,
    parameters: { type: "object", ...parameters, additionalProperties: false },
    // Several spawns (or waits) of one step run together, as Codex runs them.
    parallel: true,
    source: { kind: "agents" },
    approval: () => ({ kind: "none" }),
    parseArguments: (raw) => parse((raw ?? {}) as Record<string, unknown>),
    async run(args, ctx): Promise<ToolResult> {
      try {
        return { output: JSON.stringify(await run(args as never, ctx)), status: "success" };
      } catch (error) {
        if (error instanceof AgentCallRefused) return { output: error.message, status: "error" };
        throw error;
      }
    },
  });

  return [
    tool(
      "spawn_agent",
      "Start a subagent on a self-contained task; it works in the background while you go on. Returns " +
        "its `agent_id` (for send_input, wait_agent, close_agent) and a nickname to call it by. You are " +
        "notified when it finishes. Spawn only when the user or the instructions ask for delegation or " +
        "parallel work; several spawns in one step run at the same time.",
      {
        properties: {
          agent_type: {
            type: "string",
            description: `The kind of agent to start (default: ${
              fallback?.name ?? "general-purpose"
            }). Available:\n${roles}`,
          },
          fork_context: {
            type: "boolean",
            description: "Start the agent from this thread's history so far, not from the task alone.",
          },
          items: INPUT_ITEMS,
          message: { type: "string", description: "The agent's task, as plain text (or use `items`)." },
          model: { type: "string", description: "Another model for the agent; leave out to use yours." },
          reasoning_effort: {
            type: "string",
            description: "Another reasoning effort; leave out to inherit.",
          },
        },
      },
      (r) => {
        const message = inputText(r);
        const type = optionalString(r, "agent_type");
        const named = type ? byName.get(type) : fallback;
        if (!named) {
          throw new AgentCallRefused(
            `unknown agent_type "${type}"; available: ${[...byName.keys()].join(", ")}`,
            {
              field: "agent_type",
            },
          );
        }
        const model = optionalString(r, "model");
        const effort = optionalString(r, "reasoning_effort");
        const definition: AgentDefinition = {
          ...named,
          ...(model ? { model } : {}),
          ...(effort ? { effort } : {}),
        };
        return { definition, message, forkContext: r.fork_context === true } satisfies CodexSpawn;
      },
      (args: CodexSpawn, ctx) => ops.spawn(args, ctx),
    ),
    tool(
      "send_input",
      "Give a running or finished agent another message. A busy agent takes it after its current task, " +
        "or at once with interrupt=true; a finished one starts working on it.",
      {
        properties: {
          interrupt: { type: "boolean", description: "Stop the agent's current task and handle this now." },
          items: INPUT_ITEMS,
          message: { type: "string", description: "The message, as plain text (or use `items`)." },
          target: { type: "string", description: "The agent_id spawn_agent returned." },
        },
        required: ["target"],
      },
      (r) => ({
        target: requiredString(r, "target"),
        message: inputText(r),
        interrupt: r.interrupt === true,
      }),
      (args: { target: string; message: string; interrupt: boolean }) => ops.sendInput(args),
    ),
    tool(
      "wait_agent",
      "Block until one of the agents reaches a final status or the timeout passes; returns each final " +
        "status (a completed agent's status carries its last message) and whether it timed out. You are " +
        "notified of a finished agent anyway: wait only when your next step needs the answer.",
      {
        properties: {
          targets: {
            type: "array",
            description: "The agent_ids to wait for; the first to finish ends the wait.",
            items: { type: "string" },
          },
          timeout_ms: {
            type: "number",
            description:
              `Milliseconds to wait (default ${WAIT_TIMEOUT.defaultMs}, at least ${WAIT_TIMEOUT.minMs}, ` +
              `at most ${WAIT_TIMEOUT.maxMs}).`,
          },
        },
        required: ["targets"],
      },
      (r) => {
        const targets = r.targets;
        if (!Array.isArray(targets) || targets.length === 0 || targets.some((t) => typeof t !== "string")) {
          throw new UsageError("`targets` must be a non-empty array of agent ids", { field: "targets" });
        }
        const asked = typeof r.timeout_ms === "number" ? r.timeout_ms : WAIT_TIMEOUT.defaultMs;
        const timeoutMs = Math.min(WAIT_TIMEOUT.maxMs, Math.max(WAIT_TIMEOUT.minMs, asked));
        return { targets: targets as string[], timeoutMs };
      },
      (args: { targets: string[]; timeoutMs: number }, ctx) => ops.wait(args, ctx),
    ),
    tool(
      "close_agent",
      "Stop an agent and every agent it started, and free its slot; returns its status before it was " +
        "closed. A finished agent keeps its slot until closed.",
      {
        properties: { target: { type: "string", description: "The agent_id to close." } },
        required: ["target"],
      },
      (r) => requiredString(r, "target"),
      (target: string) => ops.close(target),
    ),
    tool(
      "resume_agent",
      "Reopen a closed agent of this session (also one from before a resume) so it can take send_input " +
        "and wait_agent again.",
      {
        properties: { id: { type: "string", description: "The agent_id to reopen." } },
        required: ["id"],
      },
      (r) => requiredString(r, "id"),
      (id: string) => ops.resume(id),
    ),
  ];
}

function requiredString(r: Record<string, unknown>, key: string): string {
  const value = r[key];
  if (typeof value !== "string" || value.trim() === "") {
    throw new UsageError(`\`${key}\` must be a non-empty string`, { field: key });
  }
  return value;
}

function optionalString(r: Record<string, unknown>, key: string): string | undefined {
  return typeof r[key] === "string" && (r[key] as string).trim() !== "" ? r[key] as string : undefined;
}

/** `message`, or the text of `items` (other item kinds are named, not sent, until they are supported). */
function inputText(r: Record<string, unknown>): string {
  if (typeof r.message === "string" && r.message.trim() !== "") return r.message;
  const items = Array.isArray(r.items) ? r.items as Record<string, unknown>[] : [];
  const parts = items.map((item) =>
    item?.type === "text" && typeof item.text === "string"
      ? item.text
      : typeof item?.path === "string"
      ? `[${String(item.type)}: ${item.path}]`
      : ""
  ).filter((t) => t !== "");
  if (parts.length === 0) {
    throw new UsageError("give the agent a `message` (or `items` with text)", { field: "message" });
  }
  return parts.join("\n");
}
