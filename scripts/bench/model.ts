/**
 * Model-client benchmarks: a full streamed request/response round trip against the loopback fixture
 * server for each wire format (the model share of the "200 sequential tool calls" figure), and raw
 * SSE parsing throughput.
 */
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function roundTrip(wireApi: WireApi): Promise<BenchRow> {
  const script = new URL("../../fixtures/models/sequential_read_200.yaml", import.meta.url);
  const server = await startFixtureModelServer({ script });
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
  try {
    // The first requests pay for JIT warm-up and the connection; they are not the steady state.
    for (let i = -WARM_UP; i < ROUND_TRIPS; i++) {
      const start = performance.now();
      for await (const _event of client.stream(request, new AbortController().signal)) { /* drain */ }
      if (i >= 0) times.push(performance.now() - start);
    }
  } finally {
    await server.close();
  }
  const value = Number(median(times).toFixed(3));
  return {
    name: `model: streamed ${wireApi} round trip to the loopback fixture server (median of ${ROUND_TRIPS})`,
    value,
    unit: "ms",
    target: `≤ ${ROUND_TRIP_TARGET_MS} ms`,
    pass: value <= ROUND_TRIP_TARGET_MS,
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
  return [await roundTrip("chat"), await roundTrip("responses"), sseThroughput()];
}

if (import.meta.main) console.table(await bench());
