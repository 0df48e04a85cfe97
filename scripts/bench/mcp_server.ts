/**
 * #17 figure: a turn through `trellis mcp-server` against the same turn through `exec --json`
 * (dist/trellis, the fixture model's single_read_file script: a read_file call, then the answer).
 *
 * What is compared, and why: a server is started once and then serves turn after turn, so what a
 * client pays per turn is the `trellis` tools/call — a new thread's Session (config, skills, hooks,
 * sandbox, transcript), the turn, the progress and `trellis/event` notifications, the result —
 * measured by the client from request to response against a server already running. `exec` pays
 * for the same Session and turn once per process, so its figure is its whole run. Both exclude the
 * time the fixture server spent answering (it times itself), as core.ts does, and the runs are
 * interleaved so the machine's drift hits both alike. The whole-process variant — spawn the server,
 * initialize, one call, close and wait for the exit — is reported beside it as a reference: it adds
 * what only a one-shot client pays (the MCP SDK's server modules and the handshake).
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startFixtureModelServer } from "../fixture_model_server.ts";
import { median, timed } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const BIN = new URL("../../dist/trellis", import.meta.url).pathname;
const SCRIPT = new URL("../../fixtures/models/single_read_file.yaml", import.meta.url).pathname;
const RUNS = 21;
const TARGET_RATIO = 1.2;

/**
 * A fresh workspace and fixture server for one turn (a script is consumed by one run), under
 * `parent`: the running server's workspace, which a call's cwd must lie inside.
 */
async function withTurn<T>(parent: string, run: (turn: { ws: string; url: string }) => Promise<T>) {
  const root = await Deno.makeTempDir({ prefix: "trellis-bench-mcps-", dir: parent });
  await Deno.mkdir(`${root}/ws`);
  await Deno.writeTextFile(`${root}/ws/notes.md`, "# Notes\n- TODO\n");
  let modelMs = 0;
  const fixture = await startFixtureModelServer({ script: SCRIPT, onServed: (ms) => (modelMs += ms) });
  try {
    const result = await run({ ws: `${root}/ws`, url: fixture.url });
    return { result, modelMs };
  } finally {
    await fixture.close();
    await Deno.remove(root, { recursive: true });
  }
}

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

async function connect(home: string, cwd: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: BIN,
      // Each call names its own fixture server: the bench is the operator and lets calls set providers.
      args: [
        "mcp-server",
        "-c",
        "model_provider=fixture",
        "-c",
        "tool_set=trellis",
        "--allow-config-overrides",
      ],
      cwd,
      env: { PATH: Deno.env.get("PATH") ?? "", HOME: home, TRELLIS_SYSTEM_DIR: `${home}/etc` },
      stderr: "ignore",
    }),
  );
  return client;
}

/** One `trellis` call on a running server: the client's time from request to result. */
async function serverTurn(client: Client, turn: { ws: string; url: string }): Promise<number> {
  const started = performance.now();
  const result = await client.callTool(
    {
      name: "trellis",
      arguments: {
        prompt: "go",
        cwd: turn.ws,
        config: { "model_providers.fixture.base_url": turn.url },
      },
    },
    undefined,
    { onprogress: () => {} },
  );
  const elapsed = performance.now() - started;
  if (result.isError) throw new Error(`trellis failed: ${JSON.stringify(result.content)}`);
  return elapsed;
}

export async function bench(): Promise<BenchRow[]> {
  const home = await Deno.makeTempDir({ prefix: "trellis-bench-mcps-home-" });
  await Deno.mkdir(`${home}/.trellis`, { recursive: true });
  const env = { PATH: Deno.env.get("PATH") ?? "", HOME: home, TRELLIS_SYSTEM_DIR: `${home}/etc` };
  const turns = await Deno.makeTempDir({ prefix: "trellis-bench-mcps-turns-" });
  const client = await connect(home, turns);
  const execOwn: number[] = [];
  const serverOwn: number[] = [];
  const wholeOwn: number[] = [];
  try {
    // The first of each warms the home (sandbox probe, folders) and is not counted.
    for (let i = 0; i <= RUNS; i++) {
      const exec = await withTurn(
        turns,
        ({ ws, url }) =>
          timed([BIN, "exec", "--skip-git-repo-check", "--json", ...fixtureFlags(url), "go"], {
            cwd: ws,
            env,
          }),
      );
      if (exec.result.code !== 0) throw new Error(`exec failed with ${exec.result.code}`);
      const served = await withTurn(turns, (turn) => serverTurn(client, turn));
      const whole = await withTurn(turns, async (turn) => {
        const started = performance.now();
        const once = await connect(home, turn.ws);
        await serverTurn(once, turn);
        await once.close();
        return performance.now() - started;
      });
      if (i === 0) continue;
      execOwn.push(exec.result.wall - exec.modelMs);
      serverOwn.push(served.result - served.modelMs);
      wholeOwn.push(whole.result - whole.modelMs);
    }
  } finally {
    await client.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(turns, { recursive: true });
  }
  const ratio = median(serverOwn.map((s, i) => s / execOwn[i]));
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
        `mcp-server, the same turn as a \`trellis\` call on a running server (stdio), own time (median of ${RUNS})`,
      value: median(serverOwn),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "mcp-server turn ÷ exec --json turn (median of the per-run ratios)",
      value: ratio,
      unit: "×",
      target: `≤ ${TARGET_RATIO}`,
      pass: ratio <= TARGET_RATIO,
    },
    {
      name: "mcp-server as a whole process: spawn, initialize, one `trellis` call, close (own time, median)",
      value: median(wholeOwn),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "mcp-server whole process ÷ exec --json whole run (median of the per-run ratios)",
      value: median(wholeOwn.map((w, i) => w / execOwn[i])),
      unit: "×",
      target: "reference",
      pass: true,
    },
  ];
}
