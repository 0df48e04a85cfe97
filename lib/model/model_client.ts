/** The provider-neutral streaming client over the Responses and Chat Completions wire formats. */
import { CancelledError, type ModelRequest, type ModelStreamEvent, TrellisError } from "../shared/mod.ts";
import { backoffDelay, sleep } from "./backoff.ts";
import { createChatDecoder } from "./chat_decoder.ts";
import { toChatBody } from "./chat_request.ts";
import { toResponsesJson } from "./responses_request.ts";
import {
  type ClientSettings,
  clientSettings,
  endpointUrl,
  type ModelClientOptions,
} from "./client_settings.ts";
import { sendWithRetries } from "./http_request.ts";
import type { RequestTarget } from "./model_errors.ts";
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
}

export function createModelClient(provider: ResolvedProvider, options: ModelClientOptions = {}): ModelClient {
  const settings = clientSettings(provider, options);
  return { provider, stream: (request, signal) => streamModel(settings, request, signal) };
}

async function* streamModel(
  settings: ClientSettings,
  request: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelStreamEvent> {
  const { provider } = settings;
  const target: RequestTarget = { provider, url: endpointUrl(provider), model: request.model };
  const body = wireBody(settings, request);
  for (let streamRetry = 0;; streamRetry++) {
    const response = await sendWithRetries(settings, target, body, signal);
    let yielded = false;
    try {
      const decoder = newDecoder(settings, target);
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

function wireBody(settings: ClientSettings, request: ModelRequest): string {
  const reasoning = settings.reasoning;
  if (settings.provider.wireApi === "chat") {
    const body = toChatBody(request);
    return JSON.stringify(reasoning?.effort ? { ...body, reasoning_effort: reasoning.effort } : body);
  }
  return toResponsesJson(request, reasoning ? { reasoning } : {});
}

function newDecoder(settings: ClientSettings, target: RequestTarget): StreamDecoder {
  return settings.provider.wireApi === "chat" ? createChatDecoder(target) : createResponsesDecoder(target);
}
