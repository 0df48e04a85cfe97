import assert from "node:assert/strict";
import { toChatBody, toResponsesBody, toResponsesJson } from "../../lib/model/mod.ts";
import type { ConversationItem, ModelRequest } from "../../lib/shared/mod.ts";

const conversation: ConversationItem[] = [
  { type: "message", role: "developer", content: "Use tools." },
  { type: "message", role: "user", content: "Read a.md" },
  { type: "reasoning", summary: "thinking", id: "rs_1" },
  { type: "reasoning", summary: "the file first", encryptedContent: "enc-1", id: "rs_2" },
  { type: "message", role: "assistant", content: "Reading.", id: "msg_1" },
  { type: "function_call", callId: "call_1", name: "read_file", arguments: '{"path":"a.md"}', id: "fc_1" },
  { type: "function_call", callId: "call_2", name: "list_dir", arguments: "{}" },
  { type: "function_call_output", callId: "call_1", output: "hello", status: "success" },
  {
    type: "function_call_output",
    callId: "call_2",
    output: "a screenshot",
    status: "success",
    content: [{ type: "image", mimeType: "image/png", data: "AAAA" }],
  },
];

const request: ModelRequest = {
  model: "m",
  instructions: "Be brief.",
  input: conversation,
  tools: [{ name: "read_file", description: "Reads a file", parameters: { type: "object" } }],
  parallelToolCalls: false,
};

Deno.test("toResponsesBody() maps items to Responses input, images to input_image, without reasoning or ids", () => {
  assert.deepEqual(toResponsesBody(request), {
    model: "m",
    instructions: "Be brief.",
    stream: true,
    store: false,
    input: [
      { type: "message", role: "developer", content: [{ type: "input_text", text: "Use tools." }] },
      { type: "message", role: "user", content: [{ type: "input_text", text: "Read a.md" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Reading." }] },
      { type: "function_call", call_id: "call_1", name: "read_file", arguments: '{"path":"a.md"}' },
      { type: "function_call", call_id: "call_2", name: "list_dir", arguments: "{}" },
      { type: "function_call_output", call_id: "call_1", output: "hello" },
      {
        type: "function_call_output",
        call_id: "call_2",
        output: [
          { type: "input_text", text: "a screenshot" },
          { type: "input_image", image_url: "data:image/png;base64,AAAA" },
        ],
      },
    ],
    tools: [{
      type: "function",
      name: "read_file",
      description: "Reads a file",
      parameters: { type: "object" },
      strict: false,
    }],
    tool_choice: "auto",
    parallel_tool_calls: false,
  });
});

Deno.test("toResponsesBody() asks for encrypted reasoning and sends it back without ids when reasoning is set", () => {
  const body = toResponsesBody(request, { reasoning: { effort: "high", summary: "auto" } });
  assert.deepEqual(body.reasoning, { effort: "high", summary: "auto" });
  assert.deepEqual(body.include, ["reasoning.encrypted_content"]);
  assert.deepEqual((body.input as { type: string }[]).slice(1, 4), [
    { type: "message", role: "user", content: [{ type: "input_text", text: "Read a.md" }] },
    {
      type: "reasoning",
      summary: [{ type: "summary_text", text: "the file first" }],
      encrypted_content: "enc-1",
    },
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "Reading." }] },
  ]);
});

Deno.test("toResponsesJson() is byte-identical to stringifying toResponsesBody() when called again and again", () => {
  const reasoning = { effort: "low", summary: "auto" as const };
  const expected = JSON.stringify(toResponsesBody(request, { reasoning }));
  assert.equal(toResponsesJson(request, { reasoning }), expected);
  // The second call reads the per-item cache; a longer history reuses it for the shared prefix.
  assert.equal(toResponsesJson(request, { reasoning }), expected);
  const longer: ModelRequest = {
    ...request,
    tools: [],
    input: [...conversation, { type: "message", role: "assistant", content: "Done." }],
  };
  assert.equal(toResponsesJson(longer), JSON.stringify(toResponsesBody(longer)));
  assert.equal(
    toResponsesJson(longer, { reasoning }),
    JSON.stringify(toResponsesBody(longer, { reasoning })),
  );
  const empty: ModelRequest = { ...longer, input: [{ type: "reasoning", summary: "only" }] };
  assert.equal(toResponsesJson(empty), JSON.stringify(toResponsesBody(empty)));
});

Deno.test("toChatBody() maps developer to system, joins calls onto the assistant turn; a tool's image follows as a user message (#23 item 3)", () => {
  assert.deepEqual(toChatBody(request), {
    model: "m",
    stream: true,
    stream_options: { include_usage: true },
    messages: [
      { role: "system", content: "Be brief." },
      { role: "system", content: "Use tools." },
      { role: "user", content: "Read a.md" },
      {
        role: "assistant",
        content: "Reading.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.md"}' } },
          { id: "call_2", type: "function", function: { name: "list_dir", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "hello" },
      { role: "tool", tool_call_id: "call_2", content: "a screenshot" },
      {
        role: "user",
        content: [
          { type: "text", text: "Images from the call_2 call:" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
    ],
    tools: [{
      type: "function",
      function: { name: "read_file", description: "Reads a file", parameters: { type: "object" } },
    }],
    tool_choice: "auto",
    parallel_tool_calls: false,
  });
});

Deno.test("toChatBody() leaves tools out when the request declares none", () => {
  const body = toChatBody({
    ...request,
    input: [{ type: "function_call", callId: "c", name: "x", arguments: "{}" }],
    tools: [],
  });
  assert.deepEqual(body.messages, [
    { role: "system", content: "Be brief." },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c", type: "function", function: { name: "x", arguments: "{}" } }],
    },
  ]);
  assert.equal("tools" in body, false);
  assert.equal("parallel_tool_calls" in body, false);
});

Deno.test("a freeform apply_patch call recorded on Responses goes back as custom_tool_call there, and as the {input} function on Chat (#23 item 2)", () => {
  const patch = "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch";
  const history: ModelRequest = {
    model: "gpt-5.5",
    instructions: "",
    input: [
      { type: "message", role: "user", content: "go" },
      { type: "function_call", callId: "c1", name: "apply_patch", arguments: patch, custom: true },
      { type: "function_call_output", callId: "c1", output: "Success.", status: "success", custom: true },
    ],
    tools: [{
      name: "apply_patch",
      description: "d",
      parameters: { type: "object", properties: { input: { type: "string" } } },
      freeform: { syntax: "lark", definition: "start: x" },
    }],
    parallelToolCalls: false,
  } as ModelRequest;
  const responses = toResponsesBody(history) as Record<string, any>;
  assert.deepEqual(responses.input.slice(1), [
    { type: "custom_tool_call", call_id: "c1", name: "apply_patch", input: patch },
    { type: "custom_tool_call_output", call_id: "c1", output: "Success." },
  ]);
  assert.deepEqual(responses.tools[0], {
    type: "custom",
    name: "apply_patch",
    description: "d",
    format: { type: "grammar", syntax: "lark", definition: "start: x" },
  });
  const chat = toChatBody(history) as Record<string, any>;
  const call = chat.messages.find((m: Record<string, any>) => m.tool_calls)?.tool_calls[0];
  assert.deepEqual(JSON.parse(call.function.arguments), { input: patch });
  assert.equal(chat.tools[0].type, "function");
});
