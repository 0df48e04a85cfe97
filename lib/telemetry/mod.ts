/**
 * OpenTelemetry export (`[otel]`, #25 item 4). This door costs nothing when `[otel]` sets no
 * exporter: the OpenTelemetry SDK is imported (dynamically) only when one is configured, so start-up
 * without it is unchanged. Spans and metrics are built from the session's own event stream and
 * model calls, handed to the SDK's batch processors, and exported off the turn's path.
 */
import type { OtelExporter, OtelSettings, OtelTargets, Telemetry, TelemetryInfo } from "./types.ts";
export type { Telemetry } from "./types.ts";

/**
 * Codex 0.171's rule: each signal has its own endpoint — traces go only to `trace_exporter`, metrics
 * only to `metrics_exporter`, Codex's log events only to `exporter` (which never implies traces: a
 * /v1/logs endpoint would get spans).
 */
function otelTargets(settings: OtelSettings | undefined): OtelTargets {
  const exporting = (e: OtelExporter | undefined) => e !== undefined && typeof e === "object" ? e : undefined;
  return {
    traces: exporting(settings?.trace_exporter),
    metrics: exporting(settings?.metrics_exporter),
    logs: exporting(settings?.exporter),
  };
}

/** The session's telemetry, or null (and no SDK loaded) when `[otel]` exports nothing. */
export async function openTelemetry(
  settings: OtelSettings | undefined,
  info: TelemetryInfo,
): Promise<Telemetry | null> {
  const targets = otelTargets(settings);
  if (!targets.traces && !targets.metrics && !targets.logs) return null;
  const { startOtel } = await import("./otel_sdk.ts");
  return startOtel(settings ?? {}, targets, info);
}
