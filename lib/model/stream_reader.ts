/**
 * Reads an SSE response body through a wire decoder, within three bounds: silence (no data lines for
 * `stream_idle_timeout_ms`: keep-alive comments are not data), size (`stream_max_bytes` read for one
 * response) and time (`stream_max_duration_ms` for one response), and with prompt cancellation.
 */
import { CancelledError, type ModelStreamEvent, TrellisError } from "../shared/mod.ts";
import { protocolError, redact, type RequestTarget } from "./model_errors.ts";
import { createSseParser } from "./sse_parser.ts";
import type { StreamDecoder } from "./stream_decoder.ts";

/** Stream failures that may go away on a fresh request (drops, resets, silence), as opposed to garbage. */
export const transientErrors: WeakSet<TrellisError> = new WeakSet();

export interface StreamBounds {
  idleTimeoutMs: number;
  maxBytes: number;
  maxDurationMs: number;
  signal: AbortSignal;
}

class Timeout extends Error {}

export async function* readModelStream(
  response: Response,
  decoder: StreamDecoder,
  target: RequestTarget,
  bounds: StreamBounds,
): AsyncGenerator<ModelStreamEvent> {
  const parser = createSseParser();
  const text = new TextDecoder();
  const reader = response.body?.getReader();
  const started = performance.now();
  let lastData = started;
  let bytes = 0;
  try {
    while (reader) {
      const chunk = await readChunk(reader, target, bounds, { started, lastData });
      if (!chunk.done) {
        bytes += chunk.value.byteLength;
        if (bytes > bounds.maxBytes) {
          throw limitError(target, sizeMessage(bounds.maxBytes), "stream_max_bytes");
        }
      }
      const progress = parser.progress;
      const sse = chunk.done
        ? [...parser.push(text.decode()), ...parser.end()]
        : parser.push(text.decode(chunk.value, { stream: true }));
      if (parser.progress !== progress) lastData = performance.now();
      for (const event of sse) {
        yield* decoder.accept(event);
        if (decoder.done) return;
      }
      if (chunk.done) break;
    }
    throw transient(protocolError(target, "model stream ended before the response completed"));
  } finally {
    // Stopping early (done, error, consumer break) must release the connection.
    reader?.cancel().catch(() => {});
  }
}

/** One read, bounded by whichever comes first: the idle deadline or the response's time limit. */
function readChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  target: RequestTarget,
  bounds: StreamBounds,
  clock: { started: number; lastData: number },
): Promise<ReadableStreamReadResult<Uint8Array>> {
  const { signal } = bounds;
  if (signal.aborted) return Promise.reject(new CancelledError());
  const idleAt = clock.lastData + bounds.idleTimeoutMs;
  const endAt = clock.started + bounds.maxDurationMs;
  const waitMs = Math.max(0, Math.min(idleAt, endAt) - performance.now());
  return new Promise((resolve, reject) => {
    const settle = (action: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      action();
    };
    const onAbort = () => settle(() => reject(new CancelledError()));
    const timer = setTimeout(() => settle(() => reject(new Timeout())), waitMs);
    signal.addEventListener("abort", onAbort, { once: true });
    reader.read().then(
      (result) => settle(() => resolve(result)),
      (error) => settle(() => reject(error)),
    );
  }).catch((error) => {
    if (error instanceof CancelledError || signal.aborted) throw new CancelledError();
    if (error instanceof Timeout) {
      if (endAt <= idleAt) {
        throw limitError(
          target,
          `the response took longer than ${bounds.maxDurationMs} ms (stream_max_duration_ms)`,
          "stream_max_duration_ms",
        );
      }
      throw transient(
        protocolError(target, `no data for ${bounds.idleTimeoutMs} ms (stream_idle_timeout_ms)`),
      );
    }
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw transient(protocolError(target, `model stream ended before the response completed (${reason})`));
  }) as Promise<ReadableStreamReadResult<Uint8Array>>;
}

function sizeMessage(maxBytes: number): string {
  return `the response exceeded ${maxBytes} bytes (stream_max_bytes)`;
}

/** A bound was reached: never retried (the same request would run into it again), the turn fails. */
function limitError(target: RequestTarget, state: string, field: string): TrellisError {
  return new TrellisError(
    "model_stream_limit",
    redact(`Cannot read the model stream from "${target.url}": ${state}`, target.provider.apiKey),
    { provider: target.provider.id, url: target.url, model: target.model, field },
  );
}

function transient(error: TrellisError): TrellisError {
  transientErrors.add(error);
  return error;
}
