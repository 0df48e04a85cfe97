import type { ResolvedProvider } from "./provider.ts";

/**
 * A response larger than this is not an answer: 128k output tokens stream as ~30 MB of SSE (one
 * event of ~200 bytes per token, the completed response repeating the output once more).
 */
export const DEFAULT_STREAM_MAX_BYTES = 64 * 1024 * 1024;
/** Long enough for the slowest reasoning effort; short enough that a stuck stream ends the turn. */
export const DEFAULT_STREAM_MAX_DURATION_MS = 60 * 60 * 1000;

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
  /** Silence (no data lines; comments do not count) that ends a stream; default `stream_idle_timeout_ms` ?? 300 000 ms. */
  idleTimeoutMs?: number;
  /** Bytes one response may stream before the turn fails; default `stream_max_bytes` ?? 64 MiB. */
  maxResponseBytes?: number;
  /** Time one response may stream before the turn fails; default `stream_max_duration_ms` ?? 1 hour. */
  maxResponseMs?: number;
  onRetry?: (info: RetryInfo) => void;
  /**
   * Called once a request body of at least LARGE_BODY_CHARS has been accepted (the previous steps'
   * bodies are garbage by then): the platform's collectGarbage, so a long session's memory follows
   * what it keeps rather than what it built.
   */
  afterLargeRequest?: () => void;
  /**
   * Reasoning controls, sent only when set (non-reasoning models reject them): Responses gets
   * `reasoning: { effort, summary }`, Chat Completions `reasoning_effort`, Messages a `thinking`
   * budget (lib/model/messages_request.ts). Pass `model_reasoning_effort`.
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
  maxResponseBytes: number;
  maxResponseMs: number;
  onRetry: (info: RetryInfo) => void;
  afterLargeRequest?: () => void;
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
    maxResponseBytes: options.maxResponseBytes ?? provider.streamMaxBytes ?? DEFAULT_STREAM_MAX_BYTES,
    maxResponseMs: options.maxResponseMs ?? provider.streamMaxDurationMs ?? DEFAULT_STREAM_MAX_DURATION_MS,
    onRetry: options.onRetry ?? (() => {}),
    ...(options.afterLargeRequest ? { afterLargeRequest: options.afterLargeRequest } : {}),
    reasoning: options.reasoning,
  };
}

const WIRE_PATHS = { responses: "/responses", chat: "/chat/completions", messages: "/messages" } as const;

/** `{base}/responses`, `{base}/chat/completions` or `{base}/messages`, plus the provider's `query_params`. */
export function endpointUrl(provider: ResolvedProvider, suffix = ""): string {
  const path = WIRE_PATHS[provider.wireApi] + suffix;
  const query = new URLSearchParams(provider.queryParams).toString();
  return `${provider.baseUrl}${path}${query ? `?${query}` : ""}`;
}
