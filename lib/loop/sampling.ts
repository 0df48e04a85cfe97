import type { ConversationItem, EventSink, ModelRequest, Usage } from "../shared/mod.ts";
import { emptyUsage } from "../shared/mod.ts";
import type { ModelClient } from "./ports.ts";

export interface SampledStep {
  items: ConversationItem[];
  usage: Usage;
}

/**
 * Streams one sampling. Items are returned only when the response completed: a stream that breaks
 * midway leaves nothing half-recorded, so the transcript stays resumable.
 */
export async function sampleStep(
  model: ModelClient,
  request: ModelRequest,
  options: { signal: AbortSignal; events: EventSink; nextItemId: () => string },
): Promise<SampledStep> {
  const items: ConversationItem[] = [];
  let usage = emptyUsage();
  let messageId: string | null = null;
  let text = "";
  for await (const event of model.stream(request, options.signal)) {
    switch (event.type) {
      case "text_delta":
        if (messageId === null) {
          messageId = options.nextItemId();
          options.events({ type: "item.started", item: { id: messageId, type: "agent_message", text: "" } });
        }
        text += event.delta;
        options.events({ type: "item.updated", item: { id: messageId, type: "agent_message", text } });
        break;
      case "reasoning_delta":
        break;
      case "item_done":
        items.push(event.item);
        if (event.item.type === "message" && event.item.role === "assistant") {
          const id = messageId ?? options.nextItemId();
          messageId = null;
          text = "";
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
        throw new Error(`unknown model event ${JSON.stringify(never)}`);
      }
    }
  }
  return { items, usage };
}
