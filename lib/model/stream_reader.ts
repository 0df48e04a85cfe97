/** Reads an SSE response body through a wire decoder, with an idle timeout and prompt cancellation. */
import { CancelledError, type ModelStreamEvent, type TrellisError } from "../shared/mod.ts";
import { protocolError, type RequestTarget } from "./model_errors.ts";
import { createSseParser } from "./sse_parser.ts";
import type { StreamDecoder } from "./stream_decoder.ts";

/** Stream failures that may go away on a fresh request (drops, resets, silence), as opposed to garbage. */
export const transientErrors: WeakSet<TrellisError> = new WeakSet();

class IdleTimeout extends Error {}

export async function* readModelStream(
  response: Response,
  decoder: StreamDecoder,
  target: RequestTarget,
  options: { idleTimeoutMs: number; signal: AbortSignal },
): AsyncGenerator<ModelStreamEvent> {
  const parser = createSseParser();
  const text = new TextDecoder();
  const reader = response.body?.getReader();
  try {
    while (reader) {
      const chunk = await readChunk(reader, target, options);
      const sse = chunk.done
        ? [...parser.push(text.decode()), ...parser.end()]
        : parser.push(text.decode(chunk.value, { stream: true }));
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

function readChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  target: RequestTarget,
  { idleTimeoutMs, signal }: { idleTimeoutMs: number; signal: AbortSignal },
): Promise<ReadableStreamReadResult<Uint8Array>> {
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise((resolve, reject) => {
    const settle = (action: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      action();
    };
    const onAbort = () => settle(() => reject(new CancelledError()));
    const timer = setTimeout(() => settle(() => reject(new IdleTimeout())), idleTimeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });
    reader.read().then(
      (result) => settle(() => resolve(result)),
      (error) => settle(() => reject(error)),
    );
  }).catch((error) => {
    if (error instanceof CancelledError || signal.aborted) throw new CancelledError();
    if (error instanceof IdleTimeout) {
      throw transient(protocolError(target, `no data for ${idleTimeoutMs} ms (stream_idle_timeout_ms)`));
    }
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw transient(protocolError(target, `model stream ended before the response completed (${reason})`));
  }) as Promise<ReadableStreamReadResult<Uint8Array>>;
}

function transient(error: TrellisError): TrellisError {
  transientErrors.add(error);
  return error;
}
