import assert from "node:assert/strict";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { fixture, runContext, startRuntime, stdio } from "./_helpers.ts";

/** Servers as they are published (issue #21 items 12–14, 16), through a real subprocess each. */
const PUBLISHED = fixture("published_server.mjs");

function warnings(events: TrellisEventBody[], server: string): string[] {
  return events.flatMap((e) => e.type === "warning" && e.subject === server ? [e.message] : []);
}

Deno.test("a server whose schemas lack type: object is kept, repaired, and warned about once (#21 item 12)", async () => {
  const { runtime, events } = await startRuntime([stdio("gitlab", [PUBLISHED, "gitlab"])]);
  await runtime.awaitStartup({ graceMs: 60_000 });
  const step = runtime.captureStep();
  try {
    assert.equal(runtime.manager.servers.get("gitlab")!.connection.status.state, "ready");
    const byName = new Map(step.tools.map((t) => [t.name, t]));
    assert.deepEqual(byName.get("mcp__gitlab__create_issue")?.parameters, {
      type: "object",
      properties: {
        project_id: { type: "string", description: "Project ID or URL-encoded path" },
        title: { type: "string" },
      },
      required: ["project_id", "title"],
    });
    // No properties: an object with no parameters.
    assert.deepEqual(byName.get("mcp__gitlab__list_projects")?.parameters, {
      type: "object",
      description: "no parameters",
      properties: {},
    });
    const found = warnings(events, "gitlab");
    assert.deepEqual(found, [
      'MCP server \'gitlab\': tools create_issue, list_projects, get_file: inputSchema lacks "type": "object"; ' +
      "taken as an object schema",
    ]);
    // A repaired tool is callable.
    const tool = byName.get("mcp__gitlab__create_issue")!;
    const { ctx } = runContext();
    const result = await tool.run({ project_id: "a/b", title: "t" }, ctx);
    assert.equal(result.status, "success");
    assert.match(result.output, /called create_issue with \{"project_id":"a\/b","title":"t"\}/);
    // A re-listing that meets the same broken tools says nothing again.
    runtime.manager.servers.get("gitlab")!.connection.markToolsStale();
    await runtime.awaitToolLists();
    assert.equal(warnings(events, "gitlab").length, 1);
  } finally {
    step.release();
    await runtime.shutdown();
  }
});

Deno.test("tool schemas that are true, null, an array, 5 MB or a string type: each named, the rest loads (#21 item 12)", async () => {
  const { runtime, events } = await startRuntime([stdio("bad", [PUBLISHED, "bad_schemas"])]);
  await runtime.awaitStartup({ graceMs: 60_000 });
  const step = runtime.captureStep();
  try {
    const names = step.tools.map((t) => t.name).filter((n) => n.startsWith("mcp__"));
    assert.deepEqual(names.sort(), ["mcp__bad__bad_output", "mcp__bad__good", "mcp__bad__schema_true"]);
    const found = warnings(events, "bad").map((m) => m.replace("MCP server 'bad': ", ""));
    assert.deepEqual(found.sort(), [
      "tool #7: name is missing; the tool is not offered",
      "tool bad_output: outputSchema is an array, not an object schema; left out",
      "tool schema_array: inputSchema is an array, not a JSON schema object; the tool is not offered",
      "tool schema_huge: inputSchema is 5.0 MB, over the 256 KB limit; the tool is not offered",
      "tool schema_null: inputSchema is null, not a JSON schema object; the tool is not offered",
      'tool schema_string: inputSchema has type "string"; tool arguments must be an object; the tool is not offered',
      "tool schema_true: inputSchema is true (accept anything); taken as no parameters",
    ]);
    // Nothing of the 5 MB schema reaches a declaration.
    assert.ok(JSON.stringify(step.tools.map((t) => t.parameters)).length < 10_000);
  } finally {
    step.release();
    await runtime.shutdown();
  }
});
