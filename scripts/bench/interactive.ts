/**
 * The interactive mode's figures (issue #15), each a ratio measured in one run against the fixture
 * model server, with dist/trellis on a real pseudo-terminal (util-linux `script`):
 *
 * - start-up: `trellis` until its first frame shows the idle prompt, against `trellis exec --json`
 *   until its first model request arrives, same config, same home, alternating runs;
 * - keystroke to echo while an answer streams: measured inside the process (opt-in
 *   TRELLIS_KEY_LATENCY_LOG: from the read that brought the key to the completion of the write of
 *   the frame that echoes it), 200 keys typed 20 ms apart;
 * - a 1 MB markdown answer streamed and rendered: the process's CPU time (user + system, from
 *   /usr/bin/time) against the same answer written raw (TRELLIS_RENDER_RAW=1: the same lines,
 *   terminal-safe, not rendered).
 *
 * `deno run -A scripts/bench/interactive.ts cpu` runs the last figure alone; BENCH_BUN_OPTIONS (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/p`) is handed to the binary as BUN_OPTIONS, to profile it.
 */
import { startFixtureModelServer } from "../fixture_model_server.ts";
import { median } from "./_timing.ts";
import { IDLE, Pty } from "./_pty.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const BIN = new URL("../../dist/trellis", import.meta.url).pathname;

async function workspace() {
  const root = await Deno.makeTempDir({ prefix: "trellis-bench-tui-" });
  await Deno.mkdir(`${root}/home/.trellis`, { recursive: true });
  await Deno.mkdir(`${root}/ws`);
  await Deno.mkdir(`${root}/etc`);
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: `${root}/home`,
    TRELLIS_HOME: `${root}/home/.trellis`,
    TRELLIS_SYSTEM_DIR: `${root}/etc`,
  };
  return { root, cwd: `${root}/ws`, env };
}

const flags = (
  url: string,
) => [
  "-c",
  "model_provider=fixture",
  "-c",
  `model_providers.fixture.base_url=${JSON.stringify(url)}`,
  "-m",
  "fixture-model",
];

async function startup(runs: number) {
  const w = await workspace();
  const exec: number[] = [];
  const tui: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const server = await startFixtureModelServer({ script: [{ text: "ok" }] });
    try {
      const pty = new Pty([BIN, "exec", "--skip-git-repo-check", "--json", ...flags(server.url), "go"], w);
      let first = NaN;
      while (server.requests.length === 0) {
        await new Promise((r) => setTimeout(r, 1));
        first = performance.now() - pty.started;
        if (first > 60_000) throw new Error("exec sent no model request within a minute");
      }
      await pty.close();
      const interactive = new Pty([BIN, ...flags(server.url)], w);
      const idle = await interactive.waitFor(IDLE);
      await interactive.write("\x04");
      await interactive.close();
      if (i === 0) continue; // the first pair meets a fresh home (sandbox probe, folders)
      exec.push(first);
      tui.push(idle);
      ratios.push(idle / first);
    } finally {
      await server.close();
    }
  }
  await Deno.remove(w.root, { recursive: true });
  return { exec: median(exec), tui: median(tui), ratio: median(ratios) };
}

async function keystrokes(keys: number) {
  const w = await workspace();
  const log = `${w.root}/latency.log`;
  const words = Array.from({ length: 6000 }, (_, i) => (i % 12 === 11 ? `w${i}\n\n` : `**w${i}**`)).join(" ");
  const server = await startFixtureModelServer({ script: [{ text: words, event_delay_ms: 1 }] });
  try {
    const pty = new Pty([BIN, ...flags(server.url)], {
      cwd: w.cwd,
      env: { ...w.env, TRELLIS_KEY_LATENCY_LOG: log },
    });
    await pty.waitFor(IDLE);
    await pty.write("stream\r");
    await pty.waitFor(/w30/);
    for (let i = 0; i < keys; i++) {
      await pty.write(String.fromCharCode(97 + (i % 26)));
      await new Promise((r) => setTimeout(r, 20));
    }
    await pty.write("\x15\x04"); // Ctrl-U clears the prompt, Ctrl-D quits (the turn is aborted)
    await pty.close();
    const samples = (await Deno.readTextFile(log)).trim().split("\n").map(Number).filter(Number.isFinite);
    samples.sort((a, b) => a - b);
    return {
      p99: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))],
      p50: median(samples),
      n: samples.length,
    };
  } finally {
    await server.close();
    await Deno.remove(w.root, { recursive: true });
  }
}

export function markdownMegabyte(): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 1; size < 1_000_000; i++) {
    const part =
      `## Section ${i}\n\nThis is **bold** and *emphasis* and \`code\` in a paragraph that goes on to wrap across ` +
      `the terminal, with [a link](https://example.com/${i}).\n\n- item one with \`x\`\n- item two\n  - nested\n1. first\n` +
      `2. second\n\n\`\`\`ts\nfunction f${i}(a: number): string {\n  // comment\n  return String(a * ${i});\n}\n\`\`\`\n\n` +
      `> a quote ${i}\n\n`;
    parts.push(part);
    size += part.length;
  }
  return parts.join("");
}

export async function renderCpu(raw: boolean, text: string): Promise<number> {
  const w = await workspace();
  const times = `${w.root}/time.txt`;
  const server = await startFixtureModelServer({ script: [{ text }] });
  try {
    const env = {
      ...w.env,
      ...(raw ? { TRELLIS_RENDER_RAW: "1" } : {}),
      ...(Deno.env.get("BENCH_BUN_OPTIONS") ? { BUN_OPTIONS: Deno.env.get("BENCH_BUN_OPTIONS")! } : {}),
    };
    const pty = new Pty(["/usr/bin/time", "-f", "%U %S", "-o", times, BIN, ...flags(server.url)], {
      cwd: w.cwd,
      env,
    });
    await pty.waitFor(IDLE);
    await pty.write("go\r");
    await pty.waitFor(/─ \d+s · [\d,]+ in/, 300_000);
    await pty.write("\x04");
    await pty.close();
    const [user, system] = (await Deno.readTextFile(times)).trim().split("\n").at(-1)!.split(" ").map(Number);
    return (user + system) * 1000;
  } finally {
    await server.close();
    await Deno.remove(w.root, { recursive: true });
  }
}

export async function bench(): Promise<BenchRow[]> {
  const start = await startup(15);
  const keys = await keystrokes(200);
  const text = markdownMegabyte();
  const rendered: number[] = [];
  const raw: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < 5; i++) {
    raw.push(await renderCpu(true, text));
    rendered.push(await renderCpu(false, text));
    ratios.push(rendered[i] / raw[i]);
  }
  const cpuRatio = median(ratios);
  return [
    {
      name: "start-up: `trellis exec --json` to its first model request, on a pty (median of 15)",
      value: start.exec,
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "start-up: `trellis` to the idle prompt's first frame, same config (median of 15)",
      value: start.tui,
      unit: "ms",
      target: "info",
      pass: true,
    },
    {
      name: "start-up: idle prompt ÷ exec's first request (median of the per-pair ratios)",
      value: start.ratio,
      unit: "x",
      target: "≤ 1.3x",
      pass: start.ratio <= 1.3,
    },
    {
      name: `keystroke to echo while an answer streams, p50 (in-process, ${keys.n} keys)`,
      value: keys.p50,
      unit: "ms",
      target: "info",
      pass: true,
    },
    {
      name: `keystroke to echo while an answer streams, p99 (in-process, ${keys.n} keys)`,
      value: keys.p99,
      unit: "ms",
      target: "≤ 16 ms",
      pass: keys.p99 <= 16,
    },
    {
      name: "1 MB markdown answer written raw: process CPU time (median of 5)",
      value: median(raw),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "1 MB markdown answer streamed and rendered: process CPU time (median of 5)",
      value: median(rendered),
      unit: "ms",
      target: "info",
      pass: true,
    },
    {
      name: "1 MB markdown answer: rendered ÷ raw CPU time (median of the per-pair ratios)",
      value: cpuRatio,
      unit: "x",
      target: "≤ 2x",
      pass: cpuRatio <= 2,
    },
  ];
}

if (import.meta.main) {
  // `deno run -A scripts/bench/interactive.ts cpu`: only the rendering figure, three pairs.
  if (Deno.args[0] === "cpu") {
    const text = markdownMegabyte();
    for (let i = 0; i < 3; i++) {
      console.log("raw", await renderCpu(true, text), "rendered", await renderCpu(false, text));
    }
  } else console.log(await bench());
}
