/**
 * `POST /messages/count_tokens` through `@anthropic-ai/sdk`: the provider's exact count of a
 * request's input, for the context ledger (Claude's tokenizer is not public, so nothing local is
 * exact). The SDK is imported on first use: only `debug context` and `/context` pay for it.
 */
import type { ModelRequest } from "../shared/mod.ts";
import { CancelledError } from "../shared/mod.ts";
import type { ClientSettings } from "./client_settings.ts";
import { endpointUrl } from "./client_settings.ts";
import { ANTHROPIC_VERSION } from "./http_request.ts";
import { toMessagesBody } from "./messages_request.ts";
import { httpStatusError, protocolError, type RequestTarget, unreachableError } from "./model_errors.ts";

export async function countMessageTokens(
  settings: ClientSettings,
  request: ModelRequest,
  effort: string | undefined,
  signal: AbortSignal,
): Promise<number> {
  const { provider } = settings;
  const target: RequestTarget = {
    provider,
    url: endpointUrl(provider, "/count_tokens"),
    model: request.model,
  };
  const { default: Anthropic, APIError } = await import("@anthropic-ai/sdk");
  // The key goes as `x-api-key`, as Claude Code sends it; a provider without one sends no auth header
  // (a gateway that authenticates by its own `http_headers`, or none).
  const auth: Record<string, string | null> = provider.apiKey
    ? { "x-api-key": provider.apiKey }
    : { authorization: null };
  const client = new Anthropic({
    apiKey: null,
    authToken: null,
    baseURL: provider.baseUrl,
    fetch: settings.fetch,
    maxRetries: settings.maxRetries,
    timeout: settings.idleTimeoutMs,
    defaultHeaders: { "anthropic-version": ANTHROPIC_VERSION, ...provider.headers, ...auth },
    defaultQuery: provider.queryParams,
  });
  const { max_tokens: _max, stream: _stream, ...body } = toMessagesBody(request, { effort });
  try {
    const counted = await client.post<{ input_tokens?: unknown }>("/messages/count_tokens", { body, signal });
    const tokens = counted?.input_tokens;
    if (typeof tokens !== "number" || !Number.isFinite(tokens)) {
      throw protocolError(target, "the count_tokens answer has no input_tokens");
    }
    return tokens;
  } catch (error) {
    if (signal.aborted) throw new CancelledError();
    if (error instanceof APIError && typeof error.status === "number") {
      throw httpStatusError(target, error.status, JSON.stringify(error.error ?? {}), 1);
    }
    if (error instanceof APIError) throw unreachableError(target, error, 1);
    throw error;
  }
}
