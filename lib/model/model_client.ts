/** The provider-neutral streaming client over the Responses, Chat Completions and Messages wire formats. */
import {
  addUsage,
  CancelledError,
  type ConversationItem,
  emptyUsage,
  type ModelRequest,
  type ModelStreamEvent,
  TrellisError,
  type Usage,
} from "../shared/mod.ts";
import { backoffDelay, sleep } from "./backoff.ts";
import { createChatDecoder } from "./chat_decoder.ts";
import { toChatBody } from "./chat_request.ts";
import { toResponsesJson, withoutCustomTools } from "./responses_request.ts";
import {
  type ClientSettings,
  clientSettings,
  endpointUrl,
  type ModelClientOptions,
} from "./client_settings.ts";
import { sendWithRetries } from "./http_request.ts";
import { countMessageTokens } from "./messages_count_tokens.ts";
import { createMessagesDecoder, type MessagesDecoder } from "./messages_decoder.ts";
import { thinkingBudget, toMessagesBody } from "./messages_request.ts";
import { type RequestTarget, streamFailureError } from "./model_errors.ts";
import type { ResolvedProvider } from "./provider.ts";
import { createResponsesDecoder } from "./responses_decoder.ts";
import type { StreamDecoder } from "./stream_decoder.ts";
import { readModelStream, transientErrors } from "./stream_reader.ts";

export interface ModelClient {
  readonly provider: ResolvedProvider;
  /**
   * Streams one sampling request. Ends with a `completed` event or throws a TrellisError
   * (`model_auth`, `model_not_found`, `model_unreachable`, `model_http`, `model_protocol`), or
   * CancelledError once `signal` aborts.
   */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
  /**
   * The provider's exact count of the request's input tokens, where the wire has an endpoint for
   * it (Messages: `/messages/count_tokens`); absent on the other wires, whose counts are local.
   */
  countTokens?(request: ModelRequest, signal: AbortSignal): Promise<number>;
}

/** How many times one request follows a `pause_turn` before the turn fails (server tools loop). */
export const MAX_PAUSE_CONTINUATIONS = 3;

export function createModelClient(provider: ResolvedProvider, options: ModelClientOptions = {}): ModelClient {
  const settings = clientSettings(provider, options);
  const stream = (request: ModelRequest, signal: AbortSignal) =>
    provider.wireApi === "messages"
      ? streamMessages(settings, request, signal)
      : streamModel(settings, request, signal);
  if (provider.wireApi !== "messages") return { provider, stream };
  return {
    provider,
    stream,
    countTokens: (request, signal) =>
      countMessageTokens(settings, request, effortOf(settings, request), signal),
  };
}

/**
 * The Messages wire: a response that stops with `pause_turn` (a server tool paused a long turn) is
 * sent back as it came so the model resumes it, up to MAX_PAUSE_CONTINUATIONS times; the caller sees
 * one response whose usage is the sum.
 */
async function* streamMessages(
  settings: ClientSettings,
  request: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelStreamEvent> {
  let input = request.input;
  let usage = emptyUsage();
  for (let pause = 0;; pause++) {
    const decoders: MessagesDecoder[] = [];
    const produced: ConversationItem[] = [];
    let completed: Usage | undefined;
    for await (const event of streamModel(settings, { ...request, input }, signal, decoders)) {
      if (event.type === "completed") completed = event.usage;
      else {
        if (event.type === "item_done") produced.push(event.item);
        yield event;
      }
    }
    usage = addUsage(usage, completed ?? emptyUsage());
    if (decoders.at(-1)?.stopReason !== "pause_turn") {
      yield { type: "completed", usage };
      return;
    }
    if (pause >= MAX_PAUSE_CONTINUATIONS) {
      throw streamFailureError(
        { provider: settings.provider, url: endpointUrl(settings.provider), model: request.model },
        `the model paused its turn (pause_turn) ${pause + 1} times; giving up`,
        "pause_turn",
      );
    }
    input = [...input, ...produced];
  }
}

async function* streamModel(
  settings: ClientSettings,
  request: ModelRequest,
  signal: AbortSignal,
  decoders: StreamDecoder[] = [],
): AsyncGenerator<ModelStreamEvent> {
  const { provider } = settings;
  const target: RequestTarget = { provider, url: endpointUrl(provider), model: request.model };
  const body = wireBody(settings, request);
  const headers = wireHeaders(settings, request);
  for (let streamRetry = 0;; streamRetry++) {
    const response = await sendWithRetries(settings, target, body, signal, headers);
    let yielded = false;
    try {
      const decoder = newDecoder(settings, target);
      decoders.push(decoder);
      const events = readModelStream(response, decoder, target, {
        idleTimeoutMs: settings.idleTimeoutMs,
        maxBytes: settings.maxResponseBytes,
        maxDurationMs: settings.maxResponseMs,
        signal,
      });
      for await (const event of events) {
        yielded = true;
        yield event;
      }
      return;
    } catch (error) {
      // Once an event reached the caller a retry would duplicate output, so only silent breaks retry.
      if (error instanceof CancelledError || signal.aborted) throw new CancelledError();
      const retryable = error instanceof TrellisError && transientErrors.has(error);
      if (yielded || !retryable || streamRetry >= settings.streamMaxRetries) throw error;
      const delayMs = backoffDelay(streamRetry + 1, settings.baseDelayMs);
      settings.onRetry({
        attempt: streamRetry + 1,
        maxRetries: settings.streamMaxRetries,
        delayMs,
        reason: error.message,
      });
      await sleep(delayMs, signal);
    }
  }
}

function effortOf(settings: ClientSettings, request: ModelRequest): string | undefined {
  return reasoningOf(settings, request)?.effort;
}

/** The client's reasoning controls, with the request's own effort when it names one. */
function reasoningOf(settings: ClientSettings, request: ModelRequest): ClientSettings["reasoning"] {
  return request.reasoningEffort
    ? { ...settings.reasoning, effort: request.reasoningEffort }
    : settings.reasoning;
}

/** Claude Code's beta for thinking between tool calls, sent when thinking is on. */
const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

function wireHeaders(settings: ClientSettings, request: ModelRequest): Record<string, string> {
  if (settings.provider.wireApi !== "messages" || thinkingBudget(effortOf(settings, request)) === undefined) {
    return {};
  }
  return { "anthropic-beta": INTERLEAVED_THINKING_BETA };
}

function wireBody(settings: ClientSettings, request: ModelRequest): string {
  const reasoning = reasoningOf(settings, request);
  if (settings.provider.wireApi === "messages") {
    return JSON.stringify(toMessagesBody(request, { effort: reasoning?.effort }));
  }
  if (settings.provider.wireApi === "chat") {
    const body = toChatBody(request);
    return JSON.stringify(reasoning?.effort ? { ...body, reasoning_effort: reasoning.effort } : body);
  }
  const sent = settings.provider.customTools === false ? withoutCustomTools(request) : request;
  return toResponsesJson(sent, reasoning ? { reasoning } : {});
}

function newDecoder(settings: ClientSettings, target: RequestTarget): StreamDecoder {
  switch (settings.provider.wireApi) {
    case "chat":
      return createChatDecoder(target);
    case "messages":
      return createMessagesDecoder(target);
    default:
      return createResponsesDecoder(target);
  }
}
