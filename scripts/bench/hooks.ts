/**
 * Hooks benchmarks (issue 5 figures): concurrent dispatch order and wall time, per-hook dispatch
 * overhead over a bare spawn of the same command line, and fan-out of 50 sleeping hooks.
 */
import {
  createHookEngine,
  type HookHandlerInfo,
  type HookRunRecord,
  hookTrustHash,
} from "../../lib/hooks/mod.ts";
import { childEnv, platform, runCommand } from "../../lib/platform/mod.ts";
import { discardEvents } from "../../lib/shared/mod.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const shell = platform.env("SHELL")?.startsWith("/") ? platform.env("SHELL")! : "/bin/sh";
const baseEnv = { PATH: platform.env("PATH") ?? "/usr/bin:/bin", SHELL: shell };

function hook(command: string, displayOrder: number): HookHandlerInfo {
  const base = {
    key: `bench:pre_tool_use:0:${displayOrder}`,
    event: "PreToolUse" as const,
    command,
    timeoutSec: 30,
    onFailure: "ignore" as const,
    sourcePath: `bench-${String.fromCharCode(65 + (displayOrder % 26))}`,
    sourceKind: "user" as const,
    managed: false,
    groupIndex: 0,
    handlerIndex: displayOrder,
    displayOrder,
  };
  return { ...base, hash: hookTrustHash(base), trust: "trusted", enabled: true, runnable: true };
}

async function dispatchOnce(handlers: HookHandlerInfo[], home: string) {
  const engine = createHookEngine({
    handlers,
    platform,
    events: discardEvents,
    home,
    threadId: "bench",
    baseEnv,
  });
  let runs: HookRunRecord[] = [];
  engine.observe((r) => runs = r);
  const ctx = {
    sessionId: "bench",
    turnId: "t",
    cwd: home,
    model: "m",
    permissionMode: "default",
    transcriptPath: null,
    signal: new AbortController().signal,
  };
  const started = performance.now();
  await engine.preToolUse(ctx, {
    toolName: "Bash",
    aliases: [],
    toolInput: { command: "ls" },
    toolUseId: "c",
  });
  return { ms: performance.now() - started, runs, ctx };
}

/** The same command lines spawned directly (same shell, no engine): what the machine itself costs. */
async function bareSpawn(commands: string[], home: string, input: string): Promise<number> {
  const started = performance.now();
  await Promise.all(
    commands.map((c) =>
      runCommand(platform, { cmd: [shell, "-lc", c], cwd: home, env: childEnv(baseEnv), input })
    ),
  );
  return performance.now() - started;
}

export async function bench(): Promise<BenchRow[]> {
  const home = await platform.fs.makeTempDir("trellis-bench-hooks-");
  const payload = JSON.stringify({
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
  });
  try {
    await dispatchOnce([hook("true", 0)], home); // warm-up: first spawn, parser compilation
    const three = await dispatchOnce(
      [hook("sleep 0.3", 0), hook("sleep 0.1", 1), hook("sleep 0.2", 2)],
      home,
    );
    const threeBare = await bareSpawn(["sleep 0.3", "sleep 0.1", "sleep 0.2"], home, payload);
    const completion = [...three.runs].sort((a, b) => a.completionIndex - b.completionIndex)
      .map((r) => r.handler.sourcePath.slice(-1)).join(" ");
    const reported = three.runs.map((r) => r.handler.sourcePath.slice(-1)).join(" ");
    const orderOk = completion === "B C A" && reported === "A B C";

    const viaEngine: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < 25; i++) {
      // Alternate which goes first so neither side always gets the warmer cache.
      if (i % 2 === 0) viaEngine.push((await dispatchOnce([hook("true", 0)], home)).ms);
      direct.push(await bareSpawn(["true"], home, payload));
      if (i % 2 === 1) viaEngine.push((await dispatchOnce([hook("true", 0)], home)).ms);
    }
    const overhead = median(viaEngine) - median(direct);

    const fiftyCommands = Array.from({ length: 50 }, () => "sleep 0.5");
    const fifty = await dispatchOnce(fiftyCommands.map((c, i) => hook(c, i)), home);
    const fiftyBare = await bareSpawn(fiftyCommands, home, payload);
    const allOk = fifty.runs.length === 50 && fifty.runs.every((r) => r.status === "completed");
    const row = (name: string, value: number, target: string, pass: boolean): BenchRow => ({
      name,
      value: Math.round(value * 100) / 100,
      unit: "ms",
      target,
      pass,
    });
    return [
      row(
        `hooks: 3 PreToolUse hooks (300/100/200 ms); completion ${completion}, reported ${reported}`,
        three.ms,
        "≤ 350 ms, completion B C A, reported A B C",
        three.ms <= 350 && orderOk,
      ),
      row(
        `hooks: baseline, the same 3 command lines spawned directly with ${shell} -lc`,
        threeBare,
        "baseline",
        true,
      ),
      row(
        `hooks: dispatch overhead of one \`true\` hook over spawning it directly (median ${
          Math.round(median(direct))
        } ms bare)`,
        overhead,
        "≤ 5 ms",
        overhead <= 5,
      ),
      row(
        "hooks: 50 matching hooks sleeping 0.5 s on one event",
        fifty.ms,
        "≤ 750 ms, all completed",
        fifty.ms <= 750 && allOk,
      ),
      row(
        `hooks: baseline, the same 50 command lines spawned directly with ${shell} -lc`,
        fiftyBare,
        "baseline",
        true,
      ),
    ];
  } finally {
    await platform.fs.remove(home, { recursive: true });
  }
}

if (import.meta.main) console.log(await bench());
