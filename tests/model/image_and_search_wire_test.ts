/**
 * #23 item 3: images in user messages on the Responses and Chat wires (and the block the Messages
 * wire maps them to), and the hosted web search `tools.web_search` declares on Responses.
 */
import assert from "node:assert/strict";
import {
  hostedMessagesTools,
  messagesImageBlock,
  toChatBody,
  toResponsesBody,
  toResponsesJson,
} from "../../lib/model/mod.ts";
import type { ModelRequest } from "../../lib/shared/mod.ts";

const image = { mimeType: "image/png", data: "iVBORw0KGgo=", source: "shot.png" };
const request: ModelRequest = {
  model: "gpt-5",
  instructions: "",
  input: [
    { type: "message", role: "user", content: "What is in it?" },
    {
      type: "message",
      role: "user",
      content: '<attached_image path="shot.png" type="image/png" />',
      images: [image],
    },
  ],
  tools: [{ name: "read_file", description: "Reads", parameters: { type: "object" } }],
  parallelToolCalls: true,
};

Deno.test("Responses: a user message's image is an input_image part after its text; the source name is never sent", () => {
  const input = toResponsesBody(request).input as { content: unknown[] }[];
  assert.deepEqual(input[1].content, [
    { type: "input_text", text: '<attached_image path="shot.png" type="image/png" />' },
    { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" },
  ]);
  assert.deepEqual(input[0].content, [{ type: "input_text", text: "What is in it?" }]);
  assert.equal(toResponsesJson(request), JSON.stringify(toResponsesBody(request)));
  assert.doesNotMatch(JSON.stringify(input), /"source"/);
});

Deno.test("Chat: a user message with an image has content parts (text, image_url); one without stays a string", () => {
  const messages = toChatBody(request).messages as { content: unknown }[];
  assert.equal(messages[0].content, "What is in it?");
  assert.deepEqual(messages[1].content, [
    { type: "text", text: '<attached_image path="shot.png" type="image/png" />' },
    { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
  ]);
});

Deno.test("Messages: an image maps to a base64 image block (for the Messages wire)", () => {
  assert.deepEqual(messagesImageBlock(image), {
    type: "image",
    source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
  });
});

Deno.test("tools.web_search declares {type:web_search} after the functions on Responses, as Codex does; off: nothing", () => {
  const live = toResponsesBody({ ...request, hostedTools: { webSearch: "live" } }).tools as {
    type: string;
  }[];
  assert.deepEqual(live.map((t) => t.type), ["function", "web_search"]);
  assert.deepEqual(live[1], { type: "web_search", external_web_access: true });
  const cached = toResponsesBody({ ...request, hostedTools: { webSearch: "cached" } }).tools as unknown[];
  assert.deepEqual(cached[1], { type: "web_search", external_web_access: false });
  const off = toResponsesBody(request).tools as { type: string }[];
  assert.deepEqual(off.map((t) => t.type), ["function"]);
  // Chat Completions has no hosted search: nothing is declared there.
  const chat = toChatBody({ ...request, hostedTools: { webSearch: "live" } }).tools as { type: string }[];
  assert.deepEqual(chat.map((t) => t.type), ["function"]);
  assert.deepEqual(hostedMessagesTools({ webSearch: "live" }), [
    { type: "web_search_20250305", name: "web_search", max_uses: 5 },
  ]);
  assert.deepEqual(hostedMessagesTools({}), []);
});
