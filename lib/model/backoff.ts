/** Retry timing: exponential backoff with jitter, the server's Retry-After, and an abortable sleep. */
import { CancelledError } from "../shared/mod.ts";

/** The longest wait a server's Retry-After may impose; past it, waiting is worse than failing. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** `base * 2^(attempt-1)`, scaled by a random factor in [0.9, 1.1) so clients do not retry in step. */
export function backoffDelay(
  attempt: number,
  baseDelayMs: number,
  random: () => number = Math.random,
): number {
  const exponential = baseDelayMs * 2 ** Math.max(0, attempt - 1);
  return Math.round(exponential * (0.9 + random() * 0.2));
}

/**
 * The wait a 429/503 response asks for: OpenAI's `retry-after-ms`, else `Retry-After` as seconds
 * or an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = Number(headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, MAX_RETRY_AFTER_MS);
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

/** Waits `ms`, or throws CancelledError as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
