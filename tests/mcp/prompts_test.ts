import assert from "node:assert/strict";
import {
  findPromptMentions,
  getManagerPrompt,
  listManagerPrompts,
  type McpPromptListing,
  promptArguments,
  splitPromptArguments,
} from "../../lib/mcp/mod.ts";
import { EVERYTHING, startRuntime, stdio } from "./_helpers.ts";

const weather: McpPromptListing = {
  server: "ev",
  name: "args-prompt",
  modelName: "mcp__ev__args_prompt",
  description: "",
  arguments: [{ name: "city", required: true }, { name: "state", required: false }],
};

Deno.test("prompt mentions: $mcp__server__prompt anywhere, /mcp__server__prompt at the start; arguments by name or position (#14)", () => {
  assert.deepStrictEqual(
    findPromptMentions("look: $mcp__ev__args_prompt Paris TX\nthen $mcp__ev__nope x", [weather]).map((m) =>
      m.argsText
    ),
    ["Paris TX"],
  );
  assert.deepStrictEqual(
    findPromptMentions("/mcp__ev__args_prompt city=Oslo", [weather])[0].argsText,
    "city=Oslo",
  );
  assert.deepStrictEqual(findPromptMentions("cost is US$mcp__ev__args_prompt", [weather]), []);
  assert.deepStrictEqual(splitPromptArguments(`city="New York" 'a b' c`), ["city=New York", "a b", "c"]);
  assert.deepStrictEqual(promptArguments(weather, "Paris TX"), { args: { city: "Paris", state: "TX" } });
  assert.deepStrictEqual(promptArguments(weather, 'state=NY city="New York"'), {
    args: { state: "NY", city: "New York" },
  });
  assert.deepStrictEqual(promptArguments(weather, "San Luis Obispo"), {
    args: { city: "San", state: "Luis Obispo" },
  });
  assert.deepStrictEqual(promptArguments(weather, ""), {
    error: 'MCP prompt mcp__ev__args_prompt needs "city" (usage: $mcp__ev__args_prompt <city> [state])',
  });
  assert.match(
    (promptArguments({ ...weather, arguments: [] }, "extra") as { error: string }).error,
    /takes no more arguments/,
  );
});

Deno.test("listManagerPrompts() and getManagerPrompt() against server-everything (#14)", async () => {
  const { runtime } = await startRuntime([stdio("ev", [EVERYTHING, "stdio"])]);
  try {
    await runtime.awaitStartup({ graceMs: 30_000 });
    const { prompts, failures } = await listManagerPrompts(runtime.manager);
    assert.deepStrictEqual(failures, []);
    const args = prompts.find((p) => p.name === "args-prompt")!;
    assert.deepStrictEqual([args.modelName, args.arguments.map((a) => [a.name, a.required])], [
      "mcp__ev__args_prompt",
      [["city", true], ["state", false]],
    ]);
    assert.deepStrictEqual(await getManagerPrompt(runtime.manager, "ev", "args-prompt", { city: "Paris" }), [
      { type: "message", role: "user", content: "What's weather in Paris?" },
    ]);
    const embedded = await getManagerPrompt(runtime.manager, "ev", "resource-prompt", {
      resourceType: "Text",
      resourceId: "1",
    });
    assert.equal(embedded.length, 2);
    assert.match(
      embedded[1].type === "message" ? embedded[1].content : "",
      /^\[embedded resource <demo:\/\/resource/,
    );
  } finally {
    await runtime.shutdown();
  }
});
