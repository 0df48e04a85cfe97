/**
 * #25 item 4: `[otel]` with Codex's keys, exported to a loopback OTLP/HTTP receiver that decodes
 * what arrives (JSON and protobuf): spans for the session, the turn, each model request and tool
 * call, with their parents; metrics for tokens, latency and errors; a collector that refuses or
 * hangs never holds up the turn.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { runTrellis } from "./_binary.ts";
import { e2eSetup, modelFixture } from "./_setup.ts";
import { startOtlpReceiver } from "../helpers/otlp_receiver.ts";

function otelConfig(base: string, protocol: "json" | "binary", extra = ""): string {
  return `[otel]
environment = "ci"
${extra}
[otel.trace_exporter.otlp-http]
endpoint = "${base}/v1/traces"
protocol = "${protocol}"
headers = { "x-otlp-api-key" = "secret-k" }

[otel.metrics_exporter.otlp-http]
endpoint = "${base}/v1/metrics"
protocol = "${protocol}"
`;
}

for (const protocol of ["json", "binary"] as const) {
  Deno.test(`[otel] ${protocol}: session, turn, model request and tool call spans with parents; token/latency metrics; headers sent; prompt left out by default (#25 item 4)`, async () => {
    const s = await e2eSetup();
    const receiver = startOtlpReceiver();
    const server = await startFixtureModelServer({ script: modelFixture("read_and_edit") });
    try {
      await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/config.toml`, otelConfig(receiver.url, protocol));
      const run = await runTrellis(["exec", ...s.flags(server.url), "mark the secret TODO done"], {
        env: s.env,
        cwd: s.workspace,
      });
      assert.equal(run.code, 0, run.stderr);
      const traces = receiver.requests.filter((r) => r.path === "/v1/traces");
      assert.ok(traces.length > 0, "traces arrived");
      assert.match(
        traces[0].contentType,
        protocol === "json" ? /application\/json/ : /application\/x-protobuf/,
      );
      assert.equal(traces[0].headers.get("x-otlp-api-key"), "secret-k");
      const spans = receiver.spans();
      const byName = (name: string) => spans.filter((sp) => sp.name === name);
      const [session] = byName("trellis.session");
      const [turn] = byName("trellis.turn");
      assert.ok(session && turn, JSON.stringify(spans.map((sp) => sp.name)));
      assert.equal(turn.parentSpanId, session.spanId);
      const models = byName("trellis.model_request");
      assert.equal(models.length, 3);
      assert.ok(models.every((m) => m.parentSpanId === turn.spanId));
      const tools = byName("trellis.tool_call");
      assert.deepEqual(tools.map((t) => t.attributes["tool.name"]).sort(), ["edit_file", "read_file"]);
      assert.ok(
        tools.every((t) => t.parentSpanId === turn.spanId && t.attributes["tool.status"] === "completed"),
      );
      assert.ok(typeof turn.attributes["usage.input_tokens"] === "number");
      assert.equal(turn.attributes["user.prompt"], undefined, "log_user_prompt defaults to off");
      assert.ok(!new TextDecoder().decode(traces[0].body).includes("secret TODO"));
      assert.equal(receiver.resourceAttributes().env, "ci");
      assert.equal(receiver.resourceAttributes()["service.name"], "trellis");
      const metrics = new Set(receiver.metricNames());
      for (const name of ["trellis.tokens", "trellis.turn.duration", "trellis.model_request.duration"]) {
        assert.ok(metrics.has(name), `${name} in ${[...metrics]}`);
      }
    } finally {
      await server.close();
      await receiver.close();
    }
  });
}

Deno.test("[otel] log_user_prompt = true puts the prompt on the turn span; a failed model request is an error span and an errors metric (#25 item 4)", async () => {
  const s = await e2eSetup();
  const receiver = startOtlpReceiver();
  const server = await startFixtureModelServer({
    script: [{ fail: { status: 400, body: '{"error":{"message":"no"}}' } }],
  });
  try {
    await Deno.writeTextFile(
      `${s.env.TRELLIS_HOME}/config.toml`,
      otelConfig(receiver.url, "json", "log_user_prompt = true"),
    );
    const run = await runTrellis(["exec", ...s.flags(server.url), "the prompt text"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 1, run.stderr);
    const spans = receiver.spans();
    const turn = spans.find((sp) => sp.name === "trellis.turn");
    assert.equal(turn?.attributes["user.prompt"], "the prompt text");
    const bodies = receiver.requests.filter((r) => r.path === "/v1/traces").map((r) =>
      JSON.parse(new TextDecoder().decode(r.body))
    );
    const statuses = bodies.flatMap((b) =>
      b.resourceSpans.flatMap((rs: any) =>
        rs.scopeSpans.flatMap((ss: any) => ss.spans.map((sp: any) => [sp.name, sp.status?.code]))
      )
    );
    assert.ok(
      statuses.some(([name, code]) => name === "trellis.model_request" && code === 2),
      JSON.stringify(statuses),
    );
    assert.ok(receiver.metricNames().includes("trellis.errors"));
  } finally {
    await server.close();
    await receiver.close();
  }
});

Deno.test("[otel] a collector that refuses connections or never answers does not hold up the turn: exit 0, the answer printed (#25 item 4)", async () => {
  const s = await e2eSetup();
  // A port nobody listens on: bound, then closed.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const refused = `http://127.0.0.1:${(probe.addr as Deno.NetAddr).port}`;
  probe.close();
  const hung = startOtlpReceiver({ hang: true });
  const server = await startFixtureModelServer({ script: [{ text: "first" }, { text: "second" }] });
  try {
    for (const [base, answer] of [[refused, "first"], [hung.url, "second"]]) {
      await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/config.toml`, otelConfig(base, "binary"));
      // The harness kills a run after 30 s: a turn held by its exporter would fail here, not hang the suite.
      const run = await runTrellis(["exec", ...s.flags(server.url), "hi"], {
        env: s.env,
        cwd: s.workspace,
        timeoutMs: 30_000,
      });
      assert.equal(run.code, 0, `${base}: ${run.stderr}`);
      assert.equal(run.stdout, `${answer}\n`);
    }
    // The hung collector was reached (the export was tried) and held, yet the run ended.
    assert.ok(hung.requests.length > 0);
  } finally {
    await server.close();
    await hung.close();
  }
});

Deno.test('[otel] an exporter spelt wrongly is a config error naming the key (exit 2); no [otel] or exporter = "none" exports nothing (#25 item 4)', async () => {
  const s = await e2eSetup();
  const receiver = startOtlpReceiver();
  const server = await startFixtureModelServer({ script: [{ text: "a" }, { text: "b" }] });
  try {
    await Deno.writeTextFile(
      `${s.env.TRELLIS_HOME}/config.toml`,
      `[otel.trace_exporter.otlp-http]\nendpoint = "${receiver.url}/v1/traces"\nprotocol = "protobuf"\n`,
    );
    const bad = await runTrellis(["exec", ...s.flags(server.url), "hi"], { env: s.env, cwd: s.workspace });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /otel\.trace_exporter/);
    await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/config.toml`, `[otel]\nexporter = "none"\n`);
    const none = await runTrellis(["exec", ...s.flags(server.url), "hi"], { env: s.env, cwd: s.workspace });
    assert.equal(none.code, 0, none.stderr);
    assert.equal(receiver.requests.length, 0);
  } finally {
    await server.close();
    await receiver.close();
  }
});

Deno.test("[otel] exporter: the binary sends Codex's log events (json) for a real turn, the prompt redacted; no spans without trace_exporter (#25 item 4)", async () => {
  const s = await e2eSetup();
  const receiver = startOtlpReceiver();
  const server = await startFixtureModelServer({ script: modelFixture("read_and_edit") });
  try {
    await Deno.writeTextFile(
      `${s.env.TRELLIS_HOME}/config.toml`,
      `[otel.exporter.otlp-http]\nendpoint = "${receiver.url}/v1/logs"\nprotocol = "json"\n`,
    );
    const run = await runTrellis(["exec", ...s.flags(server.url), "mark the secret TODO done"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const names = receiver.logRecords().map((r) => r.eventName);
    for (
      const name of [
        "codex.conversation_starts",
        "codex.user_prompt",
        "codex.api_request",
        "codex.tool_result",
      ]
    ) {
      assert.ok(names.includes(name), `${name} in ${names}`);
    }
    assert.equal(names.filter((n) => n === "codex.api_request").length, 3, "one per model request");
    const prompt = receiver.logRecords().find((r) => r.eventName === "codex.user_prompt")!;
    assert.equal(prompt.attributes.prompt, "[REDACTED]");
    assert.ok(receiver.requests.every((r) => r.path === "/v1/logs"), "no spans, no metrics");
  } finally {
    await server.close();
    await receiver.close();
  }
});
