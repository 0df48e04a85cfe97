/**
 * Issue #22 figure: memory per idle subagent. One `dist/trellis exec` spawns N children in one step
 * (Codex's spawn_agent, each answering at once, then idle: finished, not closed, its thread and
 * transcript kept for send_input/resume); the parent's next request is held by the fixture model
 * for 1.5 s and the process's RSS (/proc/PID/status) is read 1 s into that wait, when every child
 * is idle. The figure is (RSS with 21 children − RSS with 1) ÷ 20, median of 3 runs of each.
 */
import { startFixtureModelServer } from "../fixture_model_server.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const BIN = new URL("../../dist/trellis", import.meta.url).pathname;
const MANY = 21;

async function rssWith(children: number): Promise<number> {
  const ws = await Deno.makeTempDir({ prefix: "trellis-bench-agentmem-ws-" });
  const home = await Deno.makeTempDir({ prefix: "trellis-bench-agentmem-home-" });
  await Deno.mkdir(`${home}/.trellis`);
  let pid = 0;
  let parentRequests = 0;
  let childRequests = 0;
  let sampled: Promise<number> | null = null;
  const fixture = await startFixtureModelServer({
    script: {
      steps: [
        {
          tool_calls: Array.from({ length: children }, (_, i) => ({
            name: "spawn_agent",
            namespace: "multi_agent_v1",
            arguments: { message: `CHILD-${i}: say hi` },
          })),
        },
        { text: "done", delay_ms: 1500 },
      ],
      replies: [{ when_input_contains: "CHILD-", text: "hi" }],
    },
    onRequest: (body) => {
      // A child's thread starts with its task; the parent's with the session's preamble.
      const first = (body as { input?: unknown[] }).input?.[0];
      if (JSON.stringify(first ?? "").includes("CHILD-")) return void childRequests++;
      if (++parentRequests !== 2) return;
      sampled = new Promise((resolve) =>
        setTimeout(() => {
          const status = Deno.readTextFileSync(`/proc/${pid}/status`);
          resolve(Number(/VmRSS:\s+(\d+)/.exec(status)![1]));
        }, 1000)
      );
    },
  });
  try {
    const child = new Deno.Command(BIN, {
      args: [
        "exec",
        "--skip-git-repo-check",
        "-c",
        "model_provider=fixture",
        "-c",
        `model_providers.fixture.base_url=${JSON.stringify(fixture.url)}`,
        "-c",
        'agents.tool_style="codex"',
        "-c",
        `agents.max_threads=${MANY + 4}`,
        "split the work",
      ],
      cwd: ws,
      env: { PATH: Deno.env.get("PATH") ?? "", HOME: home, TRELLIS_SYSTEM_DIR: `${ws}/etc` },
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    }).spawn();
    pid = child.pid;
    const { code, stderr } = await child.output();
    if (code !== 0) throw new Error(`exec exited ${code}: ${new TextDecoder().decode(stderr).slice(-400)}`);
    if (!sampled) throw new Error("the parent's second request never came");
    if (childRequests !== children) {
      throw new Error(`${childRequests} of ${children} children asked the model`);
    }
    return await sampled;
  } finally {
    await fixture.close();
    await Deno.remove(ws, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
}

export async function bench(): Promise<BenchRow[]> {
  const one: number[] = [];
  const many: number[] = [];
  for (let run = 0; run < 3; run++) {
    one.push(await rssWith(1));
    many.push(await rssWith(MANY));
  }
  const perChild = median(many.map((m, i) => (m - one[i]) / (MANY - 1))) / 1024;
  return [
    {
      name: "exec RSS with 1 idle subagent (median of 3)",
      value: median(one) / 1024,
      unit: "MiB",
      target: "reference",
      pass: true,
    },
    {
      name: `exec RSS with ${MANY} idle subagents (median of 3)`,
      value: median(many) / 1024,
      unit: "MiB",
      target: "—",
      pass: true,
    },
    {
      name: "memory per idle subagent: (RSS 21 − RSS 1) ÷ 20 (#22 figure)",
      value: perChild,
      unit: "MiB",
      target: "≤ 5 MiB",
      pass: perChild <= 5,
    },
  ];
}

if (import.meta.main) console.log(await bench());
