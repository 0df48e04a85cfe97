import type { ConversationItem, EventSink, ModelRequest, Usage } from "../shared/mod.ts";
import { emptyUsage, TrellisError } from "../shared/mod.ts";
import type { ModelClient } from "./ports.ts";

export interface SampledStep {
  items: ConversationItem[];
  usage: Usage;
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
  for await (const event of model.stream(request, options.signal)) {
    switch (event.type) {
      case "text_delta":
        if (messageId === null) {
          messageId = options.nextItemId();
          options.events({ type: "item.started", item: { id: messageId, type: "agent_message", text: "" } });
        }
        options.events({ type: "item.agent_message.delta", item_id: messageId, delta: event.delta });
        break;
      case "reasoning_delta":
        break;
      case "item_done":
        items.push(event.item);
        if (event.item.type === "message" && event.item.role === "assistant") {
          const id = messageId ?? options.nextItemId();
          messageId = null;
          options.events({
            type: "item.completed",
            item: { id, type: "agent_message", text: event.item.content },
          });
        } else if (event.item.type === "reasoning" && event.item.summary) {
          options.events({
            type: "item.completed",
            item: { id: options.nextItemId(), type: "reasoning", text: event.item.summary },
          });
        }
        break;
      case "completed":
        usage = event.usage;
        return { items, usage };
      default: {
        const never: never = event;
        throw new TrellisError("internal", `unknown model event ${JSON.stringify(never)}`, { event: never });
      }
    }
  }
  return { items, usage };
}
