import assert from "node:assert/strict";
import { createModelClient } from "../../lib/model/mod.ts";
import type { ConversationItem } from "../../lib/shared/mod.ts";
import { collect, providerFor, request, withServer } from "./_fixture_client.ts";

// The fixture server's means for compaction tests (#15 item 6): replies answered wherever their
// request comes, a small context window, and the Responses API's refusal of an orphan output.

const signal = () => new AbortController().signal;
const user = (content: string): ConversationItem => ({ type: "message", role: "user", content });

async function answer(url: string, input: ConversationItem[]): Promise<string> {
  const client = createModelClient(providerFor(url, "responses")); // a 400 is never retried
  const events = await collect(client.stream(request({ input }), signal()));
  return events.flatMap((e) => e.type === "item_done" && e.item.type === "message" ? [e.item.content] : [])
    .join();
}

async function refusal(url: string, input: ConversationItem[]): Promise<string> {
  try {
    await answer(url, input);
  } catch (error) {
    return (error as Error).message;
  }
  return "(answered)";
}

Deno.test("startFixtureModelServer() answers matching requests from replies without advancing the steps", async () => {
  await withServer({
    steps: [{ text: "one" }, { text: "two" }],
    replies: [{ when_input_contains: "SUMMARIZE", text: "summary {n}" }],
  }, async (server) => {
    assert.deepEqual([
      await answer(server.url, [user("hi")]),
      await answer(server.url, [user("hi"), user("SUMMARIZE please")]),
      await answer(server.url, [user("SUMMARIZE again")]),
      await answer(server.url, [user("SUMMARIZE"), user("hi")]), // only the last input item counts
    ], ["one", "summary 1", "summary 2", "two"]);
  });
});

Deno.test("startFixtureModelServer() refuses a request over context_window, and an output without its call", async () => {
  await withServer({ steps: [{ text: "fits" }], context_window: 200 }, async (server) => {
    assert.match(
      await refusal(server.url, [user("x".repeat(1000))]),
      /HTTP 400: Your input exceeds the context window/,
    );
    assert.match(
      await refusal(server.url, [{
        type: "function_call_output",
        callId: "c9",
        output: "o",
        status: "success",
      }]),
      /HTTP 400: No tool call found for function call output with call_id c9/,
    );
    assert.equal(await answer(server.url, [user("short")]), "fits");
  });
});
