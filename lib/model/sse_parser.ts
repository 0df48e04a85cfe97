import { createParser } from "eventsource-parser";

/**
 * Server-Sent Events as the model wire sends them, read by `eventsource-parser` (the WHATWG "event
 * stream interpretation"): fed decoded text in arbitrary chunks, it returns each event once its
 * terminating blank line has arrived. This wrapper only collects the events per chunk and counts
 * progress for the idle timeout.
 */

export interface SseEvent {
  /** The `event:` field; "message" when the server named none. */
  event: string;
  /** All `data:` lines joined by "\n". */
  data: string;
  id?: string;
}

export interface SseParser {
  /** Feeds more text; returns the events it completed. */
  push(text: string): SseEvent[];
  /** Ends the stream; an event without its blank line is discarded, as the standard says. */
  end(): SseEvent[];
  /**
   * Grows with every event, `retry:` and unknown field the stream completes. Comment lines
   * (`: keep-alive`) and blank lines do not count: a server that sends only comments is sending no
   * data, however often it sends (#13 item 13).
   */
  readonly progress: number;
}

export function createSseParser(): SseParser {
  let out: SseEvent[] = [];
  let progress = 0;
  let endsInCr = false;
  const parser = createParser({
    onEvent(message) {
      progress++;
      out.push({
        event: message.event || "message",
        data: message.data,
        ...(message.id ? { id: message.id } : {}),
      });
    },
    onRetry() {
      progress++;
    },
    onError() {
      progress++; // an unknown field: not an event, but not a keep-alive either
    },
  });
  const take = () => {
    const done = out;
    out = [];
    return done;
  };
  return {
    get progress() {
      return progress;
    },
    push(text) {
      if (text !== "") endsInCr = text.endsWith("\r");
      parser.feed(text);
      return take();
    },
    end() {
      // A final lone "\r" ends its line: the parser waits to see whether "\n" follows, and "\r\n"
      // is one line end, so this adds no blank line of its own.
      if (endsInCr) parser.feed("\n");
      const last = take();
      parser.reset(); // an event without its blank line is dropped
      return last;
    },
  };
}
