/**
 * #25 figure: a prompt turn through `trellis acp` against the same turn through `exec --json`
 * (dist/trellis, the fixture model playing a read_file call, then the answer).
 *
 * What is compared, and why: an editor starts the agent once and then opens sessions and sends
 * prompts, so what it pays per turn is `session/new` (a Session: config, skills, hooks, sandbox,
 * transcript) and `session/prompt` (the turn, every `session/update`, the response) against an
 * agent already running, measured by the client from request to response. `exec` pays for the same
 * Session and turn once per process, so its figure is its whole run. Both exclude the time the
 * fixture server spent answering (it times itself), and the runs are interleaved so the machine's
 * drift hits both alike. The whole-process variant (spawn, initialize, one session and prompt,
 * close, exit) is reported beside it as a reference.
 */
import * as acp from "@agentclientprotocol/sdk";
import { startFixtureModelServer } from "../fixture_model_server.ts";
import { median, timed } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const BIN = new URL("../../dist/trellis", import.meta.url).pathname;
const RUNS = 21;
const TARGET_RATIO = 1.1;
const TURN = [
  { tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }] },
  { text: "notes.md has one TODO." },
];

function fixtureFlags(url: string): string[] {
  // Trellis's own tool names, as the script calls them (auto would give the default gpt-5 Codex's).
  return [
    "-c",
    "model_provider=fixture",
    "-c",
    "tool_set=trellis",
    "-c",
    `model_providers.fixture.base_url=${JSON.stringify(url)}`,
  ];
}

async function workspace(parent: string): Promise<string> {
  const ws = await Deno.makeTempDir({ prefix: "ws-", dir: parent });
  await Deno.writeTextFile(`${ws}/notes.md`, "# Notes\n- TODO\n");
  return ws;
}

interface Agent {
  agent: acp.ClientContext;
  close(): Promise<void>;
}

async function startAgent(url: string, cwd: string, env: Record<string, string>): Promise<Agent> {
  const child = new Deno.Command(BIN, {
    args: ["acp", ...fixtureFlags(url)],
    cwd,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const connection = acp.client({ name: "bench" })
    .onNotification("session/update", () => {})
    .onRequest("session/request_permission", ({ params }) => ({
      outcome: { outcome: "selected", optionId: params.options[0].optionId },
    }))
    .connect(acp.ndJsonStream(child.stdin, child.stdout));
  await connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  return {
    agent: connection.agent,
    async close() {
      connection.close();
      await child.stdin.close().catch(() => {});
      await child.status;
    },
  };
}

/** session/new and one session/prompt on a running agent: the client's time from request to response. */
async function agentTurn(agent: acp.ClientContext, cwd: string): Promise<number> {
  const started = performance.now();
  const { sessionId } = await agent.request("session/new", { cwd, mcpServers: [] });
  const response = await agent.request("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "go" }],
  });
  const elapsed = performance.now() - started;
  if (response.stopReason !== "end_turn") throw new Error(`acp turn ended ${response.stopReason}`);
  await agent.request("session/close", { sessionId });
  return elapsed;
}

export async function bench(): Promise<BenchRow[]> {
  const home = await Deno.makeTempDir({ prefix: "trellis-bench-acp-home-" });
  await Deno.mkdir(`${home}/.trellis`, { recursive: true });
  const env = { PATH: Deno.env.get("PATH") ?? "", HOME: home, TRELLIS_SYSTEM_DIR: `${home}/etc` };
  const turns = await Deno.makeTempDir({ prefix: "trellis-bench-acp-turns-" });
  // One fixture server plays every turn of the running agent, in order.
  let agentModelMs = 0;
  const agentModel = await startFixtureModelServer({
    script: { steps: Array.from({ length: RUNS + 1 }, () => TURN).flat() },
    onServed: (ms) => (agentModelMs += ms),
  });
  const running = await startAgent(agentModel.url, turns, env);
  const execOwn: number[] = [];
  const agentOwn: number[] = [];
  const wholeOwn: number[] = [];
  try {
    // The first of each warms the home (sandbox probe, folders) and is not counted.
    for (let i = 0; i <= RUNS; i++) {
      let execModelMs = 0;
      const execModel = await startFixtureModelServer({
        script: { steps: TURN },
        onServed: (ms) => (execModelMs += ms),
      });
      const ws = await workspace(turns);
      const exec = await timed(
        [BIN, "exec", "--skip-git-repo-check", "--json", ...fixtureFlags(execModel.url), "go"],
        { cwd: ws, env },
      );
      await execModel.close();
      if (exec.code !== 0) throw new Error(`exec failed with ${exec.code}`);
      const before = agentModelMs;
      const served = await agentTurn(running.agent, await workspace(turns));
      const servedModelMs = agentModelMs - before;
      let wholeModelMs = 0;
      const wholeModel = await startFixtureModelServer({
        script: { steps: TURN },
        onServed: (ms) => (wholeModelMs += ms),
      });
      const wholeWs = await workspace(turns);
      const started = performance.now();
      const once = await startAgent(wholeModel.url, wholeWs, env);
      await agentTurn(once.agent, wholeWs);
      await once.close();
      const whole = performance.now() - started;
      await wholeModel.close();
      if (i === 0) continue;
      execOwn.push(exec.wall - execModelMs);
      agentOwn.push(served - servedModelMs);
      wholeOwn.push(whole - wholeModelMs);
    }
  } finally {
    await running.close();
    await agentModel.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(turns, { recursive: true });
  }
  const ratio = median(agentOwn.map((s, i) => s / execOwn[i]));
  return [
    {
      name: `exec --json, one read_file turn: whole run, Trellis's own time (median of ${RUNS})`,
      value: median(execOwn),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name:
        `acp, the same turn as session/new + session/prompt on a running agent, own time (median of ${RUNS})`,
      value: median(agentOwn),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "acp prompt turn ÷ exec --json turn (median of the per-run ratios)",
      value: ratio,
      unit: "×",
      target: `≤ ${TARGET_RATIO}`,
      pass: ratio <= TARGET_RATIO,
    },
    {
      name: "acp as a whole process: spawn, initialize, one session and prompt, close (own time, median)",
      value: median(wholeOwn),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "acp whole process ÷ exec --json whole run (median of the per-run ratios)",
      value: median(wholeOwn.map((w, i) => w / execOwn[i])),
      unit: "×",
      target: "reference",
      pass: true,
    },
  ];
}
