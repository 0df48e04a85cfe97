import type { ModelStreamEvent } from "../shared/mod.ts";
import { protocolError, type RequestTarget } from "./model_errors.ts";
import type { SseEvent } from "./sse_parser.ts";

/** Turns one wire format's SSE events into provider-neutral stream events. */
export interface StreamDecoder {
  /** The events this SSE event produces; throws a TrellisError for in-stream failures. */
  accept(event: SseEvent): ModelStreamEvent[];
  /** True once the terminal event arrived; nothing after it is read. */
  readonly done: boolean;
}

/** Parses an SSE data payload as a JSON object, or throws `model_protocol`. */
export function parseJsonData(target: RequestTarget, event: SseEvent): Record<string, any> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.data);
  } catch {
    throw protocolError(target, `invalid JSON in "${event.event}" event: ${excerpt(event.data)}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw protocolError(target, `expected a JSON object in "${event.event}" event: ${excerpt(event.data)}`);
  }
  return parsed as Record<string, any>;
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}

export function tokenCount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
