/**
 * Issue 21 item 20: the RSS of one `dist/trellis exec` through 300 tool steps (each a read_file of
 * the same ~24 KB file, so every request carries all the outputs before it), sampled from
 * /proc/PID/status as the fixture model receives the requests of steps 10, 100, 200 and 300. The
 * figure is the growth per step from step 100 to 300, median of 3 runs.
 */
import { startFixtureModelServer } from "../fixture_model_server.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const BIN = new URL("../../dist/trellis", import.meta.url).pathname;
const STEPS = 300;
const SAMPLES = [10, 100, 200, 300];

let lastBodyKiB = 0;

async function oneRun(): Promise<Record<number, number>> {
  const ws = await Deno.makeTempDir({ prefix: "trellis-bench-mem-ws-" });
  const home = await Deno.makeTempDir({ prefix: "trellis-bench-mem-home-" });
  await Deno.mkdir(`${home}/.trellis`);
  await Deno.writeTextFile(
    `${ws}/notes.md`,
    Array.from({ length: 400 }, (_, i) => `line ${i} ${"lorem ipsum ".repeat(4)}`).join("\n"),
  );
  let pid = 0;
  let requests = 0;
  const rss: Record<number, number> = {};
  const fixture = await startFixtureModelServer({
    script: {
      steps: [{ tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }], repeat: STEPS }, {
        text: "done",
      }],
    },
    onRequest: (body) => {
      const step = requests++;
      if (step === STEPS) lastBodyKiB = JSON.stringify(body).length / 1024;
      if (SAMPLES.includes(step)) {
        const status = Deno.readTextFileSync(`/proc/${pid}/status`);
        rss[step] = Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
      }
    },
  });
  try {
    const child = new Deno.Command(BIN, {
      args: [
        "exec",
        "--skip-git-repo-check",
        "--json",
        "--max-steps",
        String(STEPS + 10),
        "-c",
        "model_provider=fixture",
        "-c",
        "tool_set=trellis",
        "-c",
        `model_providers.fixture.base_url=${JSON.stringify(fixture.url)}`,
        // A window no step reaches: nothing is compacted or elided, every output is sent whole.
        "-c",
        "model_context_window=100000000",
        "read notes.md again and again",
      ],
      cwd: ws,
      env: { PATH: Deno.env.get("PATH") ?? "", HOME: home, TRELLIS_SYSTEM_DIR: `${ws}/etc` },
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).spawn();
    pid = child.pid;
    const { code } = await child.status;
    if (code !== 0) throw new Error(`exec exited ${code}`);
    return rss;
  } finally {
    await fixture.close();
    await Deno.remove(ws, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
}

export async function bench(): Promise<BenchRow[]> {
  const runs = [await oneRun(), await oneRun(), await oneRun()];
  const at = (step: number) => median(runs.map((r) => r[step])) / 1024;
  const perStep = median(runs.map((r) => (r[300] - r[100]) / 200));
  return [
    ...SAMPLES.map((step) => ({
      name: `exec, ${STEPS} read_file steps (~24 KB output each): RSS at step ${step} (median of 3)`,
      value: at(step),
      unit: "MiB",
      target: "info",
      pass: true,
    })),
    {
      name:
        `the request of step ${STEPS}: what must be sent, all outputs whole (its growth per step is the floor of what a step keeps)`,
      value: lastBodyKiB,
      unit: "KiB",
      target: "info",
      pass: true,
    },
    {
      name: "RSS growth per step, step 100 to 300 (median of the per-run figures)",
      value: perStep,
      unit: "KiB",
      target: "≤ 30",
      pass: perStep <= 30,
    },
  ];
}
