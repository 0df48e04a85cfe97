/** The shapes lib/telemetry works with (apart from mod.ts, which loads the SDK file that uses them). */
import type { EventSink, ModelRequest, ModelStreamEvent } from "../shared/mod.ts";

/** lib/loop's ModelClient, by shape (a peer never imports a peer). */
export interface ModelClient {
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}

export type OtelExporter =
  | "none"
  | "statsig"
  | {
    "otlp-http"?: { endpoint: string; protocol: "binary" | "json"; headers?: Record<string, string> };
    "otlp-grpc"?: { endpoint: string; headers?: Record<string, string> };
  };

/** `[otel]` as lib/config reads it (Codex's keys). */
export interface OtelSettings {
  log_user_prompt?: boolean;
  environment?: string;
  exporter?: OtelExporter;
  trace_exporter?: OtelExporter;
  metrics_exporter?: OtelExporter;
  span_attributes?: Record<string, string>;
}

/** What one session reports. */
export interface Telemetry {
  /** The session's events, also turned into spans and metrics. */
  events(sink: EventSink): EventSink;
  /** The model client, each request a span with its latency and errors. */
  model(client: ModelClient): ModelClient;
  /** The prompt of the turn about to start (kept only with `log_user_prompt = true`). */
  prompt(text: string): void;
  /** Ends the session span and flushes, waiting at most a moment for a slow collector. */
  shutdown(): Promise<void>;
}

export interface TelemetryInfo {
  serviceVersion: string;
  model: string;
  /** Where a failure to set up export is said (a warning; the session goes on). */
  warn: (message: string) => void;
}
