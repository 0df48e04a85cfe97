/**
 * A small incremental Server-Sent Events parser (WHATWG "event stream interpretation"): fed decoded
 * text in arbitrary chunks, it returns each event once its terminating blank line has arrived.
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
   * Field lines (`data:`, `event:`, …) read so far. Comment lines (`: keep-alive`) and blank lines
   * do not count: a server that sends only comments is sending no data, however often it sends.
   */
  readonly fieldLines: number;
}

export function createSseParser(): SseParser {
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  let fieldLines = 0;

  const takeLine = (line: string, out: SseEvent[]): void => {
    if (line === "") {
      if (data.length > 0) {
        out.push({ event: event || "message", data: data.join("\n"), ...(id ? { id } : {}) });
      }
      event = "";
      data = [];
      return;
    }
    if (line.startsWith(":")) return;
    fieldLines++;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
  };

  return {
    get fieldLines() {
      return fieldLines;
    },
    push(text) {
      buffer += text;
      const out: SseEvent[] = [];
      // A trailing "\r" may be the first half of "\r\n", so it waits for the next chunk.
      const pattern = /\r\n|\r(?!$)|\n/g;
      let start = 0;
      for (let match = pattern.exec(buffer); match; match = pattern.exec(buffer)) {
        takeLine(buffer.slice(start, match.index), out);
        start = match.index + match[0].length;
      }
      buffer = buffer.slice(start);
      return out;
    },
    end() {
      const out: SseEvent[] = [];
      if (buffer.endsWith("\r")) takeLine(buffer.slice(0, -1), out);
      buffer = "";
      event = "";
      data = [];
      return out;
    },
  };
}
