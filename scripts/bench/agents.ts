/**
 * Subagent benchmarks (#22 figures): opening a session with 200 agent definitions against opening
 * one with none, measured in-process in the same run (the ratio is the figure; ≤ 1.1×, so the
 * definitions must be read lazily).
 */
import * as path from "node:path";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { startFixtureModelServer } from "../fixture_model_server.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const fs = platform.fs;

/** A Claude Code-shaped definition with a realistic body (feature-dev's agents run ~2 KB). */
function agentText(i: number): string {
  const body = Array.from({ length: 30 }, (_, k) => `Step ${k}: examine the code carefully (${i}).`).join(
    "\n",
  );
  return `---\nname: agent-${i}\ndescription: Benchmark agent number ${i}, which traces one feature.\n` +
    `tools: Glob, Grep, LS, Read\nmodel: sonnet\ncolor: yellow\n---\n\n${body}\n`;
}

async function home(tmp: string, count: number) {
  const root = path.join(tmp, `h${count}-${crypto.randomUUID().slice(0, 4)}`);
  const env: Record<string, string> = {
    HOME: root,
    TRELLIS_HOME: path.join(root, ".trellis"),
    TRELLIS_SYSTEM_DIR: path.join(root, "etc"),
  };
  const cwd = path.join(root, "ws");
  await fs.mkdir(path.join(cwd, ".git"));
  await fs.mkdir(path.join(root, ".claude", "agents"));
  for (let i = 0; i < count; i++) {
    await fs.writeTextFile(path.join(root, ".claude", "agents", `agent-${i}.md`), agentText(i));
  }
  return { env, cwd };
}

async function openClose(h: { env: Record<string, string>; cwd: string }, url: string): Promise<number> {
  const started = performance.now();
  const loaded = await loadConfig(fs, {
    cwd: h.cwd,
    env: (n) => h.env[n],
    overrides: [
      "model_provider=fixture",
      "tool_set=trellis",
      `model_providers.fixture.base_url=${JSON.stringify(url)}`,
      "skills.bundled.enabled=false",
    ],
  });
  const session = await Session.open({ platform, loaded, events: () => {}, approver: noTtyApprover });
  const ms = performance.now() - started;
  await session.close();
  return ms;
}

/** Best of 40 session opens (after one warm-up) in a fresh Deno process. */
async function inChild(h: { env: Record<string, string>; cwd: string }, url: string): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, "--child", JSON.stringify({ ...h, url })],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return Number(new TextDecoder().decode(out.stdout).trim());
}

export async function bench(): Promise<BenchRow[]> {
  // Not under /tmp: the sandbox's protected-name walk covers /tmp (a writable root), so 200 files
  // there would time that walk, not agent loading; a user's ~/.claude is outside every writable root.
  const tmp = await Deno.makeTempDir({
    dir: new URL("../../", import.meta.url).pathname,
    prefix: ".trellis-test-bench-agents-",
  });
  const server = await startFixtureModelServer({ script: { steps: [{ text: "x" }] } });
  try {
    const none = await home(tmp, 0);
    const many = await home(tmp, Number(Deno.env.get("BENCH_AGENTS") ?? 200));
    // Each home is measured in a process of its own (per-process state — caches, the first home a
    // process opens — made the second home of one process slower even with no agents in either),
    // alternating, best of each.
    let bestNone = Infinity, bestMany = Infinity;
    for (let round = 0; round < 6; round++) {
      bestNone = Math.min(bestNone, await inChild(none, server.url));
      bestMany = Math.min(bestMany, await inChild(many, server.url));
    }
    const ratio = bestMany / bestNone;
    return [
      {
        name: "session open, no agent definitions (best of 240, own processes)",
        value: bestNone,
        unit: "ms",
        target: "reference",
        pass: true,
      },
      {
        name: "session open, 200 agent definitions (best of 240, own processes)",
        value: bestMany,
        unit: "ms",
        target: "—",
        pass: true,
      },
      {
        name: "session open with 200 agent definitions ÷ with none (#22 figure)",
        value: ratio,
        unit: "×",
        target: "≤ 1.1×",
        pass: ratio <= 1.1,
      },
    ];
  } finally {
    await server.close();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main && Deno.args[0] === "--child") {
  const { env, cwd, url } = JSON.parse(Deno.args[1]);
  await openClose({ env, cwd }, url);
  let best = Infinity;
  for (let i = 0; i < 40; i++) best = Math.min(best, await openClose({ env, cwd }, url));
  console.log(best);
} else if (import.meta.main) console.log(await bench());
