import type { ConversationItem, EventSink, ToolDefinition } from "../shared/mod.ts";
import { completedCallItem, startedCallItem } from "./call_items.ts";
import type { CallOutcome } from "./tool_call.ts";

type Call = ConversationItem & { type: "function_call" };

interface ScheduleOptions {
  run: (call: Call) => Promise<CallOutcome>;
  events: EventSink;
  nextItemId: () => string;
  /** Resolves the paths file-change items name. */
  cwd: string;
  /** The calling thread, named by collab items as their sender. */
  threadId?: string;
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
  const context = {
    id: options.nextItemId(),
    call,
    tool,
    cwd: options.cwd,
    ...(options.threadId ? { threadId: options.threadId } : {}),
  };
  options.events({ type: "item.started", item: startedCallItem(context) });
  const started = performance.now();
  const outcome = await options.run(call);
  const durationMs = Math.round(performance.now() - started);
  options.events({
    type: "item.completed",
    item: completedCallItem(context, outcome.output, durationMs, outcome.displayText),
  });
  if (tool && options.onCall) options.onCall(tool, call.arguments);
  return outcome;
}
