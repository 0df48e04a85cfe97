import type { ConversationItem, EventSink, ThreadItem, ToolDefinition } from "../shared/mod.ts";
import type { CallOutcome } from "./tool_call.ts";

type Call = ConversationItem & { type: "function_call" };

interface ScheduleOptions {
  run: (call: Call) => Promise<CallOutcome>;
  events: EventSink;
  nextItemId: () => string;
  onCall?: (tool: ToolDefinition, args: string) => void;
}

/**
 * Runs a step's calls: runs of consecutive parallel-safe calls go concurrently, any other call runs
 * alone, in the model's order. Outputs come back in call order whatever finished first.
 */
export async function runCallsInOrder(
  calls: Call[],
  tools: Map<string, ToolDefinition>,
  options: ScheduleOptions,
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  let i = 0;
  while (i < calls.length) {
    const batch = [calls[i]];
    if (tools.get(calls[i].name)?.parallel) {
      while (i + batch.length < calls.length && tools.get(calls[i + batch.length].name)?.parallel) {
        batch.push(calls[i + batch.length]);
      }
    }
    outcomes.push(...await Promise.all(batch.map((call) => observed(call, tools.get(call.name), options))));
    i += batch.length;
  }
  return outcomes;
}

async function observed(
  call: Call,
  tool: ToolDefinition | undefined,
  options: ScheduleOptions,
): Promise<CallOutcome> {
  const id = options.nextItemId();
  const base: ThreadItem & { type: "tool_call" } = {
    id,
    type: "tool_call",
    name: call.name,
    call_id: call.callId,
    arguments: call.arguments,
    source: tool ? describeSource(tool) : "unknown",
    status: "in_progress",
  };
  options.events({ type: "item.started", item: base });
  const started = performance.now();
  const outcome = await options.run(call);
  const status = outcome.output.status;
  options.events({
    type: "item.completed",
    item: {
      ...base,
      status: status === "success" ? "completed" : status === "error" ? "failed" : status,
      output: outcome.output.output,
      duration_ms: Math.round(performance.now() - started),
    },
  });
  if (tool && options.onCall) options.onCall(tool, call.arguments);
  return outcome;
}

function describeSource(tool: ToolDefinition): string {
  switch (tool.source.kind) {
    case "mcp":
      return `mcp:${tool.source.server}`;
    case "builtin":
    case "mcp_resource":
    case "skills":
    case "plugins":
      return tool.source.kind;
    default: {
      const never: never = tool.source;
      return String(never);
    }
  }
}
