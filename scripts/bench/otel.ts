/**
 * #25 item 4's figures. (1) With `[otel]` off, `exec` start-up against the same sources with
 * lib/telemetry replaced by a stub that exports nothing and imports nothing (an import map remaps
 * lib/telemetry/mod.ts): what the feature costs a user who never configures it. (2) With `[otel]` on
 * (traces and metrics, OTLP/HTTP protobuf, to a loopback collector), one read_file turn against the
 * same turn with it off, both sessions open in this process, alternated, same fixture scripts; the
 * fixture model and the collector are processes of their own.
 */
import { noTtyApprover, Workspace } from "../../lib/app/mod.ts";
import { type Platform, platform } from "../../lib/platform/mod.ts";
import { startFixtureModelServer } from "../fixture_model_server.ts";
import { firstLine, fixtureProcess } from "./_fixture_process.ts";
import { median, timed } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const START_RUNS = 15;
const TURNS = 120;
const root = new URL("../../", import.meta.url).pathname;

export async function bench(): Promise<BenchRow[]> {
  return [...await startup(), ...await turns()];
}

async function home(dir: string, config: string): Promise<Record<string, string>> {
  await Deno.mkdir(`${dir}/home/.trellis`, { recursive: true, mode: 0o700 });
  await Deno.mkdir(`${dir}/ws/.git`, { recursive: true });
  await Deno.mkdir(`${dir}/etc`, { recursive: true });
  await Deno.writeTextFile(`${dir}/ws/notes.md`, "# Notes\n- TODO\n");
  await Deno.writeTextFile(`${dir}/home/.trellis/config.toml`, config);
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: `${dir}/home`,
    TRELLIS_HOME: `${dir}/home/.trellis`,
    TRELLIS_SYSTEM_DIR: `${dir}/etc`,
    OPENAI_API_KEY: "k",
  };
}

function otelConfig(base: string): string {
  return `[otel]\n[otel.trace_exporter.otlp-http]\nendpoint = "${base}/v1/traces"\nprotocol = "binary"\n` +
    `[otel.metrics_exporter.otlp-http]\nendpoint = "${base}/v1/metrics"\nprotocol = "binary"\n`;
}

async function startup(): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "trellis-bench-otel-start-" });
  // The sources without the feature: every import of lib/telemetry/mod.ts gets a stub.
  const stub = `${dir}/telemetry_stub.ts`;
  await Deno.writeTextFile(stub, "export async function openTelemetry() { return null; }\n");
  const imports = JSON.parse(await Deno.readTextFile(`${root}deno.json`)).imports as Record<string, string>;
  const map = `${dir}/import_map.json`;
  await Deno.writeTextFile(
    map,
    JSON.stringify({ imports: { ...imports, [`file://${root}lib/telemetry/mod.ts`]: `file://${stub}` } }),
  );
  const env = await home(dir, "");
  const fixture = await startFixtureModelServer({
    script: Array.from({ length: 4 * START_RUNS + 8 }, () => ({ text: "ok" })),
  });
  const flags = [
    "exec",
    "--skip-git-repo-check",
    "-c",
    "model_provider=fixture",
    "-c",
    "tool_set=trellis",
    "-c",
    `model_providers.fixture.base_url=${JSON.stringify(fixture.url)}`,
    "hi",
  ];
  const withFeature = [Deno.execPath(), "run", "-A", "--cached-only", `${root}main.ts`, ...flags];
  const without = [
    Deno.execPath(),
    "run",
    "-A",
    "--cached-only",
    `--import-map=${map}`,
    `${root}main.ts`,
    ...flags,
  ];
  const a: number[] = [];
  const b: number[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      await timed(withFeature, { cwd: `${dir}/ws`, env }), await timed(without, { cwd: `${dir}/ws`, env });
    }
    for (let i = 0; i < START_RUNS; i++) {
      const first = i % 2 === 0;
      if (first) a.push(await run(withFeature));
      b.push(await run(without));
      if (!first) a.push(await run(withFeature));
    }
  } finally {
    await fixture.close();
    await Deno.remove(dir, { recursive: true });
  }
  async function run(argv: string[]): Promise<number> {
    const r = await timed(argv, { cwd: `${dir}/ws`, env });
    if (r.code !== 0) throw new Error(`exec exited ${r.code}`);
    return r.wall;
  }
  const ma = median(a);
  const mb = median(b);
  return [
    {
      name: `exec start + one text turn, [otel] off (median of ${START_RUNS})`,
      value: ma,
      unit: "ms",
      target: "report",
      pass: true,
    },
    {
      name: "reference: the same sources with lib/telemetry stubbed out (import map), same run",
      value: mb,
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "start-up, [otel] off ÷ without the feature",
      value: Math.round((ma / mb) * 1000) / 1000,
      unit: "×",
      target: "≤ 1.02",
      pass: ma / mb <= 1.02,
    },
  ];
}

async function turns(): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "trellis-bench-otel-turn-" });
  // The collector in a process of its own, as a real one is: its work is not the session's.
  const collectorFile = `${dir}/collector.ts`;
  await Deno.writeTextFile(
    collectorFile,
    `Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: (a) => console.log(a.port) }, ` +
      `async (req) => { await req.arrayBuffer(); return new Response("{}"); });\n`,
  );
  const collector = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", collectorFile],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const collectorPort = Number(await firstLine(collector, "the OTLP collector"));
  const script = Array.from({ length: TURNS + 4 }, () => [
    { tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }] },
    { text: "Read it." },
  ]).flat();
  const sides = await Promise.all([true, false].map(async (on) => {
    // The model in a process of its own too: its work never runs between the session's.
    const fixture = await fixtureProcess(dir, JSON.stringify({ steps: script }));
    const env = await home(
      `${dir}/${on ? "on" : "off"}`,
      on ? otelConfig(`http://127.0.0.1:${collectorPort}`) : "",
    );
    const local: Platform = { ...platform, env: (n) => env[n], envAll: () => ({ ...env }) };
    const ws = await Workspace.open(local, {
      cwd: `${dir}/${on ? "on" : "off"}/ws`,
      overrides: [
        "model_provider=fixture",
        "tool_set=trellis",
        `model_providers.fixture.base_url=${JSON.stringify(fixture.url)}`,
      ],
    });
    const session = await ws.openSession({ events: () => {}, approver: noTtyApprover });
    return { on, fixture, session, times: [] as number[] };
  }));
  const turn = async (side: (typeof sides)[number]) => {
    const started = performance.now();
    const result = await side.session.runTurn({
      prompt: "read notes",
      maxSteps: 5,
      signal: new AbortController().signal,
    });
    if (result.status !== "completed") throw new Error(`turn ${result.status}`);
    return performance.now() - started;
  };
  try {
    for (const side of sides) for (let i = 0; i < 2; i++) await turn(side); // warm-up
    for (let i = 0; i < TURNS; i++) {
      const order = i % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) side.times.push(await turn(side));
    }
  } finally {
    for (const side of sides) {
      await side.session.close();
      await side.fixture.close();
    }
    collector.kill();
    await collector.status;
    await collector.stdout.cancel().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
  const on = median(sides[0].times);
  const off = median(sides[1].times);
  // Paired as they ran (alternated): the machine drifts by more than the exporter costs.
  const ratio = 1 + median(sides[0].times.map((ms, i) => ms - sides[1].times[i])) / off;
  return [
    {
      name:
        `one read_file turn (2 model requests), [otel] on: traces + metrics, OTLP/HTTP protobuf to loopback (median of ${TURNS})`,
      value: on,
      unit: "ms",
      target: "report",
      pass: true,
    },
    {
      name: "reference: the same turn with [otel] off, same run, alternated",
      value: off,
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "turn, [otel] on ÷ off (1 + the median pair difference ÷ the reference)",
      value: Math.round(ratio * 100) / 100,
      unit: "×",
      target: "≤ 1.1",
      pass: ratio <= 1.1,
    },
  ];
}
