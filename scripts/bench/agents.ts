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
  const root = path.join(tmp, `h${count}`);
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
      `model_providers.fixture.base_url=${JSON.stringify(url)}`,
      "skills.bundled.enabled=false",
    ],
  });
  const session = await Session.open({ platform, loaded, events: () => {}, approver: noTtyApprover });
  const ms = performance.now() - started;
  await session.close();
  return ms;
}

export async function bench(): Promise<BenchRow[]> {
  const tmp = await Deno.makeTempDir({ prefix: "trellis-bench-agents-" });
  const server = await startFixtureModelServer({ script: { steps: [{ text: "x" }] } });
  try {
    const none = await home(tmp, 0);
    const many = await home(tmp, 200);
    // Warm both (module loading, the sandbox probe cache, any index a first start writes).
    await openClose(none, server.url);
    await openClose(many, server.url);
    // Interleaved best-of: the machine is shared, so both see the same noise.
    let bestNone = Infinity, bestMany = Infinity;
    for (let i = 0; i < 15; i++) {
      bestNone = Math.min(bestNone, await openClose(none, server.url));
      bestMany = Math.min(bestMany, await openClose(many, server.url));
    }
    const ratio = bestMany / bestNone;
    return [
      {
        name: "session open, no agent definitions (best of 15)",
        value: bestNone,
        unit: "ms",
        target: "reference",
        pass: true,
      },
      {
        name: "session open, 200 agent definitions (best of 15)",
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

if (import.meta.main) console.log(await bench());
