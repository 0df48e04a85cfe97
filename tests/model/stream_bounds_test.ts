/**
 * A model stream is bounded (#13 item 13): keep-alive comments are not data, one response has a
 * size cap and a time cap, and reaching a cap is a clear, non-retried error.
 */
import assert from "node:assert/strict";
import { createModelClient, type ModelClientOptions, type WireApi } from "../../lib/model/mod.ts";
import type { ModelStreamEvent, TrellisError } from "../../lib/shared/mod.ts";
import type { FixtureStep } from "../../scripts/fixture_model_server.ts";
import { providerFor, request, WIRES, withServer } from "./_fixture_client.ts";

/**
 * Streams until the client gives up. A stream that never ends on its own is cut after 20 s, so
 * a client without the bound fails the assertion (CancelledError) instead of hanging the suite.
 */
async function outcome(
  url: string,
  wire: WireApi,
  options: ModelClientOptions,
): Promise<{ error: TrellisError; events: ModelStreamEvent[] }> {
  const guard = new AbortController();
  const timer = setTimeout(() => guard.abort(), 20_000);
  const events: ModelStreamEvent[] = [];
  try {
    const client = createModelClient(providerFor(url, wire), { baseDelayMs: 1, ...options });
    for await (const event of client.stream(request(), guard.signal)) events.push(event);
  } catch (error) {
    return { error: error as TrellisError, events };
  } finally {
    clearTimeout(timer);
  }
  throw new Error("expected the stream to fail");
}

function summary(error: TrellisError) {
  return { code: error.code, message: error.message.replace(/^.*?: /, "") };
}

const stalled: FixtureStep = { text: "one two three", stall_after_events: 3, keepalive_ms: 10 };

for (const wire of WIRES) {
  Deno.test(`stream() ends with the idle timeout when the ${wire} server sends only keep-alive comments`, async () => {
    await withServer([stalled], async (server) => {
      const { error } = await outcome(server.url, wire, { idleTimeoutMs: 300, streamMaxRetries: 0 });
      assert.deepEqual(summary(error), {
        code: "model_protocol",
        message: "no data for 300 ms (stream_idle_timeout_ms)",
      });
    });
  });

  Deno.test(`stream() stops at stream_max_bytes without retrying when the ${wire} server streams text forever`, async () => {
    await withServer([{ text: "endless ", endless: true }, { text: "never asked" }], async (server) => {
      const { error, events } = await outcome(server.url, wire, { maxResponseBytes: 200_000 });
      assert.deepEqual(summary(error), {
        code: "model_stream_limit",
        message: "the response exceeded 200000 bytes (stream_max_bytes)",
      });
      assert.deepEqual(error.data.field, "stream_max_bytes");
      assert.ok(events.length > 100, "the text streamed until the cap");
      assert.equal(server.requests.length, 1);
    });
  });

  Deno.test(`stream() stops at stream_max_duration_ms when the ${wire} server keeps streaming slowly`, async () => {
    await withServer([{ text: "slow ", endless: true, event_delay_ms: 10 }], async (server) => {
      const { error } = await outcome(server.url, wire, { maxResponseMs: 400, idleTimeoutMs: 60_000 });
      assert.deepEqual(summary(error), {
        code: "model_stream_limit",
        message: "the response took longer than 400 ms (stream_max_duration_ms)",
      });
      assert.equal(server.requests.length, 1);
    });
  });
}

Deno.test("stream() stops at stream_max_duration_ms when a server keeps the stream warm with comments only", async () => {
  await withServer([stalled], async (server) => {
    const { error } = await outcome(server.url, "responses", { maxResponseMs: 300, idleTimeoutMs: 60_000 });
    assert.deepEqual(summary(error), {
      code: "model_stream_limit",
      message: "the response took longer than 300 ms (stream_max_duration_ms)",
    });
  });
});

Deno.test("stream() completes a slow answer when each piece arrives within the idle timeout", async () => {
  await withServer([{ text: "a b c d e f g h", event_delay_ms: 100 }], async (server) => {
    const client = createModelClient(providerFor(server.url, "responses"), { idleTimeoutMs: 400 });
    const events: ModelStreamEvent[] = [];
    for await (const event of client.stream(request(), new AbortController().signal)) events.push(event);
    assert.equal(events.at(-1)?.type, "completed");
  });
});
