import assert from "node:assert/strict";
import { createModelClient, resolveProvider, type RetryInfo } from "../../lib/model/mod.ts";
import type { ConversationItem, ModelStreamEvent, TrellisError } from "../../lib/shared/mod.ts";
import { collect, providerFor, request, streamError, withServer } from "./_fixture_client.ts";

// #23 item 1: the Anthropic Messages wire, against the real fixture model server speaking it.

const signal = () => new AbortController().signal;
const fast = { baseDelayMs: 1 };
const messages = (url: string, extra = {}) => providerFor(url, "messages", extra);
const items = (events: ModelStreamEvent[]) =>
  events.flatMap((e) => e.type === "item_done" ? [e.item] : []) as ConversationItem[];
const bodies = (requests: unknown[]) => requests as Record<string, any>[];

function summary(error: unknown) {
  const e = error as TrellisError;
  return { code: e.code, message: e.message };
}

Deno.test("messages wire: text streams as deltas and completes with Anthropic usage added up (#23 item 1)", async () => {
  await withServer([{
    text: "Hello there.",
    usage: { input_tokens: 100, cached_tokens: 60, output_tokens: 3 },
  }], async (server) => {
    const events = await collect(createModelClient(messages(server.url)).stream(request(), signal()));
    assert.deepEqual(events.filter((e) => e.type === "text_delta").map((e) => e.delta), ["Hello ", "there."]);
    assert.deepEqual(items(events), [{ type: "message", role: "assistant", content: "Hello there." }]);
    assert.deepEqual(events.at(-1), {
      type: "completed",
      usage: { inputTokens: 100, cachedInputTokens: 60, outputTokens: 3, reasoningTokens: 0 },
    });
    const body = bodies(server.requests)[0];
    assert.equal(body.max_tokens, 32000);
    assert.equal(body.stream, true);
    assert.equal("thinking" in body, false, "no model_reasoning_effort: no thinking");
  });
});

Deno.test("messages wire: thinking from model_reasoning_effort; the signed block goes back on the next request (#23 item 1)", async () => {
  await withServer("anthropic_thinking_tool", async (server) => {
    const client = createModelClient(messages(server.url), { ...fast, reasoning: { effort: "high" } });
    const tools = [{ name: "read_file", description: "Reads a file.", parameters: { type: "object" } }];
    const first = await collect(client.stream(request({ tools }), signal()));
    assert.equal(
      first.filter((e) => e.type === "reasoning_delta").map((e) => e.delta).join(""),
      "I should read the notes first.",
    );
    const produced = items(first);
    assert.equal(produced[0].type, "reasoning");
    assert.match((produced[0] as { signature?: string }).signature ?? "", /^sig:/);
    const call = produced[1] as Extract<ConversationItem, { type: "function_call" }>;
    assert.deepEqual({ name: call.name, arguments: JSON.parse(call.arguments) }, {
      name: "read_file",
      arguments: { path: "notes.md" },
    });
    const output: ConversationItem = {
      type: "function_call_output",
      callId: call.callId,
      output: "hello",
      status: "success",
    };
    const input = [...request().input, ...produced, output];
    const second = await collect(client.stream(request({ tools, input }), signal()));
    assert.equal(second.at(-1)?.type, "completed", "the server accepted the thinking block's signature");
    const body = bodies(server.requests)[1];
    assert.deepEqual(body.thinking, { type: "enabled", budget_tokens: 31999 });
    assert.deepEqual(body.messages[1].content.map((b: { type: string }) => b.type), ["thinking", "tool_use"]);
    assert.equal(body.messages[1].content[0].signature, (produced[0] as { signature?: string }).signature);
    assert.deepEqual(body.messages[2].content[0].tool_use_id, call.callId);
  });
});

Deno.test("messages wire: without its thinking block the server refuses a thinking tool-use turn (the neighbour) (#23 item 1)", async () => {
  await withServer("anthropic_thinking_tool", async (server) => {
    const client = createModelClient(messages(server.url), {
      ...fast,
      maxRetries: 0,
      reasoning: { effort: "low" },
    });
    const first = items(await collect(client.stream(request(), signal())));
    const call = first[1] as Extract<ConversationItem, { type: "function_call" }>;
    const output: ConversationItem = {
      type: "function_call_output",
      callId: call.callId,
      output: "hello",
      status: "success",
    };
    const error = await streamError(
      client.stream(request({ input: [...request().input, call, output] }), signal()),
    );
    assert.equal((error as TrellisError).code, "model_http");
    assert.match(
      (error as TrellisError).message,
      /HTTP 400: messages: Expected `thinking` or `redacted_thinking`/,
    );
    assert.equal(bodies(server.requests)[1].thinking.budget_tokens, 4000);
  });
});

Deno.test("messages wire: redacted thinking and parallel calls share one assistant message; results one user message (#23 item 1)", async () => {
  await withServer("anthropic_parallel_thinking", async (server) => {
    const client = createModelClient(messages(server.url), { ...fast, reasoning: { effort: "medium" } });
    const produced = items(await collect(client.stream(request(), signal())));
    assert.deepEqual(produced.map((i) => i.type), [
      "reasoning",
      "reasoning",
      "function_call",
      "function_call",
    ]);
    assert.deepEqual(produced[0], { type: "reasoning", summary: "", redactedData: "EncryptedOpaqueData==" });
    const outputs: ConversationItem[] = produced.flatMap((i) =>
      i.type === "function_call"
        ? [{
          type: "function_call_output" as const,
          callId: i.callId,
          output: `read ${i.arguments}`,
          status: "success" as const,
        }]
        : []
    );
    const done = await collect(
      client.stream(request({ input: [...request().input, ...produced, ...outputs] }), signal()),
    );
    assert.equal(done.at(-1)?.type, "completed");
    const body = bodies(server.requests)[1];
    assert.deepEqual(body.messages.map((m: { role: string }) => m.role), ["user", "assistant", "user"]);
    assert.deepEqual(body.messages[1].content.map((b: { type: string }) => b.type), [
      "redacted_thinking",
      "thinking",
      "tool_use",
      "tool_use",
    ]);
    assert.deepEqual(body.messages[2].content.map((b: { type: string }) => b.type), [
      "tool_result",
      "tool_result",
    ]);
    assert.equal(body.messages[1].content[0].data, "EncryptedOpaqueData==");
  });
});

Deno.test("messages wire: cache_control on the system block and the moving end, never on tools (Claude Code 2.1.332's placement) (#23 item 1)", async () => {
  await withServer([{ text: "a" }, { text: "b" }], async (server) => {
    const client = createModelClient(messages(server.url));
    const tools = [{ name: "t", description: "T.", parameters: { type: "object" } }];
    await collect(client.stream(request({ tools }), signal()));
    const later: ConversationItem[] = [
      ...request().input,
      { type: "message", role: "assistant", content: "a" },
      { type: "message", role: "user", content: "again" },
    ];
    await collect(client.stream(request({ tools, input: later }), signal()));
    for (const body of bodies(server.requests)) {
      assert.deepEqual(body.system, [{
        type: "text",
        text: "Be brief.",
        cache_control: { type: "ephemeral" },
      }]);
      assert.equal(body.tools.some((t: Record<string, unknown>) => "cache_control" in t), false);
      const marked = body.messages.flatMap((m: { content: Record<string, unknown>[] }, i: number) =>
        m.content.flatMap((b, j) => b.cache_control ? [[i, j]] : [])
      );
      const last = body.messages.length - 1;
      assert.deepEqual(marked, [[last, body.messages[last].content.length - 1]]);
    }
  });
});

Deno.test("messages wire: images go as image blocks in user content and in tool_result (#23 item 1)", async () => {
  await withServer([{ text: "ok" }], async (server) => {
    const input: ConversationItem[] = [
      {
        type: "message",
        role: "user",
        content: "look",
        images: [{ mimeType: "image/png", data: "iVBORw0K" }],
      },
      { type: "function_call", callId: "toolu_1", name: "shot", arguments: "{}" },
      {
        type: "function_call_output",
        callId: "toolu_1",
        output: "a screenshot",
        status: "success",
        content: [{ type: "text", text: "a screenshot" }, {
          type: "image",
          mimeType: "image/jpeg",
          data: "/9j/4AAQ",
        }],
      },
    ];
    await collect(createModelClient(messages(server.url)).stream(request({ input }), signal()));
    const [user, , results] = bodies(server.requests)[0].messages;
    assert.deepEqual(user.content[1], {
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw0K" },
    });
    assert.deepEqual(results.content[0].content, [
      { type: "text", text: "a screenshot" },
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQ" } },
    ]);
  });
});

Deno.test("messages wire: a 401 names the provider and ANTHROPIC_API_KEY, and the key never shows (#23 bad input)", async () => {
  await withServer("anthropic_unauthorized", async (server) => {
    const env = { ANTHROPIC_API_KEY: "sk-ant-secret", ANTHROPIC_BASE_URL: server.url.replace(/\/v1$/, "") };
    const provider = resolveProvider({ model_provider: "anthropic" }, (n) => env[n as keyof typeof env]);
    assert.equal(provider.baseUrl, server.url);
    const error = await streamError(createModelClient(provider, fast).stream(request(), signal()));
    assert.deepEqual(summary(error), {
      code: "model_auth",
      message:
        'Cannot authenticate with model provider "Anthropic": HTTP 401, check ANTHROPIC_API_KEY: invalid x-api-key',
    });
    assert.equal(server.requests.length, 1, "a 401 is not retried");
  });
});

Deno.test("messages wire: without ANTHROPIC_API_KEY the provider does not resolve, and says which variable (the neighbour)", () => {
  assert.throws(
    () => resolveProvider({ model_provider: "anthropic" }, () => undefined),
    /Cannot use model provider "anthropic": set the environment variable ANTHROPIC_API_KEY/,
  );
});

Deno.test("messages wire: 529 overloaded is retried with backoff and then answered (#23 item 1)", async () => {
  await withServer("overloaded_then_answer", async (server) => {
    const retries: RetryInfo[] = [];
    const client = createModelClient(messages(server.url), { ...fast, onRetry: (r) => retries.push(r) });
    const events = await collect(client.stream(request(), signal()));
    assert.deepEqual(items(events), [{ type: "message", role: "assistant", content: "Not yet." }]);
    assert.deepEqual(retries.map((r) => [r.attempt, r.status]), [[1, 529], [2, 529]]);
  });
});

Deno.test("messages wire: a 529 storm ends after the bounded retries with a clear error (#23 bad input)", async () => {
  await withServer("overloaded_storm", async (server) => {
    const error = await streamError(
      createModelClient(messages(server.url), { ...fast, maxRetries: 3 }).stream(request(), signal()),
    );
    assert.deepEqual(summary(error), {
      code: "model_http",
      message:
        `Cannot get a model response from "${server.url}/messages": HTTP 529 after 4 attempts: Overloaded`,
    });
    assert.equal(server.requests.length, 4);
  });
});

Deno.test("messages wire: a stream cut inside a tool call's JSON is retried, bounded, and yields no half call (#23 bad input)", async () => {
  await withServer("tool_json_cut", async (server) => {
    const seen: ModelStreamEvent[] = [];
    const stream = createModelClient(messages(server.url), { ...fast, streamMaxRetries: 2 }).stream(
      request(),
      signal(),
    );
    let error: unknown;
    try {
      for await (const event of stream) seen.push(event);
    } catch (caught) {
      error = caught;
    }
    assert.deepEqual(summary(error), {
      code: "model_protocol",
      message:
        `Cannot read the model stream from "${server.url}/messages": model stream ended before the response completed`,
    });
    assert.equal(server.requests.length, 3);
    assert.deepEqual(seen, []);
  });
});

Deno.test("messages wire: a whole tool call's JSON arrives in fragments and parses (the neighbour)", async () => {
  await withServer(
    [{ tool_calls: [{ name: "read_file", arguments: { path: "notes.md", limit: 5 } }] }],
    async (server) => {
      const produced = items(
        await collect(createModelClient(messages(server.url)).stream(request(), signal())),
      );
      assert.deepEqual(JSON.parse((produced[0] as { arguments: string }).arguments), {
        path: "notes.md",
        limit: 5,
      });
    },
  );
});

Deno.test("messages wire: a thinking block without its signature ends the response with a clear error (#23 bad input)", async () => {
  await withServer("thinking_without_signature", async (server) => {
    const client = createModelClient(messages(server.url), { ...fast, reasoning: { effort: "low" } });
    const error = await streamError(client.stream(request(), signal()));
    assert.deepEqual(summary(error), {
      code: "model_protocol",
      message:
        `Cannot read the model stream from "${server.url}/messages": a thinking block arrived without its signature (signature_delta)`,
    });
    const next = await collect(client.stream(request(), signal()));
    assert.deepEqual(items(next), [{ type: "message", role: "assistant", content: "The session goes on." }]);
  });
});

Deno.test("messages wire: pause_turn is continued with the paused content sent back; one completed (#23 item 1)", async () => {
  await withServer("pause_turn", async (server) => {
    const events = await collect(createModelClient(messages(server.url)).stream(request(), signal()));
    assert.deepEqual(items(events).map((i) => (i as { content: string }).content), [
      "Searching…",
      " Found it.",
    ]);
    assert.equal(events.filter((e) => e.type === "completed").length, 1);
    const second = bodies(server.requests)[1];
    assert.deepEqual(second.messages.at(-1).role, "assistant");
    assert.equal(second.messages.at(-1).content[0].text, "Searching…");
  });
});

Deno.test("messages wire: stop_reason max_tokens and refusal end the response with clear errors (#23 item 1)", async () => {
  await withServer(
    [{ text: "cut", stop_reason: "max_tokens" }, { text: "no", stop_reason: "refusal" }],
    async (server) => {
      const client = createModelClient(messages(server.url));
      assert.match(
        (await streamError(client.stream(request(), signal())) as Error).message,
        /max_tokens: the model reached its output limit/,
      );
      assert.match(
        (await streamError(client.stream(request(), signal())) as Error).message,
        /the model declined to continue \(stop_reason refusal\)/,
      );
    },
  );
});

Deno.test("messages wire: countTokens asks /messages/count_tokens and does not advance the script (#23 item 1)", async () => {
  await withServer([{ text: "only" }], async (server) => {
    const client = createModelClient(messages(server.url, { apiKey: "sk-ant-x" }));
    const tokens = await client.countTokens!(request(), signal());
    assert.ok(tokens > 10, `counted ${tokens}`);
    const events = await collect(client.stream(request(), signal()));
    assert.deepEqual(items(events), [{ type: "message", role: "assistant", content: "only" }]);
  });
});

Deno.test("countTokens exists only on the Messages wire (the neighbour)", () => {
  assert.equal(createModelClient(providerFor("http://127.0.0.1:9/v1", "responses")).countTokens, undefined);
  assert.equal(createModelClient(providerFor("http://127.0.0.1:9/v1", "chat")).countTokens, undefined);
});

Deno.test('wire_api = "messages" works for any provider (a gateway): the request goes to {base_url}/messages', async () => {
  await withServer([{ text: "via gateway" }], async (server) => {
    const provider = resolveProvider({
      model_provider: "gateway",
      model_providers: { gateway: { name: "Gateway", base_url: server.url, wire_api: "messages" } },
    }, () => undefined);
    const events = await collect(createModelClient(provider).stream(request(), signal()));
    assert.deepEqual(items(events), [{ type: "message", role: "assistant", content: "via gateway" }]);
  });
});

Deno.test("messages wire: an overloaded error event before any output is retried as a fresh request (#23 item 1)", async () => {
  await withServer([
    { stream_error: { type: "overloaded_error", message: "Overloaded" } },
    { text: "after" },
  ], async (server) => {
    const events = await collect(createModelClient(messages(server.url), fast).stream(request(), signal()));
    assert.deepEqual(items(events), [{ type: "message", role: "assistant", content: "after" }]);
    assert.equal(server.requests.length, 2);
  });
});

Deno.test("messages wire: an invalid_request_error event is not retried and names the provider's message (the neighbour)", async () => {
  await withServer([
    { stream_error: { type: "invalid_request_error", message: "tools.0: bad schema" } },
    { text: "never" },
  ], async (server) => {
    const error = await streamError(
      createModelClient(messages(server.url), fast).stream(request(), signal()),
    );
    assert.deepEqual(summary(error), {
      code: "model_http",
      message:
        `Cannot complete the model response from "${server.url}/messages": tools.0: bad schema (invalid_request_error)`,
    });
    assert.equal(server.requests.length, 1);
  });
});

Deno.test("fixture model server: the Messages wire refuses what the real API refuses (no anthropic-version, an orphan tool_result)", async () => {
  await withServer([{ text: "a" }, { text: "b" }], async (server) => {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${server.url}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const ok = {
      model: "m",
      max_tokens: 10,
      stream: true,
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    };
    const noVersion = await post({}, ok);
    assert.equal(noVersion.status, 400);
    assert.deepEqual(await noVersion.json(), {
      type: "error",
      error: { type: "invalid_request_error", message: "anthropic-version: header is required" },
    });
    const orphan = await post({ "anthropic-version": "2023-06-01" }, {
      ...ok,
      messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_x", content: "r" }] }],
    });
    assert.equal(orphan.status, 400);
    assert.match(
      (await orphan.json()).error.message,
      /unexpected `tool_use_id` found in `tool_result` blocks: toolu_x/,
    );
    const fine = await post({ "anthropic-version": "2023-06-01" }, ok);
    assert.equal(fine.status, 200);
    assert.match(await fine.text(), /event: message_stop/);
  });
});

Deno.test("messages wire: thinking sends Claude Code's interleaved-thinking beta; no thinking, no beta header (#23 item 1)", async () => {
  await withServer([{ reasoning: "r", text: "a" }, { text: "b" }], async (server) => {
    const seen: Headers[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(new Headers(init?.headers));
      return fetch(input, init);
    };
    await collect(
      createModelClient(messages(server.url), { fetch: spy, reasoning: { effort: "low" } }).stream(
        request(),
        signal(),
      ),
    );
    await collect(createModelClient(messages(server.url), { fetch: spy }).stream(request(), signal()));
    assert.deepEqual(seen.map((h) => h.get("anthropic-beta")), ["interleaved-thinking-2025-05-14", null]);
    assert.deepEqual(seen.map((h) => h.get("anthropic-version")), ["2023-06-01", "2023-06-01"]);
  });
});
