/**
 * #24 figures: an `http` hook over a bare fetch of the same request, a `prompt` hook's one model
 * request over a bare request of that size (the fixture model server), and a session start with
 * 30 event groups × 3 hooks configured over one with none. Ratios against references measured in
 * the same run; medians, runs alternated.
 */
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import {
  createHookEngine,
  type HookHandlerInfo,
  hookTrustHash,
  loadHooks,
  OBSERVED_EVENTS,
  PROMPT_HOOK_INSTRUCTIONS,
  promptWithArguments,
} from "../../lib/hooks/mod.ts";
import { createModelClient, type ModelClient, resolveProvider } from "../../lib/model/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { discardEvents } from "../../lib/shared/mod.ts";
import { startFixtureModelServer } from "../fixture_model_server.ts";
import { fixtureProcess } from "./_fixture_process.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const ctx = (cwd: string) => ({
  sessionId: "bench",
  turnId: "t",
  cwd,
  model: "fixture-model",
  permissionMode: "default",
  transcriptPath: null,
  signal: new AbortController().signal,
});
const call = { toolName: "Bash", aliases: [], toolInput: { command: "ls" }, toolUseId: "c1" };

function handler(extra: Partial<HookHandlerInfo> & Pick<HookHandlerInfo, "command">): HookHandlerInfo {
  const base = {
    key: "bench:pre_tool_use:0:0",
    event: "PreToolUse" as const,
    timeoutSec: 30,
    onFailure: "ignore" as const,
    sourcePath: "bench",
    sourceKind: "user" as const,
    managed: false,
    groupIndex: 0,
    handlerIndex: 0,
    displayOrder: 0,
    ...extra,
  };
  return { ...base, hash: hookTrustHash(base), trust: "trusted", enabled: true, runnable: true };
}

async function httpRows(home: string): Promise<BenchRow[]> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    await request.text();
    return Response.json({});
  });
  const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/hook`;
  const engine = createHookEngine({
    handlers: [handler({ type: "http", command: url, http: { url } })],
    platform,
    events: discardEvents,
    home,
    threadId: "bench",
    services: { httpAllowlist: ["http://127.0.0.1:*/*"] },
  });
  const body = JSON.stringify({
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
  });
  const hooked: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 60; i++) {
    let t = performance.now();
    await engine.preToolUse(ctx(home), call);
    hooked.push(performance.now() - t);
    t = performance.now();
    const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    await r.text();
    bare.push(performance.now() - t);
  }
  await server.shutdown();
  const over = median(hooked.slice(10)) - median(bare.slice(10));
  return [
    {
      name: "http hook to a loopback server: PreToolUse dispatch (median of 50)",
      value: median(hooked.slice(10)),
      unit: "ms",
      target: "report",
      pass: true,
    },
    {
      name: "reference: a bare fetch POST of the same event JSON (median of 50)",
      value: median(bare.slice(10)),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    { name: "http hook over the bare fetch", value: over, unit: "ms", target: "≤ 2 ms", pass: over <= 2 },
  ];
}

async function promptRows(home: string): Promise<BenchRow[]> {
  const ROUNDS = 210;
  // The model in a process of its own, as a real one is: its work never runs between the hook's.
  const server = await fixtureProcess(
    home,
    "steps: []\nreplies:\n  - when_input_contains: BENCH\n    text: '{\"ok\": true}'\n",
    { countRequests: true },
  );
  const loaded = await loadConfig(platform.fs, {
    cwd: home,
    env: (n) => ({ HOME: home, TRELLIS_HOME: `${home}/.trellis` } as Record<string, string>)[n],
    overrides: ["model_provider=fixture", `model_providers.fixture.base_url=${JSON.stringify(server.url)}`],
  });
  const model = createModelClient(resolveProvider(loaded.config, () => undefined, { requireKey: false }), {});
  const ask = async (prompt: string, instructions: string, signal: AbortSignal) => {
    let text = "";
    const request = {
      model: "fixture-model",
      instructions,
      input: [{ type: "message" as const, role: "user" as const, content: prompt }],
      tools: [],
      parallelToolCalls: false,
    };
    for await (const e of (model as ModelClient).stream(request, signal)) {
      if (e.type === "text_delta") text += e.delta;
    }
    return text;
  };
  const text = "BENCH: may this run? $ARGUMENTS";
  const engine = createHookEngine({
    handlers: [handler({ type: "prompt", command: text, prompt: { text } })],
    platform,
    events: discardEvents,
    home,
    threadId: "bench",
    services: { ask: (r) => ask(r.prompt, r.instructions, r.signal) },
  });
  // The bare request carries the same text: the prompt with the event JSON filled in.
  let filled = "";
  const probe = createHookEngine({
    handlers: [handler({ type: "prompt", command: text, prompt: { text } })],
    platform,
    events: discardEvents,
    home,
    threadId: "bench",
    services: { ask: (r) => (filled = r.prompt, Promise.resolve('{"ok": true}')) },
  });
  await probe.preToolUse(ctx(home), call);
  const before = await server.requestCount();
  const hooked: number[] = [];
  const bare: number[] = [];
  const runHooked = async () => {
    const t = performance.now();
    await engine.preToolUse(ctx(home), call);
    hooked.push(performance.now() - t);
  };
  const runBare = async () => {
    const t = performance.now();
    await ask(
      filled || promptWithArguments(text, "{}"),
      PROMPT_HOOK_INSTRUCTIONS,
      new AbortController().signal,
    );
    bare.push(performance.now() - t);
  };
  // Each goes first in half the rounds: a request right after another finds the connection and the
  // server warmer, which is not the hook's doing.
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      await runHooked();
      await runBare();
    } else {
      await runBare();
      await runHooked();
    }
  }
  const perDispatch = ((await server.requestCount()) - before - ROUNDS) / ROUNDS;
  await server.close();
  // Paired, as the rounds ran: the machine drifts by more than the hook costs.
  const pairs = hooked.slice(10).map((ms, i) => ms - bare[i + 10]);
  const ratio = 1 + median(pairs) / median(bare.slice(10));
  return [
    {
      name: "prompt hook: model requests per PreToolUse dispatch (fixture model)",
      value: perDispatch,
      unit: "requests",
      target: "exactly 1",
      pass: perDispatch === 1,
    },
    {
      name: `prompt hook: PreToolUse dispatch (median of ${ROUNDS - 10})`,
      value: median(hooked.slice(10)),
      unit: "ms",
      target: "report",
      pass: true,
    },
    {
      name: `reference: a bare model request of the same prompt (median of ${
        ROUNDS - 10
      }; median pair difference ${(median(pairs) * 1000).toFixed(0)} µs)`,
      value: median(bare.slice(10)),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    { name: "prompt hook ÷ bare request", value: ratio, unit: "×", target: "≤ 1.1", pass: ratio <= 1.1 },
  ];
}

/**
 * 30 event groups × 3 trusted hooks on the events that do not fire before the first model request
 * (UserPromptSubmit does: its hooks would be measured running, not loaded).
 */
async function sessionStartRows(): Promise<BenchRow[]> {
  const events = [
    "PreToolUse",
    "PostToolUse",
    "PermissionRequest",
    "Stop",
    "PreCompact",
    "PostCompact",
    "SubagentStart",
    "SubagentStop",
    ...OBSERVED_EVENTS.filter((e) => e !== "SessionEnd"),
  ];
  const hooks: Record<string, unknown[]> = {};
  for (let i = 0; i < 30; i++) {
    const event = events[i % events.length];
    (hooks[event] ??= []).push({
      hooks: [0, 1, 2].map((j) => ({ type: "command", command: `echo ${i}-${j}` })),
    });
  }
  const home = async (withHooks: boolean) => {
    const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-bench-"));
    const env: Record<string, string> = {
      HOME: `${root}/home`,
      TRELLIS_HOME: `${root}/home/.trellis`,
      TRELLIS_SYSTEM_DIR: `${root}/etc`,
    };
    await platform.fs.mkdir(env.TRELLIS_HOME);
    await platform.fs.chmod(env.TRELLIS_HOME, 0o700);
    await platform.fs.mkdir(`${root}/ws`);
    if (withHooks) {
      await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/hooks.json`, JSON.stringify({ hooks }));
    }
    const overrides = ["skills.bundled.enabled=false"];
    const load = () => loadConfig(platform.fs, { cwd: `${root}/ws`, env: (n) => env[n], overrides });
    const found = await loadHooks({ loaded: await load(), platform, pluginSources: [] });
    const state = found.handlers.map((h) =>
      `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = "${h.hash}"\n`
    ).join("");
    await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, state);
    return { load, count: found.handlers.length, root, env };
  };
  const model: ModelClient = { provider: undefined as never, stream: () => (async function* () {})() };
  const start = async (load: () => ReturnType<typeof loadConfig>) => {
    const t = performance.now();
    const session = await Session.open({
      platform,
      loaded: await load(),
      events: () => {},
      approver: noTtyApprover,
      model,
    });
    await session.start(new AbortController().signal);
    const ms = performance.now() - t;
    await session.close();
    return ms;
  };
  const none = await home(false);
  const many = await home(true);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 25; i++) {
    a.push(await start(none.load));
    b.push(await start(many.load));
  }
  const ratio = median(b.slice(5)) / median(a.slice(5));
  return [
    {
      name: `session open + start with ${many.count} trusted hooks (30 groups × 3) configured (median of 20)`,
      value: median(b.slice(5)),
      unit: "ms",
      target: "report",
      pass: true,
    },
    {
      name: "reference: the same with no hooks configured (median of 20)",
      value: median(a.slice(5)),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "in process: with 90 hooks ÷ with none (what loading and judging 90 hooks costs: +" +
        `${(median(b.slice(5)) - median(a.slice(5))).toFixed(2)} ms)`,
      value: ratio,
      unit: "×",
      target: "report",
      pass: true,
    },
    ...await binaryStartRows(none, many),
  ];
}

const BIN = new URL("../../dist/trellis", import.meta.url).pathname;

/**
 * Session start as a user meets it: `dist/trellis exec` spawned until its first model request
 * reaches the fixture model (config, hooks loaded and judged, MCP, skills, the session opened), with
 * the 90 trusted hooks and with none, alternated; the ratio is 1 + the median pair difference ÷ the
 * reference's median. None of the hooks' events fires before that request.
 */
async function binaryStartRows(
  none: { root: string; env: Record<string, string> },
  many: { root: string; env: Record<string, string>; count: number },
): Promise<BenchRow[]> {
  if (!platform.fs.sync.lstat(BIN)) {
    return [{
      name: "binary session start: dist/trellis not built (deno task compile)",
      value: NaN,
      unit: "",
      target: "≤ 1.1",
      pass: false,
    }];
  }
  let firstRequest = 0;
  const fixture = await startFixtureModelServer({
    script: { steps: [], replies: [{ when_input_contains: "hi", text: "ok" }] },
    onRequest: () => {
      firstRequest ||= performance.now();
    },
  });
  const startOnce = async (home: { root: string; env: Record<string, string> }) => {
    firstRequest = 0;
    const spawned = performance.now();
    const { code, stderr } = await new Deno.Command(BIN, {
      args: [
        "exec",
        "--skip-git-repo-check",
        "-c",
        "model_provider=fixture",
        "-c",
        `model_providers.fixture.base_url=${JSON.stringify(fixture.url)}`,
        "-c",
        "skills.bundled.enabled=false",
        "hi",
      ],
      cwd: `${home.root}/ws`,
      env: { PATH: Deno.env.get("PATH") ?? "", ...home.env },
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (code !== 0) throw new Error(`exec exited ${code}: ${new TextDecoder().decode(stderr).slice(-400)}`);
    if (!firstRequest) throw new Error("exec never asked the model");
    return firstRequest - spawned;
  };
  const a: number[] = [];
  const b: number[] = [];
  try {
    for (let i = 0; i < 43; i++) {
      a.push(await startOnce(none));
      b.push(await startOnce(many));
    }
  } finally {
    await fixture.close();
  }
  // The machine drifts by more than the difference measured: each pair's difference (run side by
  // side), its median over the reference's median.
  const pairs = a.slice(3).map((ms, i) => b[i + 3] - ms);
  const reference = median(a.slice(3));
  const ratio = 1 + median(pairs) / reference;
  return [
    {
      name:
        `binary session start (exec spawned → its first model request) with ${many.count} trusted hooks (median of 40)`,
      value: median(b.slice(3)),
      unit: "ms",
      target: "report",
      pass: true,
    },
    {
      name: `reference: the same with no hooks configured, alternated (median of 40; median pair difference ${
        median(pairs).toFixed(2)
      } ms)`,
      value: reference,
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "session start with 90 hooks ÷ with none",
      value: ratio,
      unit: "×",
      target: "≤ 1.1",
      pass: ratio <= 1.1,
    },
  ];
}

export async function bench(): Promise<BenchRow[]> {
  const home = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-bench-hooks-"));
  return [...await httpRows(home), ...await promptRows(home), ...await sessionStartRows()];
}
