/**
 * Long conversations (#15 item 6 figures): a 300-turn session in a 3,000-token window, compacting
 * as it goes, in its own process under Bun (scripts/bench/_long_session.ts): RSS at turn 300 over RSS
 * at turn 10. Then `dist/trellis exec resume` of that session, timed from spawn to its first model
 * request (the point where a session is ready for a prompt), beside a fresh `exec` with the same
 * config measured alternately; and the interactive `dist/trellis resume` of it on a pseudo-terminal,
 * timed from spawn to the first frame with the idle prompt (issue #15's "resume of it to an idle
 * prompt ≤ 300 ms").
 */
import { startFixtureModelServer } from "../fixture_model_server.ts";
import { bunCommand } from "../lib/bun_path.ts";
import { median } from "./_timing.ts";
import { IDLE, Pty } from "./_pty.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const BIN = new URL("../../dist/trellis", import.meta.url).pathname;
const TURNS = 300;
const RUNS = 11;

/** Runs the long session; returns what `_long_session.ts` printed. */
async function longSession(home: string, cwd: string) {
  const server = await startFixtureModelServer({
    script: new URL("../../fixtures/models/long_session.yaml", import.meta.url).pathname,
  });
  try {
    const out = await new Deno.Command(bunCommand(), {
      args: [new URL("./_long_session.ts", import.meta.url).pathname, server.url, home, cwd, String(TURNS)],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`the long session failed: ${new TextDecoder().decode(out.stderr)}`);
    const result = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
    return { ...result, requests: server.requests.length } as {
      rssAt10: number;
      rssAtEnd: number;
      compactions: number;
      threadId: string;
      requests: number;
    };
  } finally {
    await server.close();
  }
}

/** Milliseconds from spawning `args` to the fixture server reading its first request. */
async function toFirstRequest(args: (url: string) => string[], home: string, cwd: string) {
  let first = NaN;
  let started = 0;
  let summary = false;
  const server = await startFixtureModelServer({
    script: { steps: [{ text: "ok" }], replies: [{ when_input_contains: "Context compaction:", text: "S" }] },
    onRequest: (body) => {
      if (!Number.isNaN(first)) return;
      first = performance.now() - started;
      summary = JSON.stringify(body).includes("Context compaction:");
    },
  });
  try {
    const command = new Deno.Command(BIN, {
      args: args(server.url),
      cwd,
      env: { HOME: home, TRELLIS_HOME: `${home}/.trellis`, PATH: "/usr/bin:/bin" },
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    });
    started = performance.now();
    const out = await command.output();
    if (!out.success) throw new Error(`${args("URL").join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    return { ms: first, summary };
  } finally {
    await server.close();
  }
}

/** Milliseconds from spawning `trellis resume ID` on a pty to its idle prompt (then Ctrl-D). */
async function toIdlePrompt(id: string, flags: string[], home: string, cwd: string): Promise<number> {
  const pty = new Pty([BIN, "resume", id, ...flags], {
    cwd,
    env: { HOME: home, TRELLIS_HOME: `${home}/.trellis`, PATH: "/usr/bin:/bin" },
  });
  try {
    return await pty.waitFor(IDLE, 60_000);
  } finally {
    await pty.write("\x04");
    await pty.close();
  }
}

export async function bench(): Promise<BenchRow[]> {
  const home = await Deno.makeTempDir({ prefix: "trellis-bench-long-" });
  const cwd = `${home}/ws`;
  await Deno.mkdir(`${home}/.trellis`, { recursive: true });
  await Deno.mkdir(cwd);
  const session = await longSession(home, cwd);
  const sessions = `${home}/.trellis/sessions`;
  const transcript = await Deno.readTextFile(`${sessions}/${session.threadId}.jsonl`);
  const flags = (url: string) => [
    "-c",
    "model_provider=fixture",
    "-c",
    "tool_set=trellis",
    "-c",
    `model_providers.fixture.base_url=${JSON.stringify(url)}`,
    "-c",
    "model_context_window=3000",
    "-c",
    "skills.bundled.enabled=false",
  ];
  const resumed: number[] = [];
  const interactive: number[] = [];
  const fresh: number[] = [];
  let summaries = 0;
  for (let i = 0; i < RUNS; i++) {
    // Each resume continues its own copy, so every run reads the same 300-turn transcript.
    await Deno.writeTextFile(`${sessions}/bench-${i}.jsonl`, transcript);
    const resume = await toFirstRequest(
      (url) => ["exec", "--skip-git-repo-check", "resume", `bench-${i}`, "--json", ...flags(url), "next"],
      home,
      cwd,
    );
    resumed.push(resume.ms);
    if (resume.summary) summaries++;
    fresh.push(
      (await toFirstRequest(
        (url) => ["exec", "--skip-git-repo-check", "--json", ...flags(url), "next"],
        home,
        cwd,
      )).ms,
    );
    await Deno.writeTextFile(`${sessions}/tui-${i}.jsonl`, transcript);
    // No model request is made before the prompt: an unreachable URL is enough.
    interactive.push(await toIdlePrompt(`tui-${i}`, flags("http://127.0.0.1:9/v1"), home, cwd));
  }
  await Deno.remove(home, { recursive: true });
  const growth = session.rssAtEnd / session.rssAt10;
  const mib = (bytes: number) => bytes / 1024 / 1024;
  return [
    {
      name:
        `${TURNS}-turn session, 3,000-token window (Session under Bun): ${session.compactions} compactions, ${session.requests} model requests`,
      value: session.compactions,
      unit: "compactions",
      target: "info",
      pass: true,
    },
    { name: "its RSS after turn 10", value: mib(session.rssAt10), unit: "MiB", target: "info", pass: true },
    {
      name: `its RSS after turn ${TURNS}`,
      value: mib(session.rssAtEnd),
      unit: "MiB",
      target: "info",
      pass: true,
    },
    {
      name: `RSS at turn ${TURNS} ÷ RSS at turn 10`,
      value: growth,
      unit: "x",
      target: "≤ 1.5",
      pass: growth <= 1.5,
    },
    {
      name: `its transcript (${transcript.split("\n").length - 1} lines)`,
      value: transcript.length / 1024,
      unit: "KiB",
      target: "info",
      pass: true,
    },
    {
      name: `dist/trellis exec resume of it, spawn → first model request (median of ${RUNS}` +
        (summaries > 0 ? `; ${summaries} began with a compaction` : "") + ")",
      value: median(resumed),
      unit: "ms",
      target: "≤ 300 ms",
      pass: median(resumed) <= 300,
    },
    {
      name: `dist/trellis resume of it on a terminal, spawn → idle prompt (median of ${RUNS})`,
      value: median(interactive),
      unit: "ms",
      target: "≤ 300 ms",
      pass: median(interactive) <= 300,
    },
    {
      name:
        `reference: a fresh dist/trellis exec, same config, spawn → first model request (median of ${RUNS})`,
      value: median(fresh),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "resume of the 300-turn session ÷ fresh exec (runs alternated)",
      value: median(resumed) / median(fresh),
      unit: "x",
      target: "info",
      pass: true,
    },
  ];
}
