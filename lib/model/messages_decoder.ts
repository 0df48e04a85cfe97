/**
 * SSE events of the Anthropic Messages API → ModelStreamEvents. Content blocks are assembled by
 * index (parallel tool calls stream one after another, each its own block); a block becomes an item
 * at its `content_block_stop`, so a stream cut inside a tool call's JSON never yields a half call.
 */
import type Anthropic from "@anthropic-ai/sdk";
import {
  type ConversationItem,
  type ModelStreamEvent,
  STRUCTURED_OUTPUT_TOOL,
  type Usage,
} from "../shared/mod.ts";
import { protocolError, type RequestTarget, streamFailureError } from "./model_errors.ts";
import { parseJsonData, type StreamDecoder, tokenCount } from "./stream_decoder.ts";
import { transientErrors } from "./stream_reader.ts";

interface OpenBlock {
  type: string;
  text: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
}

export interface MessagesDecoder extends StreamDecoder {
  /** The message's `stop_reason` once `message_delta` carried it. */
  readonly stopReason: string | undefined;
}

/** `error` event types the same request may get past on a fresh try. */
const TRANSIENT_ERROR_TYPES = new Set(["overloaded_error", "api_error", "rate_limit_error"]);

export function createMessagesDecoder(target: RequestTarget): MessagesDecoder {
  const blocks = new Map<number, OpenBlock>();
  const usage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
  let stopReason: string | undefined;
  let done = false;
  return {
    get done() {
      return done;
    },
    get stopReason() {
      return stopReason;
    },
    accept(event) {
      const data = parseJsonData(target, event) as Anthropic.RawMessageStreamEvent | Record<string, any>;
      const type = typeof data.type === "string" ? data.type : event.event;
      switch (type) {
        case "message_start":
          addUsage(usage, (data as Anthropic.RawMessageStartEvent).message?.usage);
          return [];
        case "content_block_start": {
          const { index, content_block: block } = data as Anthropic.RawContentBlockStartEvent;
          blocks.set(index, startBlock(block as unknown as Record<string, unknown>));
          return [];
        }
        case "content_block_delta":
          return delta(target, blocks, data as Anthropic.RawContentBlockDeltaEvent);
        case "content_block_stop": {
          const index = (data as Anthropic.RawContentBlockStopEvent).index;
          const block = blocks.get(index);
          blocks.delete(index);
          const item = block ? finishBlock(target, block) : undefined;
          if (!item) return [];
          // The forced StructuredOutput call is the final answer (#25 item 3): streamed as its text.
          if (item.type === "function_call" && item.name === STRUCTURED_OUTPUT_TOOL) {
            const text = item.arguments;
            return [{ type: "text_delta", delta: text }, {
              type: "item_done",
              item: { type: "message", role: "assistant", content: text },
            }];
          }
          return [{ type: "item_done", item }];
        }
        case "message_delta": {
          const delta = data as Anthropic.RawMessageDeltaEvent;
          stopReason = delta.delta?.stop_reason ?? stopReason;
          const out = tokenCount(delta.usage?.output_tokens);
          if (out > 0) usage.outputTokens = out;
          return [];
        }
        case "message_stop":
          done = true;
          return stopEvents(target, stopReason, usage);
        case "error": {
          const error = (data as { error?: { type?: string; message?: string } }).error;
          const failure = streamFailureError(
            target,
            error?.message || "the provider sent an error event",
            error?.type,
          );
          if (error?.type && TRANSIENT_ERROR_TYPES.has(error.type)) transientErrors.add(failure);
          throw failure;
        }
        default:
          return []; // ping, and event types added after this was written
      }
    },
  };
}

function startBlock(block: Record<string, unknown>): OpenBlock {
  const type = String(block?.type ?? "");
  switch (type) {
    case "text":
      return { type, text: String(block.text ?? "") };
    case "thinking":
      return {
        type,
        text: String(block.thinking ?? ""),
        ...(block.signature ? { signature: String(block.signature) } : {}),
      };
    case "redacted_thinking":
      return { type, text: "", data: String(block.data ?? "") };
    case "tool_use": {
      // A start block's `input` is `{}`; the arguments stream as input_json_delta.
      const input = block.input && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : "";
      return { type, text: input, id: String(block.id ?? ""), name: String(block.name ?? "") };
    }
    default:
      return { type, text: "" };
  }
}

function delta(
  target: RequestTarget,
  blocks: Map<number, OpenBlock>,
  data: Anthropic.RawContentBlockDeltaEvent,
): ModelStreamEvent[] {
  const block = blocks.get(data.index);
  if (!block) throw protocolError(target, `a delta for content block ${data.index}, which never started`);
  const d = data.delta as unknown as Record<string, unknown>;
  switch (d?.type) {
    case "text_delta":
      block.text += String(d.text ?? "");
      return [{ type: "text_delta", delta: String(d.text ?? "") }];
    case "thinking_delta":
      block.text += String(d.thinking ?? "");
      return [{ type: "reasoning_delta", delta: String(d.thinking ?? "") }];
    case "signature_delta":
      block.signature = (block.signature ?? "") + String(d.signature ?? "");
      return [];
    case "input_json_delta":
      block.text += String(d.partial_json ?? "");
      return [];
    default:
      return [];
  }
}

function finishBlock(target: RequestTarget, block: OpenBlock): ConversationItem | undefined {
  switch (block.type) {
    case "text":
      return { type: "message", role: "assistant", content: block.text };
    case "thinking":
      // Without its signature the block cannot go back, and the API refuses a tool-use turn whose
      // thinking is missing: the response is unusable, said so rather than silently thinned.
      if (!block.signature) {
        throw protocolError(target, "a thinking block arrived without its signature (signature_delta)");
      }
      return { type: "reasoning", summary: block.text, signature: block.signature };
    case "redacted_thinking":
      return { type: "reasoning", summary: "", redactedData: block.data ?? "" };
    case "tool_use": {
      const args = block.text.trim() === "" ? "{}" : block.text;
      try {
        const parsed = JSON.parse(args);
        if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw parsed;
      } catch {
        throw protocolError(
          target,
          `the arguments of tool call "${block.name}" (${block.id}) are not a JSON object: ${excerpt(args)}`,
        );
      }
      return { type: "function_call", callId: block.id ?? "", name: block.name ?? "", arguments: args };
    }
    default:
      return undefined; // server tool blocks and the like: not produced by Trellis tools
  }
}

/** The `completed` event, or the error a stop reason stands for. */
function stopEvents(target: RequestTarget, stopReason: string | undefined, usage: Usage): ModelStreamEvent[] {
  switch (stopReason) {
    case "max_tokens":
      throw streamFailureError(
        target,
        "the response is incomplete (max_tokens: the model reached its output limit)",
        "max_tokens",
      );
    case "refusal":
      throw streamFailureError(target, "the model declined to continue (stop_reason refusal)", "refusal");
    case "model_context_window_exceeded":
      throw streamFailureError(
        target,
        "the conversation no longer fits the model's context window",
        stopReason,
      );
    default:
      return [{ type: "completed", usage: { ...usage } }];
  }
}

/** Input tokens as OpenAI counts them (cached included), so the ledger and usage lines agree. */
function addUsage(usage: Usage, wire: Anthropic.Usage | undefined): void {
  const read = tokenCount(wire?.cache_read_input_tokens);
  const created = tokenCount(wire?.cache_creation_input_tokens);
  usage.inputTokens = tokenCount(wire?.input_tokens) + read + created;
  usage.cachedInputTokens = read;
  usage.outputTokens = tokenCount(wire?.output_tokens);
}

function excerpt(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
