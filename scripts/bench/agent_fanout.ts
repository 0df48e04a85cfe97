/**
 * Subagent fan-out and spawn overhead (#22 figures), against the fixture model, in one run:
 * - 4 subagents spawned in one step, each spending ~1 s in one shell call and then answering:
 *   from the spawning step to the parent's request holding every answer, ÷ the same for one
 *   subagent (≤ 1.3×; Claude Code measured 1.12–1.32× on this shape).
 * - Spawn overhead: a turn whose one Agent call's child answers at once, minus a turn of the same
 *   number of model requests whose calls are plain read_file calls (≤ 10 ms).
 */
import * as path from "node:path";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../fixture_model_server.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const fs = platform.fs;
const agentCall = (i: number) => ({
  name: "Agent",
  arguments: { subagent_type: "general-purpose", description: `child ${i}`, prompt: `CHILD-${i} go` },
});

/** Opens a session on `script` in a fresh home, runs one turn, returns its wall time. */
async function turnMs(tmp: string, script: FixtureScript): Promise<number> {
  const root = path.join(tmp, crypto.randomUUID().slice(0, 8));
  const env: Record<string, string> = {
    HOME: root,
    TRELLIS_HOME: path.join(root, ".trellis"),
    TRELLIS_SYSTEM_DIR: path.join(root, "etc"),
  };
  const cwd = path.join(root, "ws");
  await fs.mkdir(path.join(cwd, ".git"));
  await fs.writeTextFile(path.join(cwd, "a.md"), "A\n");
  const server = await startFixtureModelServer({ script });
  try {
    const loaded = await loadConfig(fs, {
      cwd,
      env: (n) => env[n],
      overrides: [
        "model_provider=fixture",
        "tool_set=trellis",
        `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
        "skills.bundled.enabled=false",
        'agents.tool_style="claude"',
        "approval_policy=never",
        'sandbox_mode="danger-full-access"',
      ],
    });
    // The children's shells get this home too: a login shell reads the host's ~/.profile otherwise
    // (on the CI machine a pyenv init, ~190 ms a shell), which measures the host, not Trellis.
    const childEnv = { ...platform.envAll(), ...env };
    const homed = { ...platform, envAll: () => childEnv, env: (n: string) => childEnv[n] };
    const session = await Session.open({
      platform: homed,
      loaded,
      events: () => {},
      approver: noTtyApprover,
    });
    try {
      const started = performance.now();
      const result = await session.runTurn({
        prompt: "go",
        maxSteps: 5,
        signal: new AbortController().signal,
      });
      if (result.status !== "completed") throw new Error(`turn ${result.status}: ${result.error?.message}`);
      return performance.now() - started;
    } finally {
      await session.close();
    }
  } finally {
    await server.close();
  }
}

/** N children, each one ~1 s shell call, then an answer; the parent then finishes. */
function fanOut(n: number): FixtureScript {
  return {
    steps: [{ tool_calls: Array.from({ length: n }, (_, i) => agentCall(i)) }, { text: "all done" }],
    replies: [
      { when_input_contains: "CHILD-ANSWER", text: "all done" },
      { when_input_contains: "function_call_output", text: "CHILD-ANSWER" },
      { when_input_contains: "CHILD-", tool_calls: [{ name: "shell", arguments: { command: "sleep 1" } }] },
    ],
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function bench(): Promise<BenchRow[]> {
  const tmp = await Deno.makeTempDir({
    dir: new URL("../../", import.meta.url).pathname,
    prefix: ".trellis-test-bench-fanout-",
  });
  try {
    const one: number[] = [], four: number[] = [];
    for (let round = 0; round < 3; round++) {
      one.push(await turnMs(tmp, fanOut(1)));
      four.push(await turnMs(tmp, fanOut(4)));
    }
    const ratio = median(four) / median(one);
    // The floor: the shell tool runs `bash -lc`; four login shells at once cost more than one
    // before any agent is involved (2 cores). Same fresh home as the children's shells.
    const home = path.join(tmp, "floor-home");
    await fs.mkdir(home);
    const shells = async (n: number) => {
      const started = performance.now();
      await Promise.all(
        Array.from(
          { length: n },
          () =>
            new Deno.Command("bash", {
              args: ["-lc", "sleep 1"],
              env: { HOME: home },
              stdout: "null",
              stderr: "null",
            }).output(),
        ),
      );
      return performance.now() - started;
    };
    const floorOne: number[] = [], floorFour: number[] = [];
    for (let round = 0; round < 3; round++) {
      floorOne.push(await shells(1));
      floorFour.push(await shells(4));
    }
    const floor = median(floorFour) / median(floorOne);
    // Three model requests each: parent → child → parent, and parent → parent → parent.
    const spawn: FixtureScript = {
      steps: [{ tool_calls: [agentCall(0)] }, { text: "done" }],
      replies: [{ when_input_contains: "CHILD-", text: "CHILD-ANSWER" }],
    };
    const plain: FixtureScript = {
      steps: [
        { tool_calls: [{ name: "read_file", arguments: { path: "a.md" } }] },
        { tool_calls: [{ name: "read_file", arguments: { path: "a.md" } }] },
        { text: "done" },
      ],
    };
    const spawnRuns: number[] = [], plainRuns: number[] = [];
    await turnMs(tmp, spawn);
    await turnMs(tmp, plain);
    for (let i = 0; i < 15; i++) {
      spawnRuns.push(await turnMs(tmp, spawn));
      plainRuns.push(await turnMs(tmp, plain));
    }
    const overhead = median(spawnRuns) - median(plainRuns);
    return [
      {
        name: "4 subagents (~1 s shell each), turn wall time (median of 3)",
        value: median(four),
        unit: "ms",
        target: "—",
        pass: true,
      },
      {
        name: "1 subagent, same shape (median of 3)",
        value: median(one),
        unit: "ms",
        target: "reference",
        pass: true,
      },
      { name: "4 subagents ÷ 1 (#22 figure)", value: ratio, unit: "×", target: "≤ 1.3×", pass: ratio <= 1.3 },
      {
        name: "floor: 4 concurrent `bash -lc 'sleep 1'` ÷ 1, no agent (median of 3)",
        value: floor,
        unit: "×",
        target: "reference",
        pass: true,
      },
      {
        name:
          "spawn overhead: an Agent call's turn − a read_file turn of as many model requests (median of 15)",
        value: overhead,
        unit: "ms",
        target: "≤ 10 ms",
        pass: overhead <= 10,
      },
    ];
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) console.log(await bench());
