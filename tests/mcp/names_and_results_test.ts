import assert from "node:assert/strict";
import fc from "fast-check";
import {
  assignToolNames,
  convertCallResult,
  mcpApprovalNeeded,
  truncateHeadTail,
} from "../../lib/mcp/mod.ts";

Deno.test("assignToolNames() builds mcp__server__tool sanitized to [A-Za-z0-9_] (MCP-10)", () => {
  const names = assignToolNames([{ server: "my-srv", tool: "get.thing" }, { server: "a", tool: "" }]);
  assert.deepStrictEqual([...names.values()].sort(), ["mcp__a___", "mcp__my_srv__get_thing"]);
});

Deno.test("assignToolNames() resolves collisions and overflow with a 12-hex hash suffix (MCP-10)", () => {
  const long = "t".repeat(80);
  const names = assignToolNames([
    { server: "s", tool: "a-b" },
    { server: "s", tool: "a_b" },
    { server: "s", tool: long },
    { server: "x-y", tool: "t" },
    { server: "x_y", tool: "t" },
  ]);
  assert.deepStrictEqual(names.get("s\0a-b"), "mcp__s__a_b");
  assert.match(names.get("s\0a_b")!, /^mcp__s__a_b_[0-9a-f]{12}$/);
  assert.match(names.get(`s\0${long}`)!, /^mcp__s__t+_[0-9a-f]{12}$/);
  assert.deepStrictEqual(names.get(`s\0${long}`)!.length, 64);
  assert.match(names.get("x-y\0t")!, /^mcp__x_y_[0-9a-f]{12}__t$/);
  assert.notDeepStrictEqual(names.get("x-y\0t"), names.get("x_y\0t"));
});

Deno.test("assignToolNames() is unique, ≤ 64 bytes and order-independent for any input (MCP-10)", () => {
  const tool = fc.record({ server: fc.string({ maxLength: 70 }), tool: fc.string({ maxLength: 90 }) });
  fc.assert(fc.property(fc.array(tool, { maxLength: 20 }), (tools) => {
    const names = assignToolNames(tools);
    const values = [...names.values()];
    assert.deepStrictEqual(new Set(values).size, values.length);
    for (const v of values) assert.ok(/^[A-Za-z0-9_]{1,64}$/.test(v), v);
    assert.deepStrictEqual(assignToolNames([...tools].reverse()), names);
  }));
});

Deno.test("convertCallResult() converts text, media, links, embedded resources and isError", () => {
  const result = convertCallResult({
    isError: true,
    content: [
      { type: "text", text: "hello" },
      { type: "image", mimeType: "image/png", data: "AAAA" },
      { type: "audio", mimeType: "audio/wav", data: "AAAAAA==" },
      { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
      { type: "resource", resource: { uri: "mem://t", mimeType: "text/plain", text: "inner" } },
      { type: "resource", resource: { uri: "mem://b", mimeType: "application/zip", blob: "UEsDBA==" } },
    ],
  });
  const output = [
    "hello",
    "[image: image/png, 3 bytes]",
    "[audio: audio/wav, 4 bytes]",
    "[resource link: a.txt <file:///a.txt> (text/plain)]",
    "[embedded resource <mem://t> (text/plain)]\ninner",
    "[embedded resource <mem://b> (application/zip), 4 bytes]",
  ].join("\n");
  assert.deepStrictEqual(result, {
    output,
    status: "error",
    content: [
      { type: "text", text: output },
      { type: "image", mimeType: "image/png", data: "AAAA" },
      { type: "audio", mimeType: "audio/wav", data: "AAAAAA==" },
    ],
  });
});

Deno.test("convertCallResult() uses structuredContent as the output when present", () => {
  assert.deepStrictEqual(
    convertCallResult({ content: [{ type: "text", text: '{"a":1}' }], structuredContent: { a: 1 } }),
    { output: '{"a":1}', status: "success" },
  );
});

Deno.test("convertCallResult() gives the model structuredContent and a person the result's text (#21 item 6)", () => {
  const weather = convertCallResult({
    content: [{ type: "text", text: "Sunny, 21 °C in Lyon" }],
    structuredContent: { city: "Lyon", sky: "sunny", celsius: 21 },
  });
  assert.deepStrictEqual(weather, {
    output: '{"city":"Lyon","sky":"sunny","celsius":21}',
    status: "success",
    displayText: "Sunny, 21 °C in Lyon",
  });
  // The neighbours: no text beside the structure shows the structure; no structure, no second text.
  assert.deepStrictEqual(convertCallResult({ content: [], structuredContent: { a: 1 } }), {
    output: '{"a":1}',
    status: "success",
  });
  assert.deepStrictEqual(convertCallResult({ content: [{ type: "text", text: "plain" }] }), {
    output: "plain",
    status: "success",
  });
  // An error result is shown by its text too.
  assert.equal(
    convertCallResult({
      content: [{ type: "text", text: "city not found" }],
      structuredContent: { code: 404 },
      isError: true,
    }).displayText,
    "city not found",
  );
});

Deno.test("truncateHeadTail() keeps head and tail within the budget", () => {
  const text = "A".repeat(1000) + "B".repeat(1000);
  assert.deepStrictEqual(
    truncateHeadTail(text, 100),
    `${"A".repeat(50)}\n…[1900 bytes truncated]…\n${"B".repeat(50)}`,
  );
  assert.deepStrictEqual(truncateHeadTail("short", 100), "short");
});

Deno.test("mcpApprovalNeeded() follows Codex's modes: prompt asks, approve never, auto only when untrusted (MCP-5)", () => {
  const table = ["auto", "prompt", "approve"].map((mode) =>
    ["untrusted", "on-request", "never"].map((policy) => mcpApprovalNeeded(mode, policy))
  );
  assert.deepStrictEqual(table, [[true, false, false], [true, true, true], [false, false, false]]);
});
