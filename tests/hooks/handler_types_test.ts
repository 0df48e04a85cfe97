/**
 * #24 item 2: the handler types beyond `command` (http, prompt, agent, mcp_tool) and the fields
 * `once`, `args`, `shell`, through the real engine: a real loopback HTTP server, real subprocesses.
 * Each bad input (#24 "Bad input") is a failed run named as a command's failure is, and a guard
 * under `on_failure = "block"` that cannot run blocks (HK-5, HK-8).
 */
import assert from "node:assert/strict";
import {
  createHookEngine,
  type HookHandlerInfo,
  type HookRunRecord,
  type HookServices,
  hookTrustHash,
  interpolateHeaders,
  promptWithArguments,
  urlAllowed,
} from "../../lib/hooks/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { eventLog, handler, tempDir, testEnv, turnContext } from "./_helpers.ts";

const bashCall = { toolName: "Bash", aliases: [], toolInput: { command: "ls" }, toolUseId: "call-1" };

interface Seen {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A loopback server: `/deny` answers a PreToolUse deny, `/500`, `/html`, `/huge`, `/redirect-*`. */
function loopback() {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    seen.push({
      path: url.pathname,
      headers: Object.fromEntries(request.headers),
      body: await request.json(),
    });
    switch (url.pathname) {
      case "/deny":
        return Response.json({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: "no ls",
          },
        });
      case "/500":
        return new Response("boom", { status: 500 });
      case "/html":
        return new Response("<html><body>login</body></html>", { headers: { "content-type": "text/html" } });
      case "/huge":
        return new Response("a".repeat(10 * 1024 * 1024));
      case "/redirect-inside":
        return new Response(null, { status: 302, headers: { location: "/deny" } });
      case "/redirect-outside":
        return new Response(null, { status: 302, headers: { location: "http://localhost:1/deny" } });
      default:
        return new Response("", { status: 200 });
    }
  });
  const port = (server.addr as Deno.NetAddr).port;
  return { seen, base: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

function httpHook(url: string, extra: Partial<HookHandlerInfo> = {}): HookHandlerInfo {
  return handler({ type: "http", command: url, http: { url }, ...extra });
}

async function runPre(handlers: HookHandlerInfo[], services: HookServices = {}) {
  const home = await tempDir();
  const log = eventLog();
  const engine = createHookEngine({
    handlers,
    platform,
    events: log.sink,
    home,
    threadId: "t",
    baseEnv: { ...testEnv(), HOOK_TOKEN: "tok-123", OTHER_SECRET: "must-not-leak" },
    services,
  });
  const runs: HookRunRecord[] = [];
  engine.observe((r) => runs.push(...r));
  const outcome = await engine.preToolUse(turnContext(home), bashCall);
  return { outcome, runs, log, engine, home };
}

Deno.test("an http hook POSTs the event JSON, and its 2xx body is read as a command's stdout (#24 item 2, HK-8)", async () => {
  const server = loopback();
  try {
    const { outcome, runs } = await runPre([httpHook(`${server.base}/deny`)], {
      httpAllowlist: ["http://127.0.0.1:*/*"],
    });
    assert.deepStrictEqual(outcome, { block: { reason: "no ls" }, additionalContexts: [] });
    assert.deepStrictEqual(runs.map((r) => r.status), ["blocked"]);
    const body = server.seen[0].body as Record<string, unknown>;
    assert.deepStrictEqual([body.hook_event_name, body.tool_name, body.tool_input], ["PreToolUse", "Bash", {
      command: "ls",
    }]);
    assert.equal(server.seen[0].headers["content-type"], "application/json");
  } finally {
    await server.close();
  }
});

Deno.test("http hook headers interpolate only allowedEnvVars; any other variable becomes empty (#24 item 2)", async () => {
  const server = loopback();
  try {
    const headers = { authorization: "Bearer $HOOK_TOKEN", "x-other": "[${OTHER_SECRET}]" };
    await runPre([
      httpHook(`${server.base}/ok`, {
        http: { url: `${server.base}/ok`, headers, allowedEnvVars: ["HOOK_TOKEN"] },
      }),
    ], {
      httpAllowlist: [`${server.base}/*`],
    });
    assert.equal(server.seen[0].headers.authorization, "Bearer tok-123");
    assert.equal(server.seen[0].headers["x-other"], "[]");
  } finally {
    await server.close();
  }
  // The neighbour: with the variable allowed it is filled in.
  assert.deepStrictEqual(
    interpolateHeaders({ headers: { x: "${OTHER_SECRET}" }, allowedEnvVars: ["OTHER_SECRET"] }, {
      OTHER_SECRET: "s",
    }),
    { x: "s" },
  );
});

Deno.test("the URL allowlist: * matches a port or a path; anything else is refused (#24 item 2)", () => {
  const list = ["http://127.0.0.1:*/hooks/*"];
  assert.equal(urlAllowed("http://127.0.0.1:8080/hooks/pre", list), true);
  assert.equal(urlAllowed("http://127.0.0.1:8080/other", list), false);
  assert.equal(urlAllowed("http://127.0.0.2:8080/hooks/pre", list), false);
  assert.equal(urlAllowed("https://127.0.0.1:8080/hooks/pre", list), false);
  assert.equal(urlAllowed("not a url", ["*"]), false);
});

Deno.test("http hook bad input: off the allowlist, no allowlist, 500, HTML, 10 MB, a redirect off the allowlist — each a named failed run (#24)", async () => {
  const server = loopback();
  try {
    const allow = { httpAllowlist: [`${server.base}/*`] };
    const cases: [string, HookServices, string][] = [
      [
        "http://example.invalid/x",
        allow,
        "http hook not run: http://example.invalid/x is not on [hooks] allowed_http_hook_urls",
      ],
      [
        `${server.base}/ok`,
        {},
        `http hook not run: [hooks] allowed_http_hook_urls is not set in your config (${server.base}/ok)`,
      ],
      [`${server.base}/500`, allow, `http hook ${server.base}/500 answered 500: boom`],
      [
        `${server.base}/html`,
        allow,
        `http hook ${server.base}/html answered an HTML page (text/html), not hook output`,
      ],
      [`${server.base}/huge`, allow, "hook output exceeded the output size cap and was cut"],
      [
        `${server.base}/redirect-outside`,
        allow,
        `http hook ${server.base}/redirect-outside redirected to http://localhost:1/deny, which is not on [hooks] allowed_http_hook_urls (not followed)`,
      ],
    ];
    for (const [url, services, error] of cases) {
      const { outcome, runs } = await runPre([httpHook(url)], services);
      assert.deepStrictEqual([runs[0].status, runs[0].effect.error], ["failed", error], url);
      assert.deepStrictEqual(outcome, { additionalContexts: [] }, url);
    }
    // The neighbour: a redirect that stays on the allowlist is followed.
    const followed = await runPre([httpHook(`${server.base}/redirect-inside`)], allow);
    assert.deepStrictEqual(followed.outcome.block, { reason: "no ls" });
    // Never reached: the off-list redirect target got no request.
    assert.ok(!server.seen.some((s) => s.path === "/deny" && s.headers.host === "localhost:1"));
    // A guard that cannot run under on_failure = "block" blocks.
    const guard = await runPre([httpHook(`${server.base}/500`, { onFailure: "block" })], allow);
    assert.match(
      guard.outcome.block?.reason ?? "",
      /failed and is configured to block: http hook .* answered 500/,
    );
  } finally {
    await server.close();
  }
});

/** A model port that records each request and answers with `answer`. */
function modelAnswering(answer: string) {
  const requests: { prompt: string; model?: string; instructions: string }[] = [];
  return {
    requests,
    services: {
      ask: (request) => {
        requests.push(request);
        return Promise.resolve(answer);
      },
    } satisfies HookServices,
  };
}

Deno.test("a prompt hook makes one model request with $ARGUMENTS filled; ok:false denies with its reason (#24 item 2)", async () => {
  const model = modelAnswering('{"ok": false, "reason": "ls is not allowed here"}');
  const hook = handler({
    type: "prompt",
    command: "Judge this call: $ARGUMENTS",
    prompt: { text: "Judge this call: $ARGUMENTS", model: "small-model" },
  });
  const { outcome } = await runPre([hook], model.services);
  assert.deepStrictEqual(outcome, { block: { reason: "ls is not allowed here" }, additionalContexts: [] });
  assert.equal(model.requests.length, 1);
  assert.equal(model.requests[0].model, "small-model");
  assert.match(model.requests[0].prompt, /^Judge this call: \{"session_id":"session-1".*"tool_name":"Bash"/);
  // The neighbour: ok:true lets the call through.
  const allow = await runPre([hook], modelAnswering('{"ok": true}').services);
  assert.deepStrictEqual(allow.outcome, { additionalContexts: [] });
  assert.deepStrictEqual(allow.runs.map((r) => r.status), ["completed"]);
});

Deno.test("a prompt hook whose model answers non-JSON fails by name; under on_failure=block the guard blocks (#24)", async () => {
  const hook = handler({ type: "prompt", command: "judge", prompt: { text: "judge" } });
  const { runs, outcome } = await runPre([hook], modelAnswering("Sure! Looks fine to me.").services);
  assert.deepStrictEqual(
    [runs[0].status, runs[0].effect.error],
    ["failed", 'prompt hook\'s model answered non-JSON: "Sure! Looks fine to me."'],
  );
  assert.deepStrictEqual(outcome, { additionalContexts: [] });
  const guard = await runPre([{ ...hook, onFailure: "block" }], modelAnswering("nope").services);
  assert.match(
    guard.outcome.block?.reason ?? "",
    /configured to block: prompt hook's model answered non-JSON/,
  );
  // No model in the session at all: named too, never skipped.
  const none = await runPre([hook], {});
  assert.equal(none.runs[0].effect.error, "prompt hook not run: no model in this session");
});

/** A model that answers only when its request's signal aborts (with that abort's error). */
function modelHanging() {
  const signals: AbortSignal[] = [];
  return {
    signals,
    services: {
      ask: (request) =>
        new Promise<string>((_resolve, reject) => {
          signals.push(request.signal);
          request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
        }),
    } satisfies HookServices,
  };
}

Deno.test("a prompt hook's model past the hook's timeout: the request is aborted, the run named timed out, a blocking guard blocks (#24)", async () => {
  const hook = handler({ type: "prompt", command: "judge", prompt: { text: "judge" }, timeoutSec: 1 });
  const hanging = modelHanging();
  const started = performance.now();
  const { runs, outcome } = await runPre([hook], hanging.services);
  assert.ok(performance.now() - started >= 900, "waited for the timeout");
  assert.equal(hanging.signals[0].aborted, true);
  assert.equal((hanging.signals[0].reason as DOMException).name, "TimeoutError");
  assert.deepStrictEqual([runs[0].status, runs[0].effect.error], ["failed", "hook timed out after 1s"]);
  assert.deepStrictEqual(outcome, { additionalContexts: [] });
  const guard = await runPre([{ ...hook, onFailure: "block" }], modelHanging().services);
  assert.match(guard.outcome.block?.reason ?? "", /configured to block: hook timed out after 1s/);
});

Deno.test("a prompt hook whose turn is stopped aborts its model request at once, not as a timeout (#24)", async () => {
  const hook = handler({ type: "prompt", command: "judge", prompt: { text: "judge" }, timeoutSec: 60 });
  const hanging = modelHanging();
  const home = await tempDir();
  const engine = createHookEngine({
    handlers: [hook],
    platform,
    events: eventLog().sink,
    home,
    threadId: "t",
    services: hanging.services,
  });
  const runs: HookRunRecord[] = [];
  engine.observe((r) => runs.push(...r));
  const stop = new AbortController();
  const pending = engine.preToolUse({ ...turnContext(home), signal: stop.signal }, bashCall);
  while (hanging.signals.length === 0) await new Promise((r) => setTimeout(r, 5));
  const started = performance.now();
  stop.abort(new Error("stopped by the user"));
  await pending;
  assert.ok(performance.now() - started < 1000, "did not wait for the 60 s timeout");
  assert.equal(hanging.signals[0].aborted, true);
  assert.equal((hanging.signals[0].reason as Error).message, "stopped by the user");
  assert.notEqual(runs[0]?.effect.error, "hook timed out after 60s");
});

Deno.test("an agent hook answers through the subagent port the same way (#24 item 2)", async () => {
  const seen: string[] = [];
  const hook = handler({ type: "agent", command: "check $ARGUMENTS", prompt: { text: "check $ARGUMENTS" } });
  const { outcome } = await runPre([hook], {
    runAgent: (request) => {
      seen.push(request.prompt);
      return Promise.resolve('```json\n{"ok": false, "reason": "found a secret"}\n```');
    },
  });
  assert.deepStrictEqual(outcome.block, { reason: "found a secret" });
  assert.equal(seen.length, 1);
});

Deno.test("an mcp_tool hook calls the tool with the event (or its filled input); a server not connected fails by name (#24)", async () => {
  const calls: { server: string; tool: string; arguments: Record<string, unknown> }[] = [];
  const services: HookServices = {
    callMcpTool: (request) => {
      calls.push(request);
      if (request.server !== "scanner") {
        return Promise.resolve({ ok: false, problem: `MCP server "${request.server}" is not connected` });
      }
      return Promise.resolve({
        ok: true,
        isError: false,
        text: JSON.stringify({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: "scan failed",
          },
        }),
      });
    },
  };
  const scan = handler({
    type: "mcp_tool",
    command: "scanner/scan",
    mcpTool: {
      server: "scanner",
      tool: "scan",
      input: { command: "${tool_input.command}", all: "${tool_input}" },
    },
  });
  const { outcome } = await runPre([scan], services);
  assert.deepStrictEqual(outcome.block, { reason: "scan failed" });
  assert.deepStrictEqual(calls[0].arguments, { command: "ls", all: { command: "ls" } });
  const missing = handler({
    type: "mcp_tool",
    command: "gone/scan",
    mcpTool: { server: "gone", tool: "scan" },
  });
  const r = await runPre([missing], services);
  assert.deepStrictEqual([r.runs[0].status, r.runs[0].effect.error], [
    "failed",
    'mcp_tool hook not run: MCP server "gone" is not connected',
  ]);
  // Without input, the event itself is the arguments.
  assert.equal(calls[1].arguments.hook_event_name, "PreToolUse");
});

Deno.test("once: true runs on the first matching firing of the session only (#24 item 2)", async () => {
  const home = await tempDir();
  const once = handler({ command: "echo run >> once.log", once: true, key: "k:once" });
  const every = handler({ command: "echo run >> every.log", key: "k:every", displayOrder: 1 });
  const engine = createHookEngine({
    handlers: [once, every],
    platform,
    events: () => {},
    home,
    threadId: "t",
    baseEnv: testEnv(),
  });
  for (let i = 0; i < 3; i++) await engine.preToolUse(turnContext(home), bashCall);
  assert.equal(await platform.fs.readTextFile(`${home}/once.log`), "run\n");
  assert.equal(await platform.fs.readTextFile(`${home}/every.log`), "run\nrun\nrun\n");
});

Deno.test("args runs the program without a shell; shell picks the shell that reads the command (#24 item 2)", async () => {
  const home = await tempDir();
  // With args, `$HOME;` and the quote reach the program literally: no shell expands or splits them.
  const exec = handler({ command: "/bin/echo", args: ["$HOME; 'x'"] });
  const shell = handler({ command: "echo $0", shell: "/bin/sh", displayOrder: 1, key: "k:shell" });
  // SessionStart reads plain stdout as context: what each printed is visible.
  const sessionStart = (h: HookHandlerInfo) => ({ ...h, event: "SessionStart" as const, matcher: undefined });
  const ctxEngine = createHookEngine({
    handlers: [sessionStart(exec), sessionStart(shell)],
    platform,
    events: () => {},
    home,
    threadId: "t",
    baseEnv: testEnv(),
  });
  const outcome = await ctxEngine.sessionStart(turnContext(home), { source: "startup" });
  assert.deepStrictEqual(outcome.additionalContexts, ["$HOME; 'x'", "/bin/sh"]);
});

Deno.test("trust covers each type's definition: a changed URL, prompt or tool makes a new hash (#24 item 2, HK-3)", () => {
  const base = { event: "PreToolUse" as const, timeoutSec: 30, onFailure: "ignore" as const };
  const hashes = [
    hookTrustHash({ ...base, type: "http", command: "http://a/x", http: { url: "http://a/x" } }),
    hookTrustHash({ ...base, type: "http", command: "http://a/y", http: { url: "http://a/y" } }),
    hookTrustHash({
      ...base,
      type: "http",
      command: "http://a/x",
      http: { url: "http://a/x", headers: { a: "$T" } },
    }),
    hookTrustHash({ ...base, type: "prompt", command: "p1", prompt: { text: "p1" } }),
    hookTrustHash({ ...base, type: "prompt", command: "p2", prompt: { text: "p2" } }),
    hookTrustHash({ ...base, type: "agent", command: "p1", prompt: { text: "p1" } }),
    hookTrustHash({ ...base, type: "mcp_tool", command: "s/t", mcpTool: { server: "s", tool: "t" } }),
    hookTrustHash({ ...base, type: "mcp_tool", command: "s/u", mcpTool: { server: "s", tool: "u" } }),
    hookTrustHash({ ...base, command: "echo", args: ["a"] }),
    hookTrustHash({ ...base, command: "echo", args: ["b"] }),
  ];
  assert.equal(new Set(hashes).size, hashes.length);
  // The neighbour: a plain command hook keeps the hash it had (Codex's), whatever else was added.
  assert.equal(
    hookTrustHash({ ...base, command: "echo" }),
    hookTrustHash({ ...base, type: "command", command: "echo" }),
  );
});

Deno.test("an http or mcp_tool hook past its timeout is aborted and named timed out, as a prompt hook is (#24)", async () => {
  // A server that answers only when its client gives up.
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) =>
      new Promise<Response>((resolve) =>
        request.signal.addEventListener("abort", () => resolve(new Response("late")), { once: true })
      ),
  );
  const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/slow`;
  const signals: AbortSignal[] = [];
  const hanging: HookServices = {
    httpAllowlist: ["http://127.0.0.1:*/*"],
    callMcpTool: (request) =>
      new Promise((_resolve, reject) => {
        signals.push(request.signal);
        request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
      }),
  };
  try {
    const tool = handler({
      type: "mcp_tool",
      command: "scanner/scan",
      mcpTool: { server: "scanner", tool: "scan" },
      timeoutSec: 1,
    });
    const started = performance.now();
    const { runs, outcome } = await runPre([httpHook(url, { timeoutSec: 1 }), tool], hanging);
    assert.ok(performance.now() - started < 5_000, "each stopped at its 1 s timeout");
    assert.deepStrictEqual(runs.map((r) => [r.status, r.effect.error]), [
      ["failed", "hook timed out after 1s"],
      ["failed", "hook timed out after 1s"],
    ]);
    assert.deepStrictEqual(outcome, { additionalContexts: [] });
    assert.equal((signals[0].reason as DOMException).name, "TimeoutError");
  } finally {
    await server.shutdown();
  }
});

Deno.test("a prompt hook's $ARGUMENTS is the event JSON as it is: a `$&`, `$'` or `$$` in it is text, not a replacement pattern", () => {
  const input = JSON.stringify({ tool_input: { command: "echo $& $' $` $$ done" } });
  assert.equal(promptWithArguments("Judge: $ARGUMENTS (end)", input), `Judge: ${input} (end)`);
  assert.equal(promptWithArguments("Judge:", input), `Judge:\n\n${input}`);
});
