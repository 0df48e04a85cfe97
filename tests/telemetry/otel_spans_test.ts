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

Deno.test("openTelemetry: nothing configured, none, statsig, or only the log `exporter` exports nothing (#25 item 4)", async () => {
  const info = { serviceVersion: "0.1.0", model: "m", warn: () => {} };
  const receiver = startOtlpReceiver();
  try {
    assert.equal(await openTelemetry(undefined, info), null);
    assert.equal(await openTelemetry({ exporter: "none", trace_exporter: "none" }, info), null);
    assert.equal(await openTelemetry({ trace_exporter: "statsig", log_user_prompt: true }, info), null);
    // Codex 0.171: `exporter` is for log events and never implies traces (signal-specific endpoints).
    const logs = { "otlp-http": { endpoint: `${receiver.url}/v1/logs`, protocol: "json" as const } };
    assert.equal(await openTelemetry({ exporter: logs }, info), null);
    // The neighbour: trace_exporter set is where traces go.
    const traces = { "otlp-http": { endpoint: `${receiver.url}/v1/traces`, protocol: "json" as const } };
    const t = await openTelemetry({ exporter: logs, trace_exporter: traces }, info);
    assert.ok(t);
    await t.shutdown();
    assert.ok(receiver.spans().some((sp) => sp.name === "trellis.session"));
    assert.ok(receiver.requests.every((r) => r.path !== "/v1/logs"));
  } finally {
    await receiver.close();
  }
});
