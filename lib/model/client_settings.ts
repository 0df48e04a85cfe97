import type { ResolvedProvider } from "./provider.ts";

/** What a retry is about, for progress output ("reconnecting… 2/4"). */
export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
  delayMs: number;
  /** The HTTP status that caused it, when there was one. */
  status?: number;
  reason: string;
}

export interface ModelClientOptions {
  /** Defaults to the global `fetch` (Deno and Bun both have one). */
  fetch?: typeof fetch;
  /** Retries of the HTTP request on 429/5xx/connection errors; default `request_max_retries` ?? 4. */
  maxRetries?: number;
  /** Retries of a stream that broke before it yielded anything; default `stream_max_retries` ?? 5. */
  streamMaxRetries?: number;
  /** First backoff step; default 200 ms, doubling per attempt, ±10% jitter. */
  baseDelayMs?: number;
  /** Silence that ends a stream; default `stream_idle_timeout_ms` ?? 300 000 ms. */
  idleTimeoutMs?: number;
  onRetry?: (info: RetryInfo) => void;
  /**
   * Reasoning controls, sent only when set (non-reasoning models reject them): Responses gets
   * `reasoning: { effort, summary }`, Chat Completions `reasoning_effort`. Pass `model_reasoning_effort`.
   */
  reasoning?: { effort?: string; summary?: "auto" | "concise" | "detailed" };
}

export interface ClientSettings {
  provider: ResolvedProvider;
  fetch: typeof fetch;
  maxRetries: number;
  streamMaxRetries: number;
  baseDelayMs: number;
  idleTimeoutMs: number;
  onRetry: (info: RetryInfo) => void;
  reasoning?: { effort?: string; summary?: "auto" | "concise" | "detailed" };
}

export function clientSettings(provider: ResolvedProvider, options: ModelClientOptions): ClientSettings {
  return {
    provider,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    maxRetries: options.maxRetries ?? provider.requestMaxRetries ?? 4,
    streamMaxRetries: options.streamMaxRetries ?? provider.streamMaxRetries ?? 5,
    baseDelayMs: options.baseDelayMs ?? 200,
    idleTimeoutMs: options.idleTimeoutMs ?? provider.streamIdleTimeoutMs ?? 300_000,
    onRetry: options.onRetry ?? (() => {}),
    reasoning: options.reasoning,
  };
}

/** `{base}/responses` or `{base}/chat/completions`, plus the provider's `query_params`. */
export function endpointUrl(provider: ResolvedProvider): string {
  const path = provider.wireApi === "chat" ? "/chat/completions" : "/responses";
  const query = new URLSearchParams(provider.queryParams).toString();
  return `${provider.baseUrl}${path}${query ? `?${query}` : ""}`;
}
