/** SSE events of the Responses API → ModelStreamEvents. */
import type { ConversationItem, Usage } from "../shared/mod.ts";
import { type RequestTarget, streamFailureError } from "./model_errors.ts";
import { parseJsonData, type StreamDecoder, tokenCount } from "./stream_decoder.ts";

export function createResponsesDecoder(target: RequestTarget): StreamDecoder {
  let done = false;
  return {
    get done() {
      return done;
    },
    accept(event) {
      const data = parseJsonData(target, event);
      const type = typeof data.type === "string" ? data.type : event.event;
      switch (type) {
        case "response.output_text.delta":
          return [{ type: "text_delta", delta: String(data.delta ?? "") }];
        case "response.reasoning_summary_text.delta":
          return [{ type: "reasoning_delta", delta: String(data.delta ?? "") }];
        case "response.output_item.done": {
          const item = toConversationItem(data.item);
          return item ? [{ type: "item_done", item }] : [];
        }
        case "response.completed":
          done = true;
          return [{ type: "completed", usage: toUsage(data.response?.usage) }];
        case "response.failed":
          throw failure(target, data.response?.error, "the provider reported the response failed");
        case "response.incomplete":
          throw streamFailureError(
            target,
            `the response is incomplete (${data.response?.incomplete_details?.reason ?? "no reason given"})`,
          );
        case "error":
          throw failure(target, data.error ?? data, "the provider sent an error event");
        default:
          return [];
      }
    },
  };
}

function failure(target: RequestTarget, error: any, fallback: string) {
  const message = typeof error?.message === "string" && error.message ? error.message : fallback;
  return streamFailureError(target, message, typeof error?.code === "string" ? error.code : undefined);
}

/** Output items the loop acts on; other kinds (web search, images) are not produced by Trellis tools. */
export function toConversationItem(item: any): ConversationItem | undefined {
  const id = typeof item?.id === "string" ? { id: item.id } : {};
  switch (item?.type) {
    case "message": {
      const parts: any[] = Array.isArray(item.content) ? item.content : [];
      const content = parts
        .map((part) => part?.type === "refusal" ? String(part.refusal ?? "") : String(part?.text ?? ""))
        .join("");
      return { type: "message", role: "assistant", content, ...id };
    }
    case "function_call":
      return {
        type: "function_call",
        callId: String(item.call_id ?? item.id ?? ""),
        name: String(item.name ?? ""),
        arguments: typeof item.arguments === "string" ? item.arguments : JSON.stringify(item.arguments ?? {}),
        ...(typeof item.namespace === "string" ? { namespace: item.namespace } : {}),
        ...id,
      };
    case "custom_tool_call":
      return {
        type: "function_call",
        callId: String(item.call_id ?? item.id ?? ""),
        name: String(item.name ?? ""),
        arguments: typeof item.input === "string" ? item.input : "",
        custom: true,
        ...id,
      };
    case "reasoning": {
      const summary: any[] = Array.isArray(item.summary) ? item.summary : [];
      return {
        type: "reasoning",
        summary: summary.map((part) => String(part?.text ?? "")).join("\n\n"),
        ...(typeof item.encrypted_content === "string" ? { encryptedContent: item.encrypted_content } : {}),
        ...id,
      };
    }
    default:
      return undefined;
  }
}

function toUsage(usage: any): Usage {
  return {
    inputTokens: tokenCount(usage?.input_tokens),
    cachedInputTokens: tokenCount(usage?.input_tokens_details?.cached_tokens),
    outputTokens: tokenCount(usage?.output_tokens),
    reasoningTokens: tokenCount(usage?.output_tokens_details?.reasoning_tokens),
  };
}
