/** Sends the request, retrying 429/5xx and connection failures with backoff before any byte streamed. */
import { CancelledError, TrellisError } from "../shared/mod.ts";
import { backoffDelay, retryAfterMs, sleep } from "./backoff.ts";
import type { ClientSettings } from "./client_settings.ts";
import { httpStatusError, type RequestTarget, unreachableError } from "./model_errors.ts";

/** 408 and 409 are OpenAI's "try again" conflicts; 429 is rate limiting; 5xx are server faults. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** A body this large (1 Mi characters: a few hundred tool outputs) asks for a collection once sent. */
export const LARGE_BODY_CHARS = 1 << 20;

export async function sendWithRetries(
  settings: ClientSettings,
  target: RequestTarget,
  body: string,
  signal: AbortSignal,
  wireHeaders: Record<string, string> = {},
): Promise<Response> {
  const headers = requestHeaders(settings, wireHeaders);
  for (let attempt = 1;; attempt++) {
    if (signal.aborted) throw new CancelledError();
    let response: Response;
    try {
      response = await fetchHeaders(settings, target.url, { method: "POST", headers, body }, signal);
    } catch (error) {
      if (signal.aborted) throw new CancelledError();
      if (attempt > settings.maxRetries) throw unreachableError(target, error, attempt);
      await retryWait(settings, attempt, undefined, { reason: describe(error) }, signal);
      continue;
    }
    if (response.ok) {
      if (body.length >= LARGE_BODY_CHARS) settings.afterLargeRequest?.();
      return response;
    }
    const text = await readErrorBody(response, signal);
    if (isRetryableStatus(response.status) && attempt <= settings.maxRetries) {
      const reason = `HTTP ${response.status}`;
      await retryWait(
        settings,
        attempt,
        retryAfterMs(response.headers),
        { status: response.status, reason },
        signal,
      );
      continue;
    }
    throw httpStatusError(target, response.status, text, attempt);
  }
}

/** A server that accepts the connection but never answers counts as unreachable after the idle timeout. */
async function fetchHeaders(
  settings: ClientSettings,
  url: string,
  init: RequestInit,
  signal: AbortSignal,
): Promise<Response> {
  const silence = new AbortController();
  const timer = setTimeout(
    () =>
      silence.abort(
        new TrellisError("model_unreachable", `no response within ${settings.idleTimeoutMs} ms`, {
          timeoutMs: settings.idleTimeoutMs,
        }),
      ),
    settings.idleTimeoutMs,
  );
  try {
    return await settings.fetch(url, { ...init, signal: AbortSignal.any([signal, silence.signal]) });
  } catch (error) {
    throw silence.signal.aborted ? silence.signal.reason : error;
  } finally {
    clearTimeout(timer);
  }
}

/** The Messages API version every request names (the only one Anthropic has published). */
export const ANTHROPIC_VERSION = "2023-06-01";

/**
 * The Messages wire authenticates with `x-api-key` and names the API version, as Claude Code does;
 * the OpenAI wires take a bearer token. The provider's own headers win over neither the key nor
 * the content type, but may set `anthropic-version` (a gateway that pins another).
 */
function requestHeaders(
  settings: ClientSettings,
  wireHeaders: Record<string, string>,
): Record<string, string> {
  const { provider } = settings;
  const messages = provider.wireApi === "messages";
  return {
    "content-type": "application/json",
    accept: "text/event-stream",
    ...(messages ? { "anthropic-version": ANTHROPIC_VERSION } : {}),
    ...wireHeaders,
    ...provider.headers,
    ...(provider.apiKey
      ? messages ? { "x-api-key": provider.apiKey } : { authorization: `Bearer ${provider.apiKey}` }
      : {}),
  };
}

async function retryWait(
  settings: ClientSettings,
  attempt: number,
  serverDelayMs: number | undefined,
  cause: { status?: number; reason: string },
  signal: AbortSignal,
): Promise<void> {
  const delayMs = serverDelayMs ?? backoffDelay(attempt, settings.baseDelayMs);
  settings.onRetry({ attempt, maxRetries: settings.maxRetries, delayMs, ...cause });
  await sleep(delayMs, signal);
}

async function readErrorBody(response: Response, signal: AbortSignal): Promise<string> {
  try {
    return await response.text();
  } catch {
    if (signal.aborted) throw new CancelledError();
    return "";
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0] : String(error);
}
