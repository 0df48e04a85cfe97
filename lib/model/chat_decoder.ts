/**
 * SSE chunks of Chat Completions → ModelStreamEvents. Text and reasoning stream as deltas; the
 * finished items (and the tool calls, assembled from fragments by index) are emitted at `[DONE]`.
 */
import type { ModelStreamEvent, Usage } from "../shared/mod.ts";
import { type RequestTarget, streamFailureError } from "./model_errors.ts";
import { parseJsonData, type StreamDecoder, tokenCount } from "./stream_decoder.ts";

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

export function createChatDecoder(target: RequestTarget): StreamDecoder {
  let done = false;
  let text = "";
  let reasoning = "";
  let usage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
  const calls = new Map<number, PartialCall>();

  const finish = (): ModelStreamEvent[] => {
    done = true;
    const events: ModelStreamEvent[] = [];
    if (reasoning) events.push({ type: "item_done", item: { type: "reasoning", summary: reasoning } });
    if (text) events.push({ type: "item_done", item: { type: "message", role: "assistant", content: text } });
    for (const [index, call] of [...calls].sort(([a], [b]) => a - b)) {
      const callId = call.id || `call_${index}_${crypto.randomUUID().slice(0, 8)}`;
      events.push({
        type: "item_done",
        item: { type: "function_call", callId, name: call.name, arguments: call.arguments || "{}" },
      });
    }
    events.push({ type: "completed", usage });
    return events;
  };

  return {
    get done() {
      return done;
    },
    accept(event) {
      if (event.data.trim() === "[DONE]") return finish();
      const chunk = parseJsonData(target, event);
      if (chunk.error) {
        const message = typeof chunk.error.message === "string"
          ? chunk.error.message
          : JSON.stringify(chunk.error);
        throw streamFailureError(
          target,
          message,
          typeof chunk.error.code === "string" ? chunk.error.code : undefined,
        );
      }
      if (chunk.usage) usage = toUsage(chunk.usage);
      const delta = chunk.choices?.[0]?.delta;
      if (!delta) return [];
      const events: ModelStreamEvent[] = [];
      const thought = delta.reasoning_content ?? delta.reasoning;
      if (typeof thought === "string" && thought) {
        reasoning += thought;
        events.push({ type: "reasoning_delta", delta: thought });
      }
      if (typeof delta.content === "string" && delta.content) {
        text += delta.content;
        events.push({ type: "text_delta", delta: delta.content });
      }
      for (const fragment of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        mergeCall(calls, fragment);
      }
      return events;
    },
  };
}

function mergeCall(calls: Map<number, PartialCall>, fragment: any): void {
  const index = typeof fragment?.index === "number" ? fragment.index : calls.size;
  const call = calls.get(index) ?? { id: "", name: "", arguments: "" };
  if (typeof fragment?.id === "string" && fragment.id) call.id = fragment.id;
  // The name arrives whole in the first fragment; some servers repeat it, so it is never appended.
  if (typeof fragment?.function?.name === "string" && !call.name) call.name = fragment.function.name;
  if (typeof fragment?.function?.arguments === "string") call.arguments += fragment.function.arguments;
  calls.set(index, call);
}

function toUsage(usage: any): Usage {
  return {
    inputTokens: tokenCount(usage.prompt_tokens),
    cachedInputTokens: tokenCount(usage.prompt_tokens_details?.cached_tokens),
    outputTokens: tokenCount(usage.completion_tokens),
    reasoningTokens: tokenCount(usage.completion_tokens_details?.reasoning_tokens),
  };
}
