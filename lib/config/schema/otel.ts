import { z } from "../../shared/mod.ts";

/**
 * One exporter as Codex 0.171 spells it (`OtelExporterKind`, kebab-case): "none", "statsig"
 * (OpenAI's own sink: accepted, exports nothing here), `{ otlp-http = { endpoint, protocol, headers,
 * tls } }` or `{ otlp-grpc = { endpoint, headers, tls } }`.
 */
const tls = () =>
  z.optional(z.strictObject({
    "ca-certificate": z.optional(z.string()),
    "client-certificate": z.optional(z.string()),
    "client-private-key": z.optional(z.string()),
  }));

const exporter = () =>
  z.optional(z.union([
    z.enum(["none", "statsig"]),
    z.strictObject({
      "otlp-http": z.strictObject({
        endpoint: z.string(),
        /** "binary" (protobuf) or "json", as Codex names OTLP/HTTP's two encodings. */
        protocol: z.enum(["binary", "json"]),
        headers: z.optional(z.record(z.string(), z.string())),
        tls: tls(),
      }),
    }),
    z.strictObject({
      "otlp-grpc": z.strictObject({
        endpoint: z.string(),
        headers: z.optional(z.record(z.string(), z.string())),
        tls: tls(),
      }),
    }),
  ]));

/** `[otel]` (#25 item 4), with Codex's keys (`codex-rs/config/src/types.rs` `OtelConfigToml`). */
const otelSchema = () =>
  z.strictObject({
    /** The prompt's text on the turn span (default false: left out). */
    log_user_prompt: z.optional(z.boolean()),
    /** Marks everything exported (`env` resource attribute; default "dev", as Codex). */
    environment: z.optional(z.string()),
    /** Codex's log exporter: Codex's log events go there; it never implies traces. */
    exporter: exporter(),
    trace_exporter: exporter(),
    metrics_exporter: exporter(),
    /** Attributes added to every span. */
    span_attributes: z.optional(z.record(z.string(), z.string())),
  });

export const otelSections = {
  otel: otelSchema,
};
