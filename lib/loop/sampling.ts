import type { ConversationItem, EventSink, ModelRequest, ModelStreamEvent, Usage } from "../shared/mod.ts";
import { CancelledError, emptyUsage, TrellisError } from "../shared/mod.ts";
import type { ModelClient } from "./ports.ts";

export interface SampledStep {
  items: ConversationItem[];
  usage: Usage;
}

/**
 * A sampling the person interrupted while the answer streamed (#21 item 3): what they had read so
 * far, which the turn records as the assistant's (partial) message, as Codex keeps it.
 */
export class InterruptedAnswer extends CancelledError {
  constructor(readonly partialText: string) {
    super("interrupted");
  }
}

/**
 * Streams one sampling. Items are returned only when the response completed: a stream that breaks
 * midway leaves nothing half-recorded, so the transcript stays resumable. The answer streams as
 * `item.agent_message.delta` events, each carrying only its new text: the whole text goes out once,
 * in `item.completed` (#13: re-sending it with every piece made the output quadratic).
 */
export async function sampleStep(
  model: ModelClient,
  request: ModelRequest,
  options: { signal: AbortSignal; events: EventSink; nextItemId: () => string },
): Promise<SampledStep> {
  const items: ConversationItem[] = [];
  let usage = emptyUsage();
  let messageId: string | null = null;
  let partial = "";
  try {
    for await (const event of model.stream(request, options.signal)) {
      if (event.type === "text_delta") partial += event.delta;
      else if (event.type === "item_done" && event.item.type === "message") partial = "";
      if (event.type === "completed") {
        usage = event.usage;
        return { items, usage };
      }
      ({ messageId } = handle(event, { items, messageId, ...options }));
    }
  } catch (error) {
    // Interrupted mid-answer: the text streamed so far is the partial answer; a break that is
    // not an interruption records nothing, as before.
    if (options.signal.aborted && partial.trim() !== "") throw new InterruptedAnswer(partial);
    throw error;
  }
  if (options.signal.aborted && partial.trim() !== "") throw new InterruptedAnswer(partial);
  return { items, usage };
}

/** One stream event → the events people see and the finished items; returns the open message's id. */
function handle(
  event: Exclude<ModelStreamEvent, { type: "completed" }>,
  state: { items: ConversationItem[]; messageId: string | null; events: EventSink; nextItemId: () => string },
): { messageId: string | null } {
  const { items, events, nextItemId } = state;
  let messageId = state.messageId;
  switch (event.type) {
    case "text_delta":
      if (messageId === null) {
        messageId = nextItemId();
        events({ type: "item.started", item: { id: messageId, type: "agent_message", text: "" } });
      }
      events({ type: "item.agent_message.delta", item_id: messageId, delta: event.delta });
      break;
    case "reasoning_delta":
      break;
    case "item_done":
      items.push(event.item);
      if (event.item.type === "message" && event.item.role === "assistant") {
        const id = messageId ?? nextItemId();
        messageId = null;
        events({ type: "item.completed", item: { id, type: "agent_message", text: event.item.content } });
      } else if (event.item.type === "reasoning" && event.item.summary) {
        events({
          type: "item.completed",
          item: { id: nextItemId(), type: "reasoning", text: event.item.summary },
        });
      }
      break;
    default: {
      const never: never = event;
      throw new TrellisError("internal", `unknown model event ${JSON.stringify(never)}`, { event: never });
    }
  }
  return { messageId };
}
