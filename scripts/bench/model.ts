/**
 * Model-client benchmarks: a full streamed request/response round trip against the loopback fixture
 * server for each wire format (the model share of the "200 sequential tool calls" figure), the
 * client's own share of it per wire (round trip minus the server's time: #23's "Anthropic wire ≤
 * Responses + 1 ms"), the same Messages round trip through `@anthropic-ai/sdk`'s own streaming as
 * the reference for building on its transport or not, and raw SSE parsing throughput.
 */
import Anthropic from "@anthropic-ai/sdk";
import {
  createModelClient,
  createSseParser,
  type ResolvedProvider,
  type WireApi,
} from "../../lib/model/mod.ts";
import type { ModelRequest } from "../../lib/shared/mod.ts";
import { startFixtureModelServer } from "../fixture_model_server.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const ROUND_TRIPS = 180;
const WARM_UP = 20;
const ROUND_TRIP_TARGET_MS = 5;
const SSE_TARGET_MB_S = 50;
/** #23: the Messages wire may cost the client at most this much more per request than Responses. */
const MESSAGES_OVERHEAD_ALLOWANCE_MS = 1;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

interface Measured {
  row: BenchRow;
  /** Median of (round trip − the server's time for it): what the client itself spends. */
  overheadMs: number;
}

const SCRIPT = new URL("../../fixtures/models/sequential_read_200.yaml", import.meta.url);

async function roundTrip(wireApi: WireApi): Promise<Measured> {
  const served: number[] = [];
  const server = await startFixtureModelServer({ script: SCRIPT, onServed: (ms) => served.push(ms) });
  const provider: ResolvedProvider = {
    id: "fixture",
    name: "Fixture",
    baseUrl: server.url,
    wireApi,
    headers: {},
    queryParams: {},
  };
  const client = createModelClient(provider);
  const request: ModelRequest = {
    model: "fixture",
    instructions: "bench",
    input: [{ type: "message", role: "user", content: "read notes.md 200 times" }],
    tools: [{ name: "read_file", description: "Reads a file", parameters: { type: "object" } }],
    parallelToolCalls: true,
  };
  const times: number[] = [];
  const overheads: number[] = [];
  try {
    // The first requests pay for JIT warm-up and the connection; they are not the steady state.
    for (let i = -WARM_UP; i < ROUND_TRIPS; i++) {
      const before = served.length;
      const start = performance.now();
      for await (const _event of client.stream(request, new AbortController().signal)) { /* drain */ }
      const ms = performance.now() - start;
      if (i >= 0) {
        times.push(ms);
        overheads.push(ms - served.slice(before).reduce((a, b) => a + b, 0));
      }
    }
  } finally {
    await server.close();
  }
  const value = Number(median(times).toFixed(3));
  return {
    row: {
      name: `model: streamed ${wireApi} round trip to the loopback fixture server (median of ${ROUND_TRIPS})`,
      value,
      unit: "ms",
      target: `≤ ${ROUND_TRIP_TARGET_MS} ms`,
      pass: value <= ROUND_TRIP_TARGET_MS,
    },
    overheadMs: median(overheads),
  };
}

/** The same Messages round trip through the SDK's own request and stream (its retries off). */
async function sdkRoundTrip(): Promise<Measured> {
  const served: number[] = [];
  const server = await startFixtureModelServer({ script: SCRIPT, onServed: (ms) => served.push(ms) });
  const client = new Anthropic({
    apiKey: null,
    authToken: null,
    baseURL: server.url.replace(/\/v1$/, ""),
    maxRetries: 0,
    defaultHeaders: { "x-api-key": "bench" },
  });
  const body = {
    model: "fixture",
    max_tokens: 32_000,
    system: [{ type: "text" as const, text: "bench" }],
    messages: [{ role: "user" as const, content: "read notes.md 200 times" }],
    tools: [{ name: "read_file", description: "Reads a file", input_schema: { type: "object" as const } }],
    stream: true as const,
  };
  const times: number[] = [];
  const overheads: number[] = [];
  try {
    for (let i = -WARM_UP; i < ROUND_TRIPS; i++) {
      const before = served.length;
      const start = performance.now();
      const stream = await client.messages.create(body);
      for await (const _event of stream) { /* drain */ }
      const ms = performance.now() - start;
      if (i >= 0) {
        times.push(ms);
        overheads.push(ms - served.slice(before).reduce((a, b) => a + b, 0));
      }
    }
  } finally {
    await server.close();
  }
  const value = Number(median(times).toFixed(3));
  return {
    row: {
      name:
        `model: the same messages round trip through @anthropic-ai/sdk's own stream (median of ${ROUND_TRIPS})`,
      value,
      unit: "ms",
      target: "reference",
      pass: true,
    },
    overheadMs: median(overheads),
  };
}

function overheadRow(wire: string, measured: Measured): BenchRow {
  return {
    name: `model: client overhead per request, ${wire} (round trip − server time, median)`,
    value: Number(measured.overheadMs.toFixed(3)),
    unit: "ms",
    target: "reference",
    pass: true,
  };
}

function sseThroughput(): BenchRow {
  const event = `event: response.output_text.delta\ndata: ${
    JSON.stringify({ type: "response.output_text.delta", delta: "word ".repeat(8) })
  }\n\n`;
  const text = event.repeat(20_000);
  const chunks = text.match(/[\s\S]{1,1400}/g) ?? [];
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const parser = createSseParser();
    const start = performance.now();
    let count = 0;
    for (const chunk of chunks) count += parser.push(chunk).length;
    count += parser.end().length;
    if (count !== 20_000) throw new Error(`SSE bench parsed ${count} events`);
    runs.push(performance.now() - start);
  }
  const value = Number((text.length / 1e6 / (median(runs) / 1000)).toFixed(1));
  return {
    name: "model: SSE parsing throughput (1400-byte chunks)",
    value,
    unit: "MB/s",
    target: `≥ ${SSE_TARGET_MB_S} MB/s`,
    pass: value >= SSE_TARGET_MB_S,
  };
}

export async function bench(): Promise<BenchRow[]> {
  const chat = await roundTrip("chat");
  const responses = await roundTrip("responses");
  const messages = await roundTrip("messages");
  const sdk = await sdkRoundTrip();
  const extra = Number((messages.overheadMs - responses.overheadMs).toFixed(3));
  return [
    chat.row,
    responses.row,
    messages.row,
    sdk.row,
    overheadRow("responses", responses),
    overheadRow("messages", messages),
    overheadRow("messages through the SDK's stream", sdk),
    {
      name: "model: messages client overhead − responses client overhead (#23)",
      value: extra,
      unit: "ms",
      target: `≤ ${MESSAGES_OVERHEAD_ALLOWANCE_MS} ms`,
      pass: extra <= MESSAGES_OVERHEAD_ALLOWANCE_MS,
    },
    sseThroughput(),
  ];
}

if (import.meta.main) console.table(await bench());
