/**
 * The OpenTelemetry JS SDK behind `[otel]` (#25 item 4), imported only when an exporter is set.
 * Spans go through a BatchSpanProcessor and metrics through a periodic reader: the turn only records
 * in memory; encoding and sending happen on the SDK's timers, and a collector that refuses or hangs
 * costs the turn nothing. At shutdown the last batch gets a short wait, never more.
 */
import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from "@opentelemetry/sdk-metrics";
import {
  describeError,
  type EventSink,
  type ModelStreamEvent,
  type TrellisEventBody,
  UsageError,
} from "../shared/mod.ts";
import type {
  ModelClient,
  OtelExporter,
  OtelSettings,
  OtelTargets,
  OtelTls,
  Telemetry,
  TelemetryInfo,
} from "./types.ts";
import { Buffer } from "node:buffer";
import { CodexLogEvents } from "./codex_log_events.ts";
import type { LogRecordExporter } from "@opentelemetry/sdk-logs";

/** The most a session's end waits for the last spans and metrics to leave (a hung collector). */
const SHUTDOWN_WAIT_MS = 1_000;
/** One export's cap: a collector slower than this loses that batch, not the session's time. */
const EXPORT_TIMEOUT_MS = 5_000;
/** Codex's default `environment`. */
const DEFAULT_ENVIRONMENT = "dev";

type Http = NonNullable<Exclude<OtelExporter, string>["otlp-http"]>;
type Grpc = NonNullable<Exclude<OtelExporter, string>["otlp-grpc"]>;

/** OTLP/HTTP options: the endpoint, its headers, the cap, and `tls` as the Node agent's PEM options. */
function httpOptions(http: Http, read: ReadPem) {
  const agent = tlsFiles(http.tls, read);
  return {
    url: http.endpoint,
    headers: http.headers ?? {},
    timeoutMillis: EXPORT_TIMEOUT_MS,
    ...(agent ? { httpAgentOptions: agent } : {}),
  };
}

type ReadPem = (path: string) => string;

function tlsFiles(
  tls: OtelTls | undefined,
  read: ReadPem,
): { ca?: string; cert?: string; key?: string } | null {
  if (!tls) return null;
  return {
    ...(tls["ca-certificate"] ? { ca: read(tls["ca-certificate"]) } : {}),
    ...(tls["client-certificate"] ? { cert: read(tls["client-certificate"]) } : {}),
    ...(tls["client-private-key"] ? { key: read(tls["client-private-key"]) } : {}),
  };
}

/** A signal's three OTLP exporter classes, each imported only when that encoding is configured. */
type ExporterClasses<T> = Record<"json" | "binary" | "grpc", () => Promise<new (options: never) => T>>;

const SPAN_EXPORTERS: ExporterClasses<SpanExporter> = {
  json: async () => (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter,
  binary: async () => (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter,
  grpc: async () => (await import("@opentelemetry/exporter-trace-otlp-grpc")).OTLPTraceExporter,
};
const METRIC_EXPORTERS: ExporterClasses<PushMetricExporter> = {
  json: async () => (await import("@opentelemetry/exporter-metrics-otlp-http")).OTLPMetricExporter,
  binary: async () => (await import("@opentelemetry/exporter-metrics-otlp-proto")).OTLPMetricExporter,
  grpc: async () => (await import("@opentelemetry/exporter-metrics-otlp-grpc")).OTLPMetricExporter,
};
const LOG_EXPORTERS: ExporterClasses<LogRecordExporter> = {
  json: async () => (await import("@opentelemetry/exporter-logs-otlp-http")).OTLPLogExporter,
  binary: async () => (await import("@opentelemetry/exporter-logs-otlp-proto")).OTLPLogExporter,
  grpc: async () => (await import("@opentelemetry/exporter-logs-otlp-grpc")).OTLPLogExporter,
};

/** One signal's exporter for `target`: OTLP/HTTP in its `protocol`, or gRPC, with its headers and tls. */
async function otlpExporter<T>(
  target: Exclude<OtelExporter, string>,
  read: ReadPem,
  classes: ExporterClasses<T>,
): Promise<T> {
  const http = target["otlp-http"];
  if (http) {
    const Exporter = await classes[http.protocol]();
    return new Exporter(httpOptions(http, read) as never);
  }
  const grpc: Grpc = target["otlp-grpc"]!;
  const Exporter = await classes.grpc();
  return new Exporter(
    { url: grpc.endpoint, timeoutMillis: EXPORT_TIMEOUT_MS, ...await grpcOptions(grpc, read) } as never,
  );
}

/**
 * gRPC's `headers` as grpc-js Metadata (one entry per header, names lower-cased as gRPC wants) and
 * `tls` as SSL channel credentials (CA, client certificate and key); without `tls` the endpoint's
 * scheme decides, as the exporter's default does.
 */
async function grpcOptions(grpc: Grpc, read: ReadPem): Promise<Record<string, unknown>> {
  const headers = Object.entries(grpc.headers ?? {});
  const tls = tlsFiles(grpc.tls, read);
  if (headers.length === 0 && !tls) return {};
  const { Metadata, credentials } = await import("@grpc/grpc-js");
  const options: Record<string, unknown> = {};
  if (headers.length > 0) {
    const metadata = new Metadata();
    for (const [name, value] of headers) metadata.set(name.toLowerCase(), value);
    options.metadata = metadata;
  }
  if (tls) {
    const pem = (text: string | undefined) => text === undefined ? null : Buffer.from(text);
    options.credentials = credentials.createSsl(pem(tls.ca), pem(tls.key), pem(tls.cert));
  }
  return options;
}

function settle<T>(promise: Promise<T>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise.then(() => {}, () => {}), wait]).finally(() => clearTimeout(timer));
}

export async function startOtel(
  settings: OtelSettings,
  targets: OtelTargets,
  info: TelemetryInfo,
): Promise<Telemetry> {
  // A `tls` file that cannot be read is the user's mistake: one error naming the file and the key.
  const read: ReadPem = (file) => {
    try {
      if (!info.readFile) throw new UsageError("no file system was given");
      return info.readFile(file);
    } catch (error) {
      throw new UsageError(`Cannot read the [otel] tls file ${file}: ${describeError(error)}`, {
        file,
        field: "otel.tls",
      });
    }
  };
  const resource = resourceFromAttributes({
    "service.name": "trellis",
    "service.version": info.serviceVersion,
    env: settings.environment ?? DEFAULT_ENVIRONMENT,
    "deployment.environment.name": settings.environment ?? DEFAULT_ENVIRONMENT,
  });
  const tracerProvider = targets.traces && typeof targets.traces === "object"
    ? new TracerProvider({
      resource,
      spanProcessors: [
        new BatchSpanProcessor({
          exporter: await otlpExporter(targets.traces, read, SPAN_EXPORTERS),
          scheduledDelayMillis: 5_000, // the SDK default: fewer encodes on a busy session
          exportTimeoutMillis: EXPORT_TIMEOUT_MS,
        }),
      ],
    })
    : undefined;
  const meterProvider = targets.metrics && typeof targets.metrics === "object"
    ? new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter: await otlpExporter(targets.metrics, read, METRIC_EXPORTERS),
          exportIntervalMillis: 60_000,
          exportTimeoutMillis: EXPORT_TIMEOUT_MS,
        }),
      ],
    })
    : undefined;
  const loggerProvider = targets.logs && typeof targets.logs === "object"
    ? await (async () => {
      const { LoggerProvider, BatchLogRecordProcessor } = await import("@opentelemetry/sdk-logs");
      return new LoggerProvider({
        resource,
        processors: [
          new BatchLogRecordProcessor({
            exporter: await otlpExporter(targets.logs as Exclude<OtelExporter, string>, read, LOG_EXPORTERS),
            exportTimeoutMillis: EXPORT_TIMEOUT_MS,
          }),
        ],
      });
    })()
    : undefined;
  const logEvents = loggerProvider
    ? new CodexLogEvents(loggerProvider.getLogger("trellis", info.serviceVersion), {
      model: info.model,
      serviceVersion: info.serviceVersion,
      logUserPrompt: settings.log_user_prompt === true,
      terminalType: info.terminalType ?? "unknown",
      setup: {
        ...(info.provider ? { provider: info.provider } : {}),
        ...(info.approvalPolicy ? { approvalPolicy: info.approvalPolicy } : {}),
        ...(info.sandboxMode ? { sandboxMode: info.sandboxMode } : {}),
        ...(info.reasoningEffort ? { reasoningEffort: info.reasoningEffort } : {}),
      },
    })
    : undefined;
  const tracer = tracerProvider?.getTracer("trellis", info.serviceVersion);
  const meter = meterProvider?.getMeter("trellis", info.serviceVersion);
  const tokens = meter?.createCounter("trellis.tokens", { description: "tokens used, by token.type" });
  const errors = meter?.createCounter("trellis.errors", { description: "failures, by error.source" });
  const turnDuration = meter?.createHistogram("trellis.turn.duration", { unit: "ms" });
  const modelDuration = meter?.createHistogram("trellis.model_request.duration", { unit: "ms" });
  const toolDuration = meter?.createHistogram("trellis.tool_call.duration", { unit: "ms" });

  const extra = settings.span_attributes ?? {};
  const start = (name: string, parent: Context, attributes: Record<string, string | number | boolean> = {}) =>
    tracer?.startSpan(name, { kind: SpanKind.INTERNAL, attributes: { ...extra, ...attributes } }, parent);
  const session = start("trellis.session", context.active(), { model: info.model });
  const sessionContext = session ? trace.setSpan(context.active(), session) : context.active();
  let turn: { span: Span | undefined; context: Context; started: number; id: string } | null = null;
  let prompt: string | null = null;
  const open = new Map<string, { span: Span | undefined; started: number; tool?: string }>();
  const parent = () => turn?.context ?? sessionContext;

  const fail = (span: Span | undefined, source: string, message: string) => {
    span?.setStatus({ code: SpanStatusCode.ERROR, message });
    errors?.add(1, { "error.source": source });
  };

  const observe = (event: TrellisEventBody) => {
    switch (event.type) {
      case "thread.started":
        session?.setAttribute("thread.id", event.thread_id);
        return;
      case "turn.started": {
        const attributes: Record<string, string> = { "turn.id": event.turn_id };
        if (settings.log_user_prompt && prompt !== null) attributes["user.prompt"] = prompt;
        const span = start("trellis.turn", sessionContext, attributes);
        turn = {
          span,
          context: span ? trace.setSpan(sessionContext, span) : sessionContext,
          started: performance.now(),
          id: event.turn_id,
        };
        return;
      }
      case "turn.completed":
      case "turn.failed": {
        if (!turn) return;
        const span = turn.span;
        if (event.type === "turn.completed") {
          const u = event.usage;
          span?.setAttributes({
            "usage.input_tokens": u.input_tokens,
            "usage.cached_input_tokens": u.cached_input_tokens,
            "usage.output_tokens": u.output_tokens,
            "usage.reasoning_output_tokens": u.reasoning_output_tokens,
            steps: event.steps,
          });
          tokens?.add(u.input_tokens - u.cached_input_tokens, { "token.type": "input" });
          tokens?.add(u.cached_input_tokens, { "token.type": "cached_input" });
          tokens?.add(u.output_tokens - u.reasoning_output_tokens, { "token.type": "output" });
          tokens?.add(u.reasoning_output_tokens, { "token.type": "reasoning_output" });
        } else fail(span, "turn", event.error.message);
        turnDuration?.record(performance.now() - turn.started, {
          status: event.type === "turn.completed" ? "completed" : "failed",
        });
        span?.end();
        turn = null;
        return;
      }
      case "item.started": {
        const item = event.item as {
          id: string;
          type: string;
          name?: string;
          call_id?: string;
          server?: string;
        };
        if (item.call_id === undefined || open.has(item.id)) return;
        const mcp = item.type === "mcp_tool_call";
        const attributes: Record<string, string> = {
          "tool.name": item.name ?? "",
          "tool.call_id": item.call_id,
        };
        if (mcp && item.server) attributes["mcp.server"] = item.server;
        const span = start(mcp ? "trellis.mcp_call" : "trellis.tool_call", parent(), attributes);
        open.set(item.id, { span, started: performance.now(), tool: item.name ?? "" });
        return;
      }
      case "item.completed": {
        const item = event.item as { id: string; call_status?: string };
        const entry = open.get(item.id);
        if (!entry) return;
        open.delete(item.id);
        const status = item.call_status ?? "completed";
        entry.span?.setAttribute("tool.status", status);
        if (status === "failed") fail(entry.span, "tool", `the call ${status}`);
        toolDuration?.record(performance.now() - entry.started, { "tool.name": entry.tool ?? "", status });
        entry.span?.end();
        return;
      }
      case "hook.started":
        open.set(`hook:${event.run_id}`, {
          span: start("trellis.hook", parent(), { "hook.event": event.event, "hook.source": event.source }),
          started: performance.now(),
        });
        return;
      case "hook.completed": {
        const entry = open.get(`hook:${event.run_id}`);
        if (!entry) return;
        open.delete(`hook:${event.run_id}`);
        entry.span?.setAttribute("hook.status", event.status);
        if (event.status === "failed") fail(entry.span, "hook", "the hook failed");
        entry.span?.end();
        return;
      }
      case "agent.started":
        open.set(`agent:${event.agent_id}`, {
          span: start("trellis.subagent", parent(), {
            "agent.id": event.agent_id,
            "agent.type": event.agent_type,
            "tool.call_id": event.call_id,
          }),
          started: performance.now(),
        });
        return;
      case "agent.completed": {
        const entry = open.get(`agent:${event.agent_id}`);
        if (!entry) return;
        open.delete(`agent:${event.agent_id}`);
        entry.span?.setAttribute("agent.status", event.status);
        if (event.status !== "completed") fail(entry.span, "subagent", `the subagent ${event.status}`);
        entry.span?.end();
        return;
      }
      default:
        return;
    }
  };

  return {
    events: (sink: EventSink): EventSink => (event) => {
      // The consumer first: what a person or program reads never waits on telemetry.
      sink(event);
      try {
        observe(event);
        logEvents?.observe(event);
      } catch (error) {
        info.warn(`OpenTelemetry: ${describeError(error)}`);
      }
    },
    model: (client: ModelClient): ModelClient => ({
      ...client,
      stream: (request, signal) => traced(client.stream(request, signal), request.model),
    }),
    prompt(text) {
      prompt = text;
      logEvents?.prompt(text);
    },
    async shutdown() {
      for (const entry of open.values()) entry.span?.end();
      open.clear();
      turn?.span?.end();
      session?.end();
      await Promise.all([
        tracerProvider ? settle(tracerProvider.shutdown(), SHUTDOWN_WAIT_MS) : undefined,
        meterProvider ? settle(meterProvider.shutdown(), SHUTDOWN_WAIT_MS) : undefined,
        loggerProvider ? settle(loggerProvider.shutdown(), SHUTDOWN_WAIT_MS) : undefined,
      ]);
    },
  };

  async function* traced(stream: AsyncIterable<ModelStreamEvent>, model: string) {
    const span = start("trellis.model_request", parent(), { model });
    const started = performance.now();
    let status = "completed";
    let completed: ModelStreamEvent | undefined;
    let error: string | undefined;
    try {
      for await (const event of stream) {
        if (event.type === "completed") {
          completed = event;
          span?.setAttributes({
            "usage.input_tokens": event.usage.inputTokens,
            "usage.output_tokens": event.usage.outputTokens,
          });
        }
        yield event;
      }
    } catch (thrown) {
      status = "failed";
      error = describeError(thrown);
      fail(span, "model", error);
      throw thrown;
    } finally {
      modelDuration?.record(performance.now() - started, { model, status });
      logEvents?.request(performance.now() - started, {
        ...(error ? { error } : {}),
        ...(completed ? { completed } : {}),
      });
      span?.end();
    }
  }
}
