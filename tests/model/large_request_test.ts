import assert from "node:assert/strict";
import { createModelClient } from "../../lib/model/mod.ts";
import { collect, providerFor, request, withServer } from "./_fixture_client.ts";

const signal = () => new AbortController().signal;
const big = () => request({ input: [{ type: "message", role: "user", content: "x".repeat(1_200_000) }] });

Deno.test("afterLargeRequest runs once after a request body of 1 Mi characters or more is accepted; the body sent is the same as without it", async () => {
  await withServer({ steps: [{ text: "a" }, { text: "b" }] }, async (server) => {
    let calls = 0;
    await collect(
      createModelClient(providerFor(server.url, "responses"), { afterLargeRequest: () => calls++ })
        .stream(big(), signal()),
    );
    assert.equal(calls, 1);
    await collect(createModelClient(providerFor(server.url, "responses")).stream(big(), signal()));
    assert.equal(server.requests.length, 2);
    assert.deepEqual(server.requests[0], server.requests[1]);
  });
});

Deno.test("afterLargeRequest does not run for an ordinary request", async () => {
  await withServer({ steps: [{ text: "a" }] }, async (server) => {
    let calls = 0;
    await collect(
      createModelClient(providerFor(server.url, "chat"), { afterLargeRequest: () => calls++ })
        .stream(request(), signal()),
    );
    assert.equal(calls, 0);
    assert.equal(server.requests.length, 1);
  });
});
