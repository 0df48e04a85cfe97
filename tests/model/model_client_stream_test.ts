import assert from "node:assert/strict";
import { createModelClient } from "../../lib/model/mod.ts";
import {
  collect,
  providerFor,
  request,
  WIRE_PATHS,
  WIRES,
  withoutIds,
  withServer,
} from "./_fixture_client.ts";

const signal = () => new AbortController().signal;

function textDeltas(events: { type: string; delta?: string }[]): string {
  return events.filter((event) => event.type === "text_delta").map((event) => event.delta).join("");
}

for (const wire of WIRES) {
  Deno.test(`createModelClient().stream() streams text deltas, the message and usage when the ${wire} API answers text`, async () => {
    await withServer("text_reply", async (server) => {
      const events = await collect(
        createModelClient(providerFor(server.url, wire)).stream(request(), signal()),
      );
      assert.equal(textDeltas(events), "Hello from the fixture model.");
      assert.ok(events.filter((event) => event.type === "text_delta").length > 1);
      assert.deepEqual(withoutIds(events.filter((event) => event.type !== "text_delta")), [
        {
          type: "item_done",
          item: { type: "message", role: "assistant", content: "Hello from the fixture model." },
        },
        {
          type: "completed",
          usage: { inputTokens: 42, cachedInputTokens: 8, outputTokens: 6, reasoningTokens: 0 },
        },
      ]);
    });
  });

  Deno.test(`createModelClient().stream() yields one function_call item when the ${wire} API calls a tool`, async () => {
    await withServer("single_read_file", async (server) => {
      const events = await collect(
        createModelClient(providerFor(server.url, wire)).stream(request(), signal()),
      );
      const calls = events.flatMap((event) => event.type === "item_done" ? [event.item] : []);
      assert.equal(calls.length, 1);
      assert.equal(calls[0].type, "function_call");
      if (calls[0].type !== "function_call") return;
      assert.match(calls[0].callId, wire === "messages" ? /^toolu_/ : /^call_/);
      assert.deepEqual(
        { name: calls[0].name, arguments: JSON.parse(calls[0].arguments) },
        { name: "read_file", arguments: { path: "notes.md" } },
      );
      assert.equal(events.at(-1)?.type, "completed");
    });
  });

  Deno.test(`createModelClient().stream() yields both calls in order when the ${wire} API calls two tools in parallel`, async () => {
    await withServer("parallel_calls", async (server) => {
      const events = await collect(
        createModelClient(providerFor(server.url, wire)).stream(request(), signal()),
      );
      const calls = withoutIds(events).filter((event: any) => event.type === "item_done");
      assert.deepEqual(calls, [
        {
          type: "item_done",
          item: { type: "function_call", callId: "<call>", name: "read_file", arguments: '{"path":"a.md"}' },
        },
        {
          type: "item_done",
          item: { type: "function_call", callId: "<call>", name: "list_dir", arguments: '{"path":"."}' },
        },
      ]);
      const ids = events.flatMap((event) =>
        event.type === "item_done" && event.item.type === "function_call" ? [event.item.callId] : []
      );
      assert.equal(new Set(ids).size, 2);
    });
  });

  Deno.test(`createModelClient().stream() streams reasoning and counts reasoning tokens when the ${wire} API reasons`, async () => {
    await withServer("reasoning_reply", async (server) => {
      const events = await collect(
        createModelClient(providerFor(server.url, wire)).stream(request(), signal()),
      );
      const reasoning = events.filter((event) => event.type === "reasoning_delta").map((event: any) =>
        event.delta
      );
      assert.equal(reasoning.join(""), "Thinking it through.");
      assert.deepEqual(
        withoutIds(events.filter((event) => event.type === "item_done" || event.type === "completed")),
        [
          // The Messages API signs its thinking and counts it inside output_tokens.
          wire === "messages"
            ? {
              type: "item_done",
              item: {
                type: "reasoning",
                summary: "Thinking it through.",
                signature: "sig:VGhpbmtpbmcgaXQgdGhyb3VnaC4=",
              },
            }
            : { type: "item_done", item: { type: "reasoning", summary: "Thinking it through." } },
          { type: "item_done", item: { type: "message", role: "assistant", content: "The answer is 4." } },
          {
            type: "completed",
            usage: wire === "messages"
              ? { inputTokens: 20, cachedInputTokens: 0, outputTokens: 14, reasoningTokens: 0 }
              : { inputTokens: 20, cachedInputTokens: 0, outputTokens: 9, reasoningTokens: 5 },
          },
        ],
      );
    });
  });

  Deno.test(`createModelClient().stream() sends headers, key and query params when the ${wire} provider sets them`, async () => {
    let seen: { url: string; headers: Headers } | undefined;
    await withServer("text_reply", async (server) => {
      const spy: typeof fetch = (input, init) => {
        seen = { url: String(input), headers: new Headers(init?.headers) };
        return fetch(input, init);
      };
      const provider = providerFor(server.url, wire, {
        apiKey: "sk-test",
        headers: { "x-team": "blue" },
        queryParams: { "api-version": "1" },
      });
      await collect(createModelClient(provider, { fetch: spy }).stream(request(), signal()));
      // The Messages wire authenticates with x-api-key, as Claude Code does.
      const auth = wire === "messages" ? seen?.headers.get("x-api-key") : seen?.headers.get("authorization");
      assert.deepEqual(
        { url: seen?.url, auth, team: seen?.headers.get("x-team") },
        {
          url: `${server.url}/${WIRE_PATHS[wire]}?api-version=1`,
          auth: wire === "messages" ? "sk-test" : "Bearer sk-test",
          team: "blue",
        },
      );
      if (wire === "messages") assert.equal(seen?.headers.get("anthropic-version"), "2023-06-01");
      assert.equal((server.requests[0] as { stream: boolean }).stream, true);
    });
  });
}

Deno.test("createModelClient().stream() sends the reasoning options in each wire's shape when they are set", async () => {
  await withServer([{ text: "a" }, { text: "b" }], async (server) => {
    const reasoning = { effort: "high", summary: "auto" as const };
    await collect(
      createModelClient(providerFor(server.url, "responses"), { reasoning }).stream(request(), signal()),
    );
    await collect(
      createModelClient(providerFor(server.url, "chat"), { reasoning }).stream(request(), signal()),
    );
    const [responses, chat] = server.requests as Record<string, unknown>[];
    assert.deepEqual([responses.reasoning, chat.reasoning_effort], [reasoning, "high"]);
  });
});

Deno.test("createModelClient().stream() keeps the encrypted reasoning the Responses API returns when reasoning is set", async () => {
  await withServer("reasoning_reply", async (server) => {
    const client = createModelClient(providerFor(server.url, "responses"), { reasoning: { effort: "low" } });
    const events = await collect(client.stream(request(), signal()));
    const reasoning = events.flatMap((event) =>
      event.type === "item_done" && event.item.type === "reasoning" ? [event.item] : []
    );
    assert.deepEqual(reasoning.map(({ id: _, ...item }) => item), [{
      type: "reasoning",
      summary: "Thinking it through.",
      encryptedContent: `enc:${btoa("Thinking it through.")}`,
    }]);
    assert.deepEqual((server.requests[0] as { include?: string[] }).include, ["reasoning.encrypted_content"]);
  });
});

Deno.test("createModelClient().stream() asks for no encrypted reasoning and sends none back when reasoning is unset", async () => {
  await withServer("reasoning_reply", async (server) => {
    const input = [
      { type: "message" as const, role: "user" as const, content: "hi" },
      { type: "reasoning" as const, summary: "earlier", encryptedContent: "enc:earlier" },
    ];
    const events = await collect(
      createModelClient(providerFor(server.url, "responses")).stream(request({ input }), signal()),
    );
    const item = events.find((event) => event.type === "item_done" && event.item.type === "reasoning");
    assert.equal(item?.type === "item_done" && "encryptedContent" in item.item, false);
    const body = server.requests[0] as { include?: unknown; input: { type: string }[] };
    assert.deepEqual([body.include, body.input.map((i) => i.type)], [undefined, ["message"]]);
  });
});
