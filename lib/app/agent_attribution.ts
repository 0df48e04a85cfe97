/**
 * Who asks (#22 item 3): a subagent's approvals and the MCP forms its calls lead to reach the
 * parent's UI naming the agent. An approval is the child's own request, so it is named at the
 * source. An MCP form is the server's request, and the protocol does not say which call led to it
 * over stdio: it is named when the server has calls in flight from one subagent only; with the
 * parent's calls or another agent's in flight too it is left unnamed rather than named wrongly.
 */
import type { Approver, RequestingAgent } from "../loop/mod.ts";
import type { ElicitationResponder } from "../mcp/mod.ts";
import type { ToolDefinition } from "../shared/mod.ts";

/** The parent's own calls, counted beside the agents' so that a shared server stays unnamed. */
const PARENT = "";

/** The calls each MCP server has in flight, by the agent that made them. */
export class McpCallers {
  #calls = new Map<string, Map<string, { agent: RequestingAgent | null; count: number }>>();

  /** Counts one call of `server` by `agent` (null: the parent) until the returned function runs. */
  enter(server: string, agent: RequestingAgent | null): () => void {
    const byAgent = this.#calls.get(server) ?? new Map();
    this.#calls.set(server, byAgent);
    const key = agent?.id ?? PARENT;
    const entry = byAgent.get(key) ?? { agent, count: 0 };
    entry.count++;
    byAgent.set(key, entry);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (--entry.count === 0) byAgent.delete(key);
      if (byAgent.size === 0) this.#calls.delete(server);
    };
  }

  /** The one subagent calling `server` now; null when none, the parent, or several are. */
  soleAgent(server: string): RequestingAgent | null {
    const byAgent = this.#calls.get(server);
    if (!byAgent || byAgent.size !== 1) return null;
    return [...byAgent.values()][0]!.agent;
  }

  /** `tools` with each MCP tool's run counted under `agent` (null: the parent's). */
  track(tools: ToolDefinition[], agent: RequestingAgent | null): ToolDefinition[] {
    return tools.map((tool) => {
      const { source } = tool;
      if (source.kind !== "mcp") return tool;
      return {
        ...tool,
        run: async (args, ctx) => {
          const leave = this.enter(source.server, agent);
          try {
            return await tool.run(args, ctx);
          } finally {
            leave();
          }
        },
      };
    });
  }
}

/** Forms named with the subagent whose call led to them, when that is certain (see above). */
export function attributedElicitation(
  inner: ElicitationResponder,
  callers: McpCallers,
): ElicitationResponder {
  return {
    respond(request, signal) {
      const agent = request.agent ?? callers.soleAgent(request.server);
      return inner.respond(agent ? { ...request, agent } : request, signal);
    },
  };
}

/** The approver of one child: every request it makes carries the agent's id and type. */
export function namingApprover(inner: Approver, agent: RequestingAgent): Approver {
  return { request: (request) => inner.request({ ...request, agent }) };
}
