import type { EventUsage, ThreadItem, TrellisEventBody } from "../shared/mod.ts";

/**
 * The session's subagents as every front end shows them (#22 item 6): the interactive panel, the
 * library's `TrellisSession.subagents()` and `mcp-server`'s result read this one board, which the
 * session feeds from its own event stream (`agent.started` / `agent.progress` / `agent.completed`),
 * so each face says the same thing about the same child.
 */
export interface SubagentStatus {
  /** The child's thread id (`<session>-agentN`), as hooks and `resume_agent` know it. */
  id: string;
  /** Its definition's name (`general-purpose`, `plugin:agent`). */
  type: string;
  /** What the parent called it for (the Agent call's description, or the prompt's start). */
  description: string;
  /** running, then completed, failed, aborted, timed_out, errored or shutdown. */
  status: string;
  /** Its latest tool call (`Bash: npm test`), null before its first. */
  lastAction: string | null;
  /** Its tokens so far. */
  usage: EventUsage;
  /** Its own transcript, or null when the session records none. */
  transcript: string | null;
  /** The call of the parent's that started it. */
  callId: string;
}

const NO_USAGE: EventUsage = {
  input_tokens: 0,
  cached_input_tokens: 0,
  output_tokens: 0,
  reasoning_output_tokens: 0,
};

export class SubagentBoard {
  readonly #children = new Map<string, SubagentStatus>();

  /** Reads one event of the session's stream; events of other kinds pass by. */
  observe(event: TrellisEventBody): void {
    switch (event.type) {
      case "agent.started":
        this.#children.set(event.agent_id, {
          id: event.agent_id,
          type: event.agent_type,
          description: event.description,
          status: "running",
          lastAction: this.#children.get(event.agent_id)?.lastAction ?? null,
          usage: this.#children.get(event.agent_id)?.usage ?? NO_USAGE,
          transcript: event.transcript,
          callId: event.call_id,
        });
        return;
      case "agent.progress": {
        const child = this.#children.get(event.agent_id);
        if (!child) return;
        if (event.action !== undefined) child.lastAction = event.action;
        if (event.usage) child.usage = event.usage;
        return;
      }
      case "agent.completed": {
        const child = this.#children.get(event.agent_id);
        if (!child) return;
        child.status = event.status;
        if (event.usage) child.usage = event.usage;
        return;
      }
    }
  }

  /** Every child of the session so far, in the order they started; copies, safe to keep. */
  list(): SubagentStatus[] {
    return [...this.#children.values()].map((c) => ({ ...c, usage: { ...c.usage } }));
  }
}

const MAX_ACTION_CHARS = 80;

/**
 * A child's tool call as one line (`Bash: npm test`, `Edit: src/a.ts`, `mcp__docs__search`): its
 * model-facing name and, where the item has one, the command or the first path it changes.
 */
export function actionLine(item: ThreadItem): string | null {
  if (!("call_id" in item)) return null;
  const detail = item.type === "command_execution"
    ? item.command
    : item.type === "file_change"
    ? item.changes[0]?.path
    : undefined;
  const line = (detail ? `${item.name}: ${detail}` : item.name).replace(/\s+/g, " ").trim();
  return line.length > MAX_ACTION_CHARS ? `${line.slice(0, MAX_ACTION_CHARS - 1)}…` : line;
}
