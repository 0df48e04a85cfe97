import assert from "node:assert/strict";
import { thinkingBudget, toMessagesBody } from "../../lib/model/mod.ts";
import type { ConversationItem, ModelRequest } from "../../lib/shared/mod.ts";

// #23 item 1: ModelRequest → the Messages API body, shaped as Claude Code 2.1.332 shapes its own.

const base: ModelRequest = {
  model: "claude-sonnet-4-5",
  instructions: "Base.",
  input: [],
  tools: [],
  parallelToolCalls: true,
};
const body = (input: ConversationItem[], extra: Partial<ModelRequest> = {}, effort?: string) =>
  toMessagesBody({ ...base, input, ...extra }, { effort }) as Record<string, any>;
const types = (message: { content: { type: string }[] }) => message.content.map((b) => b.type);

Deno.test("toMessagesBody(): developer items before the first user message join system; later ones are user text", () => {
  const b = body([
    { type: "message", role: "developer", content: "<skills>" },
    { type: "message", role: "user", content: "hi" },
    { type: "message", role: "assistant", content: "hello" },
    { type: "message", role: "developer", content: "<reminder>" },
    { type: "message", role: "user", content: "again" },
  ]);
  assert.deepEqual(b.system.map((s: { text: string }) => s.text), ["Base.", "<skills>"]);
  assert.deepEqual(b.messages.map((m: { role: string }) => m.role), ["user", "assistant", "user"]);
  assert.deepEqual(b.messages[2].content.map((c: { text: string }) => c.text), ["<reminder>", "again"]);
});

Deno.test("toMessagesBody(): system keeps breakpoints on its first and last block only (the API allows four in all)", () => {
  const dev = (content: string): ConversationItem => ({ type: "message", role: "developer", content });
  const b = body([dev("a"), dev("b"), dev("c"), { type: "message", role: "user", content: "hi" }]);
  assert.deepEqual(b.system.map((s: Record<string, unknown>) => "cache_control" in s), [
    true,
    false,
    false,
    true,
  ]);
});

Deno.test("toMessagesBody(): tool results go first in their user message, failed ones marked is_error", () => {
  const b = body([
    { type: "message", role: "user", content: "go" },
    { type: "function_call", callId: "toolu_1", name: "a", arguments: '{"x":1}' },
    { type: "function_call", callId: "toolu_2", name: "b", arguments: "{}" },
    { type: "function_call_output", callId: "toolu_1", output: "ok", status: "success" },
    { type: "message", role: "user", content: "note between" },
    { type: "function_call_output", callId: "toolu_2", output: "denied", status: "denied" },
  ]);
  assert.deepEqual(types(b.messages[1]), ["tool_use", "tool_use"]);
  assert.deepEqual(b.messages[1].content[0].input, { x: 1 });
  assert.deepEqual(types(b.messages[2]), ["tool_result", "tool_result", "text"]);
  assert.equal(b.messages[2].content[0].is_error, false, "stated on a success too, as Claude Code does");
  assert.equal(b.messages[2].content[1].is_error, true);
});

Deno.test("toMessagesBody(): recorded arguments that are not a JSON object still go back, under raw_arguments", () => {
  const b = body([
    { type: "message", role: "user", content: "go" },
    { type: "function_call", callId: "toolu_1", name: "a", arguments: "not json" },
  ]);
  assert.deepEqual(b.messages[1].content[0].input, { raw_arguments: "not json" });
});

Deno.test("toMessagesBody(): parallel_tool_calls false asks for one call at a time; true sends no tool_choice", () => {
  const tools = [{ name: "t", description: "T.", parameters: { type: "object" } }];
  const input: ConversationItem[] = [{ type: "message", role: "user", content: "hi" }];
  assert.deepEqual(body(input, { tools, parallelToolCalls: false }).tool_choice, {
    type: "auto",
    disable_parallel_tool_use: true,
  });
  assert.equal("tool_choice" in body(input, { tools }), false);
  assert.deepEqual(body(input, { tools }).tools, [{
    name: "t",
    description: "T.",
    input_schema: { type: "object" },
  }]);
});

Deno.test("toMessagesBody(): thinking blocks go back only with thinking on; unsigned ones never", () => {
  const input: ConversationItem[] = [
    { type: "message", role: "user", content: "hi" },
    { type: "reasoning", summary: "signed", signature: "sig:1" },
    { type: "reasoning", summary: "from Responses", encryptedContent: "enc:1" },
    { type: "function_call", callId: "toolu_1", name: "a", arguments: "{}" },
  ];
  assert.deepEqual(types(body(input, {}, "high").messages[1]), ["thinking", "tool_use"]);
  assert.deepEqual(types(body(input).messages[1]), ["tool_use"]);
});

Deno.test("thinkingBudget(): effort names map to Claude Code's budgets, bounded below max_tokens; none is off", () => {
  assert.deepEqual(
    ["minimal", "low", "medium", "high", "xhigh"].map((e) => thinkingBudget(e)),
    [1024, 4000, 10000, 31999, 31999],
  );
  assert.equal(thinkingBudget("none"), undefined);
  assert.equal(thinkingBudget(undefined), undefined);
  assert.equal(thinkingBudget("high", 8000), 7999);
});

Deno.test("toMessagesBody(): tools.web_search declares Anthropic's server search tool after the function tools; off, none (#23 item 3)", () => {
  const read = { name: "Read", description: "read", parameters: { type: "object" } };
  const on = body([{ type: "message", role: "user", content: "hi" }], {
    tools: [read],
    hostedTools: { webSearch: "live" },
  });
  assert.deepEqual(on.tools.map((t: { name: string; type?: string }) => [t.name, t.type]), [
    ["Read", undefined],
    ["web_search", "web_search_20250305"],
  ]);
  // Hosted search alone still gets a tools list; without it, no tools key at all.
  const alone = body([{ type: "message", role: "user", content: "hi" }], {
    hostedTools: { webSearch: "cached" },
  });
  assert.deepEqual(alone.tools.map((t: { type?: string }) => t.type), ["web_search_20250305"]);
  assert.equal("tools" in body([{ type: "message", role: "user", content: "hi" }]), false);
});

Deno.test("toMessagesBody(): a user message's images go as base64 image blocks after its text", () => {
  const b = body([{
    type: "message",
    role: "user",
    content: "look",
    images: [{ mimeType: "image/png", data: "AAAA" }],
  }]);
  assert.deepEqual(types(b.messages[0]), ["text", "image"]);
  assert.deepEqual(b.messages[0].content[1].source, {
    type: "base64",
    media_type: "image/png",
    data: "AAAA",
  });
});
