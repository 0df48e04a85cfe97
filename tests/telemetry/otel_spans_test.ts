/**
 * #25 item 4: the spans of an MCP call, a hook run and a subagent, from the session's own events,
 * through the real SDK to a loopback OTLP/HTTP receiver (protobuf decoded); a failed hook and a
 * failed subagent are error spans and count in trellis.errors.
 */
import assert from "node:assert/strict";
import { openTelemetry } from "../../lib/telemetry/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { startOtlpReceiver } from "../helpers/otlp_receiver.ts";

Deno.test("openTelemetry: MCP call, hook and subagent spans under the turn; failures are errors (#25 item 4)", async () => {
  const receiver = startOtlpReceiver();
  try {
    const exporter = (path: string) => ({
      "otlp-http": { endpoint: `${receiver.url}${path}`, protocol: "binary" as const },
    });
    const telemetry = await openTelemetry(
      {
        trace_exporter: exporter("/v1/traces"),
        metrics_exporter: exporter("/v1/metrics"),
        span_attributes: { team: "ci" },
      },
      { serviceVersion: "0.1.0", model: "m", warn: (m) => assert.fail(m) },
    );
    assert.ok(telemetry);
    const seen: TrellisEventBody[] = [];
    const sink = telemetry.events((e) => seen.push(e));
    const mcpItem = {
      id: "i1",
      type: "mcp_tool_call",
      server: "github",
      tool: "search",
      arguments: {},
      name: "mcp__github__search",
      call_id: "c1",
      source: "mcp:github",
      call_status: "in_progress",
      status: "in_progress",
    } as const;
    const events: TrellisEventBody[] = [
      { type: "thread.started", thread_id: "t", resumed: false },
      { type: "turn.started", turn_id: "t-t1" },
      { type: "hook.started", run_id: "h1", event: "PreToolUse", source: "user" },
      {
        type: "hook.completed",
        run_id: "h1",
        event: "PreToolUse",
        source: "user",
        status: "failed",
        duration_ms: 3,
        display_order: 0,
        entries: [],
      },
      { type: "item.started", item: mcpItem as never },
      {
        type: "item.completed",
        item: { ...mcpItem, call_status: "completed", status: "completed" } as never,
      },
      {
        type: "agent.started",
        agent_id: "a1",
        agent_type: "reviewer",
        description: "d",
        call_id: "c2",
        transcript: null,
      },
      { type: "agent.completed", agent_id: "a1", agent_type: "reviewer", call_id: "c2", status: "failed" },
      {
        type: "turn.completed",
        turn_id: "t-t1",
        usage: { input_tokens: 10, cached_input_tokens: 2, output_tokens: 5, reasoning_output_tokens: 1 },
        steps: 1,
      },
    ];
    for (const event of events) sink(event);
    assert.equal(seen.length, events.length, "the consumer gets every event");
    await telemetry.shutdown();
    const spans = receiver.spans();
    const one = (name: string) => spans.find((sp) => sp.name === name)!;
    const turn = one("trellis.turn");
    for (const name of ["trellis.hook", "trellis.mcp_call", "trellis.subagent"]) {
      assert.equal(one(name)?.parentSpanId, turn.spanId, name);
      assert.equal(one(name).attributes.team, "ci");
    }
    assert.equal(one("trellis.mcp_call").attributes["mcp.server"], "github");
    assert.equal(one("trellis.hook").attributes["hook.event"], "PreToolUse");
    assert.equal(one("trellis.subagent").attributes["agent.type"], "reviewer");
    assert.equal(one("trellis.session").attributes["thread.id"], "t");
    const metrics = new Set(receiver.metricNames());
    assert.ok(
      metrics.has("trellis.errors") && metrics.has("trellis.tokens") &&
        metrics.has("trellis.tool_call.duration"),
    );
  } finally {
    await receiver.close();
  }
});

Deno.test("openTelemetry: nothing configured, none or statsig exports nothing; the log `exporter` gets log events only, never spans (#25 item 4)", async () => {
  const info = { serviceVersion: "0.1.0", model: "m", warn: () => {} };
  const receiver = startOtlpReceiver();
  try {
    assert.equal(await openTelemetry(undefined, info), null);
    assert.equal(await openTelemetry({ exporter: "none", trace_exporter: "none" }, info), null);
    assert.equal(await openTelemetry({ trace_exporter: "statsig", log_user_prompt: true }, info), null);
    // Codex 0.171: `exporter` is for log events and never implies traces (signal-specific endpoints).
    const logs = { "otlp-http": { endpoint: `${receiver.url}/v1/logs`, protocol: "json" as const } };
    const l = await openTelemetry({ exporter: logs }, info);
    assert.ok(l);
    l.events(() => {})({ type: "thread.started", thread_id: "t", resumed: false });
    await l.shutdown();
    assert.ok(receiver.requests.length > 0 && receiver.requests.every((r) => r.path === "/v1/logs"));
    // The neighbour: trace_exporter set is where traces go.
    const traces = { "otlp-http": { endpoint: `${receiver.url}/v1/traces`, protocol: "json" as const } };
    const t = await openTelemetry({ trace_exporter: traces }, info);
    assert.ok(t);
    await t.shutdown();
    assert.ok(receiver.spans().some((sp) => sp.name === "trellis.session"));
  } finally {
    await receiver.close();
  }
});

async function logEventsOf(logUserPrompt: boolean) {
  const receiver = startOtlpReceiver();
  try {
    const telemetry = await openTelemetry(
      {
        exporter: { "otlp-http": { endpoint: `${receiver.url}/v1/logs`, protocol: "json" } },
        log_user_prompt: logUserPrompt,
      },
      {
        serviceVersion: "0.1.0",
        model: "gpt-5",
        provider: "openai",
        approvalPolicy: "on-request",
        sandboxMode: "workspace-write",
        terminalType: "tmux",
        warn: (m) => assert.fail(m),
      },
    );
    assert.ok(telemetry);
    const sink = telemetry.events(() => {});
    const call = {
      id: "i1",
      type: "tool_call",
      name: "shell",
      call_id: "c1",
      arguments: '{"command":["ls"]}',
    };
    sink({ type: "thread.started", thread_id: "thread-1", resumed: false });
    telemetry.prompt("list the files");
    sink({
      type: "item.started",
      item: { ...call, source: "builtin", call_status: "in_progress", status: "in_progress" } as never,
    });
    sink({ type: "approval.decided", call_id: "c1", decision: "approved", by: "user" });
    sink({
      type: "item.completed",
      item: {
        ...call,
        source: "builtin",
        call_status: "completed",
        status: "completed",
        output: "a.txt",
      } as never,
    });
    // One model request through the wrapped client: its stream is the model's answer.
    const client = telemetry.model({
      async *stream() {
        yield {
          type: "completed" as const,
          usage: { inputTokens: 100, cachedInputTokens: 40, outputTokens: 7, reasoningTokens: 2 },
        } as never;
      },
    });
    for await (
      const _ of client.stream({ model: "gpt-5" } as never, new AbortController().signal)
    ) { /* drain */ }
    await telemetry.shutdown();
    return receiver.logRecords();
  } finally {
    await receiver.close();
  }
}

Deno.test("openTelemetry: Codex's log events, with its names and attributes, reach the log exporter; the prompt is redacted unless log_user_prompt (#25 item 4)", async () => {
  const records = await logEventsOf(false);
  const byName = (name: string) => records.find((r) => r.eventName === name)?.attributes;
  assert.deepEqual(records.map((r) => r.eventName), [
    "codex.conversation_starts",
    "codex.user_prompt",
    "codex.tool_decision",
    "codex.tool_result",
    "codex.api_request",
    "codex.sse_event",
  ]);
  for (const r of records) {
    assert.equal(r.attributes["event.name"], r.eventName);
    assert.equal(r.attributes["conversation.id"], "thread-1");
    assert.equal(r.attributes.model, "gpt-5");
    assert.equal(r.attributes["terminal.type"], "tmux");
    assert.match(String(r.attributes["event.timestamp"]), /^\d{4}-\d\d-\d\dT/);
  }
  assert.equal(byName("codex.conversation_starts")!.approval_policy, "on-request");
  assert.equal(byName("codex.conversation_starts")!.provider_name, "openai");
  assert.deepEqual(
    [byName("codex.user_prompt")!.prompt, byName("codex.user_prompt")!.prompt_length],
    ["[REDACTED]", 14],
  );
  assert.deepEqual(
    [
      byName("codex.tool_decision")!.tool_name,
      byName("codex.tool_decision")!.decision,
      byName("codex.tool_decision")!.source,
    ],
    ["shell", "approved", "User"],
  );
  const result = byName("codex.tool_result")!;
  assert.deepEqual([result.tool_name, result.call_id, result.success, result.output], [
    "shell",
    "c1",
    "true",
    "a.txt",
  ]);
  assert.equal(result.arguments, '{"command":["ls"]}');
  const sse = byName("codex.sse_event")!;
  assert.deepEqual(
    [
      sse["event.kind"],
      sse.input_token_count,
      sse.cached_token_count,
      sse.output_token_count,
      sse.reasoning_token_count,
    ],
    ["response.completed", 100, 40, 7, 2],
  );
  // The neighbour: with log_user_prompt the text itself is sent.
  const logged = await logEventsOf(true);
  assert.equal(logged.find((r) => r.eventName === "codex.user_prompt")!.attributes.prompt, "list the files");
});

Deno.test("openTelemetry: a tls file that cannot be read is one error naming the file and [otel] tls, never a stack trace (#25 bad input)", async () => {
  const missing = "/nonexistent/trellis-ca.pem";
  await assert.rejects(
    openTelemetry(
      {
        trace_exporter: {
          "otlp-http": {
            endpoint: "https://127.0.0.1:9/v1/traces",
            protocol: "json",
            tls: { "ca-certificate": missing },
          },
        },
      },
      {
        serviceVersion: "0.1.0",
        model: "m",
        readFile: (file) => Deno.readTextFileSync(file),
        warn: () => {},
      },
    ),
    (error: Error) => {
      assert.equal(error.name, "UsageError");
      assert.match(error.message, new RegExp(`Cannot read the \\[otel\\] tls file ${missing}`));
      return true;
    },
  );
});

Deno.test("openTelemetry: a readable tls file is read and the exporter starts (the neighbour of the unreadable one)", async () => {
  // A self-signed CA made for these tests (openssl, P-256); no collector listens: nothing connects.
  const ca = new URL("../../fixtures/otel/test-ca.pem", import.meta.url).pathname;
  const read: string[] = [];
  {
    const telemetry = await openTelemetry(
      {
        trace_exporter: {
          "otlp-http": {
            endpoint: "https://127.0.0.1:9/v1/traces",
            protocol: "json",
            tls: { "ca-certificate": ca },
          },
        },
      },
      {
        serviceVersion: "0.1.0",
        model: "m",
        readFile: (file) => {
          read.push(file);
          return Deno.readTextFileSync(file);
        },
        warn: () => {},
      },
    );
    assert.ok(telemetry);
    assert.deepEqual(read, [ca]);
    await telemetry.shutdown();
  }
});
