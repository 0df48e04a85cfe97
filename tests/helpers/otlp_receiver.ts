/**
 * A loopback OTLP/HTTP receiver for the `[otel]` tests (#25 item 4): it keeps every request and
 * decodes what arrived — OTLP JSON, or OTLP protobuf read field by field off the wire format (the
 * field numbers of opentelemetry-proto's trace.proto and metrics.proto), so a test sees span names,
 * parents, attributes and metric names whichever `protocol` was configured.
 */
export interface ReceivedSpan {
  name: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, string | number | boolean>;
}

export interface OtlpReceiver {
  url: string;
  requests: { path: string; contentType: string; headers: Headers; body: Uint8Array }[];
  spans(): ReceivedSpan[];
  metricNames(): string[];
  /** OTLP JSON log records (`protocol = "json"`): each record's event name and attributes. */
  logRecords(): { eventName: string; attributes: Record<string, string | number | boolean> }[];
  resourceAttributes(): Record<string, string | number | boolean>;
  close(): Promise<void>;
}

export function startOtlpReceiver(options: { hang?: boolean } = {}): OtlpReceiver {
  const requests: OtlpReceiver["requests"] = [];
  const hanging: (() => void)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const body = new Uint8Array(await request.arrayBuffer());
    requests.push({
      path: new URL(request.url).pathname,
      contentType: request.headers.get("content-type") ?? "",
      headers: request.headers,
      body,
    });
    if (options.hang) await new Promise<void>((resolve) => hanging.push(resolve));
    return new Response("{}", { headers: { "content-type": "application/json" } });
  });
  const decoded = () => requests.map((r) => ({ ...r, data: decode(r) }));
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    spans: () =>
      decoded().filter((r) => r.path === "/v1/traces").flatMap((r) =>
        (r.data.resourceSpans ?? []).flatMap((rs: any) =>
          (rs.scopeSpans ?? []).flatMap((ss: any) => (ss.spans ?? []).map(toSpan))
        )
      ),
    metricNames: () =>
      decoded().filter((r) => r.path === "/v1/metrics").flatMap((r) =>
        (r.data.resourceMetrics ?? []).flatMap((rm: any) =>
          (rm.scopeMetrics ?? []).flatMap((sm: any) => (sm.metrics ?? []).map((m: any) => m.name))
        )
      ),
    logRecords: () =>
      decoded().filter((r) => r.path === "/v1/logs").flatMap((r) =>
        (r.data.resourceLogs ?? []).flatMap((rl: any) =>
          (rl.scopeLogs ?? []).flatMap((sl: any) =>
            (sl.logRecords ?? []).map((lr: any) => ({
              eventName: lr.eventName ?? "",
              attributes: attributesOf(lr.attributes ?? []),
            }))
          )
        )
      ),
    resourceAttributes: () => {
      const first = decoded().find((r) => r.path === "/v1/traces");
      return attributesOf(first?.data.resourceSpans?.[0]?.resource?.attributes ?? []);
    },
    async close() {
      for (const release of hanging) release();
      await server.shutdown();
    },
  };
}

function toSpan(span: any): ReceivedSpan {
  return {
    name: span.name,
    spanId: span.spanId ?? "",
    parentSpanId: span.parentSpanId ?? "",
    attributes: attributesOf(span.attributes ?? []),
  };
}

function attributesOf(list: any[]): Record<string, string | number | boolean> {
  return Object.fromEntries(list.map((kv) => {
    const v = kv.value ?? {};
    return [
      kv.key,
      v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.boolValue ?? v.doubleValue),
    ];
  }));
}

function decode(request: { contentType: string; path: string; body: Uint8Array }): any {
  if (request.contentType.includes("json")) return JSON.parse(new TextDecoder().decode(request.body));
  return request.path === "/v1/traces" ? traceRequest(request.body) : metricsRequest(request.body);
}

// --- protobuf wire format: just what OTLP's trace and metrics requests need ---

type Field = { no: number; wire: number; value: bigint | Uint8Array };

function fields(bytes: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = () => {
    let result = 0n;
    let shift = 0n;
    while (true) {
      const b = bytes[at++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, value: varint() });
    else if (wire === 2) {
      const length = Number(varint());
      out.push({ no, wire, value: bytes.subarray(at, at + length) });
      at += length;
    } else if (wire === 1) {
      out.push({ no, wire, value: bytes.subarray(at, at + 8) });
      at += 8;
    } else if (wire === 5) {
      out.push({ no, wire, value: bytes.subarray(at, at + 4) });
      at += 4;
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
  return out;
}

const text = (v: Field["value"]) => new TextDecoder().decode(v as Uint8Array);
const hex = (v: Field["value"]) =>
  [...(v as Uint8Array)].map((b) => b.toString(16).padStart(2, "0")).join("");
const all = (bytes: Uint8Array, no: number) => fields(bytes).filter((f) => f.no === no).map((f) => f.value);

function keyValue(bytes: Uint8Array): { key: string; value: Record<string, unknown> } {
  const fs = fields(bytes);
  const key = text(fs.find((f) => f.no === 1)!.value);
  const any = fs.find((f) => f.no === 2)?.value as Uint8Array | undefined;
  const value: Record<string, unknown> = {};
  for (const f of any ? fields(any) : []) {
    if (f.no === 1) value.stringValue = text(f.value);
    if (f.no === 2) value.boolValue = f.value === 1n;
    if (f.no === 3) value.intValue = Number(f.value as bigint);
    if (f.no === 4) {
      value.doubleValue = new DataView((f.value as Uint8Array).slice().buffer).getFloat64(0, true);
    }
  }
  return { key, value };
}

function resource(bytes: Uint8Array) {
  return { attributes: all(bytes, 1).map((kv) => keyValue(kv as Uint8Array)) };
}

function traceRequest(bytes: Uint8Array) {
  return {
    resourceSpans: all(bytes, 1).map((rs) => ({
      resource: resource((all(rs as Uint8Array, 1)[0] as Uint8Array) ?? new Uint8Array()),
      scopeSpans: all(rs as Uint8Array, 2).map((ss) => ({
        spans: all(ss as Uint8Array, 2).map((span) => {
          const fs = fields(span as Uint8Array);
          const one = (no: number) => fs.find((f) => f.no === no)?.value;
          return {
            spanId: one(2) ? hex(one(2)!) : "",
            parentSpanId: one(4) ? hex(one(4)!) : "",
            name: one(5) ? text(one(5)!) : "",
            attributes: fs.filter((f) => f.no === 9).map((f) => keyValue(f.value as Uint8Array)),
          };
        }),
      })),
    })),
  };
}

function metricsRequest(bytes: Uint8Array) {
  return {
    resourceMetrics: all(bytes, 1).map((rm) => ({
      scopeMetrics: all(rm as Uint8Array, 2).map((sm) => ({
        metrics: all(sm as Uint8Array, 2).map((m) => ({ name: text(all(m as Uint8Array, 1)[0]) })),
      })),
    })),
  };
}
