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
    "otlp-http"?: {
      endpoint: string;
      protocol: "binary" | "json";
      headers?: Record<string, string>;
      tls?: OtelTls;
    };
    "otlp-grpc"?: { endpoint: string; headers?: Record<string, string>; tls?: OtelTls };
  };

/** Codex's `tls` table: PEM files for the collector's CA and a client certificate and key. */
export interface OtelTls {
  "ca-certificate"?: string;
  "client-certificate"?: string;
  "client-private-key"?: string;
}

/** `[otel]` as lib/config reads it (Codex's keys). */
export interface OtelSettings {
  log_user_prompt?: boolean;
  environment?: string;
  exporter?: OtelExporter;
  trace_exporter?: OtelExporter;
  metrics_exporter?: OtelExporter;
  span_attributes?: Record<string, string>;
}

/** Where each signal goes: an OTLP exporter, or nowhere. */
export interface OtelTargets {
  traces: OtelExporter | undefined;
  metrics: OtelExporter | undefined;
  logs: OtelExporter | undefined;
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
  /** For `codex.conversation_starts` and the events' `terminal.type`. */
  provider?: string;
  approvalPolicy?: string;
  sandboxMode?: string;
  reasoningEffort?: string;
  terminalType?: string;
  /** Reads a `tls` PEM file (lib/platform's file system); a failure names the file. */
  readFile?: (path: string) => string;
  /** Where a failure to set up export is said (a warning; the session goes on). */
  warn: (message: string) => void;
}
