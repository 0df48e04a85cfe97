import assert from "node:assert/strict";
import { createModelClient, type RetryInfo } from "../../lib/model/mod.ts";
import { CancelledError, type TrellisError } from "../../lib/shared/mod.ts";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import {
  collect,
  providerFor,
  request,
  streamError,
  WIRE_PATHS,
  WIRES,
  withServer,
} from "./_fixture_client.ts";

const signal = () => new AbortController().signal;
const fast = { baseDelayMs: 1 };

function summary(error: unknown) {
  const e = error as TrellisError;
  return { name: e.name, code: e.code, message: e.message };
}

for (const wire of WIRES) {
  Deno.test(`createModelClient().stream() retries and succeeds when the ${wire} server answers 500 once`, async () => {
    await withServer("fail_500_once", async (server) => {
      const retries: RetryInfo[] = [];
      const client = createModelClient(providerFor(server.url, wire), {
        ...fast,
        onRetry: (info) => retries.push(info),
      });
      const events = await collect(client.stream(request(), signal()));
      assert.equal(events.at(-1)?.type, "completed");
      assert.equal(server.requests.length, 2);
      assert.deepEqual(retries.map(({ delayMs: _, ...info }) => info), [
        { attempt: 1, maxRetries: 4, status: 500, reason: "HTTP 500" },
      ]);
    });
  });

  Deno.test(`createModelClient().stream() fails with model_http and the status when the ${wire} server keeps answering 500`, async () => {
    await withServer("fail_500_always", async (server) => {
      const error = await streamError(
        createModelClient(providerFor(server.url, wire), fast).stream(request(), signal()),
      );
      const path = WIRE_PATHS[wire];
      assert.deepEqual(summary(error), {
        name: "TrellisError",
        code: "model_http",
        message:
          `Cannot get a model response from "${server.url}/${path}": HTTP 500 after 5 attempts: The server had an error`,
      });
      assert.equal((error as TrellisError).data.status, 500);
      assert.equal(server.requests.length, 5);
    });
  });

  Deno.test(`createModelClient().stream() says which variable to check when the ${wire} server answers 401`, async () => {
    await withServer("unauthorized", async (server) => {
      const provider = providerFor(server.url, wire, { apiKey: "sk-secret-123", envKey: "FIXTURE_API_KEY" });
      const error = await streamError(createModelClient(provider, fast).stream(request(), signal()));
      assert.deepEqual(summary(error), {
        name: "TrellisError",
        code: "model_auth",
        message:
          'Cannot authenticate with model provider "Fixture": HTTP 401, check FIXTURE_API_KEY: Incorrect API key provided.',
      });
      assert.equal(server.requests.length, 1);
    });
  });

  Deno.test(`createModelClient().stream() names the model and URL when the ${wire} endpoint is 404`, async () => {
    await withServer([], async (server) => {
      const baseUrl = server.url.replace(/\/v1$/, "/v2");
      const error = await streamError(
        createModelClient(providerFor(baseUrl, wire), fast).stream(request(), signal()),
      );
      const path = WIRE_PATHS[wire];
      assert.deepEqual(summary(error), {
        name: "TrellisError",
        code: "model_not_found",
        message:
          `Cannot find model "fixture-model" at "${baseUrl}/${path}": HTTP 404: Not found: POST /v2/${path}`,
      });
    });
  });

  Deno.test(`createModelClient().stream() fails with model_protocol when the ${wire} server sends garbage`, async () => {
    await withServer("garbage", async (server) => {
      const error = await streamError(
        createModelClient(providerFor(server.url, wire), fast).stream(request(), signal()),
      );
      assert.equal((error as TrellisError).code, "model_protocol");
      assert.match(
        (error as Error).message,
        /^Cannot read the model stream from ".*": invalid JSON in "message" event/,
      );
      assert.equal(server.requests.length, 1);
    });
  });

  Deno.test(`createModelClient().stream() fails after the partial text when the ${wire} server drops the stream`, async () => {
    await withServer("drop_midway", async (server) => {
      const seen: string[] = [];
      let failure: unknown;
      try {
        for await (
          const event of createModelClient(providerFor(server.url, wire), fast).stream(request(), signal())
        ) {
          if (event.type === "text_delta") seen.push(event.delta);
        }
      } catch (error) {
        failure = error;
      }
      assert.ok(seen.length > 0);
      assert.equal((failure as TrellisError).code, "model_protocol");
      assert.match((failure as Error).message, /model stream ended before the response completed$/);
      assert.equal(server.requests.length, 1);
    });
  });

  Deno.test(`createModelClient().stream() throws CancelledError promptly when aborted mid-stream on ${wire}`, async () => {
    await withServer("slow_stream", async (server) => {
      const controller = new AbortController();
      const deltas: string[] = [];
      let failure: unknown;
      try {
        for await (
          const event of createModelClient(providerFor(server.url, wire)).stream(request(), controller.signal)
        ) {
          if (event.type === "text_delta" && event.delta.trim()) {
            deltas.push(event.delta);
            controller.abort();
          }
        }
      } catch (error) {
        failure = error;
      }
      assert.ok(failure instanceof CancelledError);
      assert.deepEqual(deltas, ["one "]);
    });
  });
}

Deno.test("createModelClient().stream() waits as Retry-After says when the server answers 429", async () => {
  await withServer("rate_limited_once", async (server) => {
    const retries: RetryInfo[] = [];
    const client = createModelClient(providerFor(server.url, "responses"), {
      ...fast,
      onRetry: (i) => retries.push(i),
    });
    const events = await collect(client.stream(request(), signal()));
    assert.equal(events.at(-1)?.type, "completed");
    assert.deepEqual(retries, [{
      attempt: 1,
      maxRetries: 4,
      delayMs: 1000,
      status: 429,
      reason: "HTTP 429",
    }]);
  });
});

Deno.test("createModelClient().stream() fails with model_unreachable naming the URL when nothing listens", async () => {
  const server = await startFixtureModelServer({ script: [] });
  await server.close();
  const provider = providerFor(server.url, "responses", { apiKey: "sk-never-shown" });
  const error = await streamError(
    createModelClient(provider, { ...fast, maxRetries: 2 }).stream(request(), signal()),
  );
  const e = error as TrellisError;
  assert.deepEqual({ code: e.code, attempts: e.data.attempts }, { code: "model_unreachable", attempts: 3 });
  assert.ok(e.message.startsWith(`Cannot reach model provider "Fixture" at "${server.url}": `), e.message);
  assert.ok(!e.message.includes("sk-never-shown"));
});

Deno.test("createModelClient().stream() never shows the API key when the server echoes it", async () => {
  const script = [{
    fail: { status: 401, body: { error: { message: "Incorrect API key provided: sk-leaky-key" } } },
  }];
  await withServer(script, async (server) => {
    const provider = providerFor(server.url, "responses", {
      apiKey: "sk-leaky-key",
      envKey: "OPENAI_API_KEY",
    });
    const error = await streamError(createModelClient(provider, fast).stream(request(), signal()));
    assert.equal(
      (error as Error).message,
      'Cannot authenticate with model provider "Fixture": HTTP 401, check OPENAI_API_KEY: Incorrect API key provided: ***',
    );
  });
});

Deno.test("createModelClient().stream() retries a stream that broke before any event when the server drops early", async () => {
  const script = [{ text: "never seen", drop_after_events: 1 }, { text: "second try" }];
  await withServer(script, async (server) => {
    const events = await collect(
      createModelClient(providerFor(server.url, "responses"), fast).stream(request(), signal()),
    );
    const text = events.flatMap((event) => event.type === "text_delta" ? [event.delta] : []).join("");
    assert.equal(text, "second try");
    assert.equal(server.requests.length, 2);
  });
});

Deno.test("createModelClient().stream() reports the provider's message when the response fails in-stream", async () => {
  const body = [
    'event: response.failed\ndata: {"type":"response.failed","response":{"error":{"code":"server_error","message":"boom"}}}\n\n',
  ].join("");
  const fakeFetch: typeof fetch = () =>
    Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
  const provider = providerFor("http://fake.invalid/v1", "responses");
  const error = await streamError(
    createModelClient(provider, { fetch: fakeFetch }).stream(request(), signal()),
  );
  assert.deepEqual(summary(error), {
    name: "TrellisError",
    code: "model_http",
    message:
      'Cannot complete the model response from "http://fake.invalid/v1/responses": boom (server_error)',
  });
});

Deno.test("createModelClient().stream() fails with model_protocol when no data arrives within the idle timeout", async () => {
  const script = [{ text: "slow words here", event_delay_ms: 2000 }, { text: "also slow", delay_ms: 2000 }];
  await withServer(script, async (server) => {
    const client = createModelClient(providerFor(server.url, "chat"), {
      ...fast,
      idleTimeoutMs: 50,
      streamMaxRetries: 0,
    });
    const error = await streamError(client.stream(request(), signal()));
    assert.equal((error as TrellisError).code, "model_protocol");
    assert.match((error as Error).message, /no data for 50 ms \(stream_idle_timeout_ms\)$/);
  });
});

Deno.test("createModelClient().stream() fails with model_unreachable when the server never answers the request", async () => {
  await withServer([{ text: "late", delay_ms: 5000 }], async (server) => {
    const client = createModelClient(providerFor(server.url, "responses"), {
      ...fast,
      idleTimeoutMs: 50,
      maxRetries: 1,
    });
    const error = await streamError(client.stream(request(), signal()));
    assert.deepEqual(summary(error), {
      name: "TrellisError",
      code: "model_unreachable",
      message: `Cannot reach model provider "Fixture" at "${server.url}": no response within 50 ms`,
    });
  });
});
