import assert from "node:assert/strict";
import { serverConfigFromTable, ttyElicitationResponder } from "../../lib/mcp/mod.ts";
import type { ToolDefinition } from "../../lib/shared/mod.ts";
import { EVERYTHING, FILESYSTEM, runContext, startRuntime, stdio } from "./_helpers.ts";
import { startHttpEverything } from "./_http_everything.ts";
import alwaysOn from "../../fixtures/mcp/everything_always_on.json" with { type: "json" };

// Always-on tools of server-everything with arguments that make each succeed offline.
const ALWAYS_ON: Record<string, Record<string, unknown>> = alwaysOn;

async function run(tools: ToolDefinition[], name: string, args: unknown) {
  const tool = tools.find((t) => t.name === name);
  assert.ok(tool, `missing ${name}`);
  return await tool.run(tool.parseArguments(args), runContext().ctx);
}

// The tools of the pinned server-everything (package.json) for a client that declares sampling,
// elicitation and roots, and of the pinned server-filesystem: a new or lost tool is seen here.
const EVERYTHING_TOOLS = [
  "echo",
  "get_annotated_message",
  "get_env",
  "get_resource_links",
  "get_resource_reference",
  "get_roots_list",
  "get_structured_content",
  "get_sum",
  "get_tiny_image",
  "gzip_file_as_resource",
  "simulate_research_query",
  "toggle_simulated_logging",
  "toggle_subscriber_updates",
  "trigger_elicitation_request",
  "trigger_long_running_operation",
  "trigger_sampling_request",
  "trigger_url_elicitation",
];
const FILESYSTEM_TOOLS = [
  "create_directory",
  "directory_tree",
  "edit_file",
  "get_file_info",
  "list_allowed_directories",
  "list_directory",
  "list_directory_with_sizes",
  "move_file",
  "read_file",
  "read_media_file",
  "read_multiple_files",
  "read_text_file",
  "search_files",
  "write_file",
];

const toolsOf = (tools: ToolDefinition[], server: string) =>
  tools.flatMap((t) => t.name.startsWith(`mcp__${server}__`) ? [t.name.slice(`mcp__${server}__`.length)] : [])
    .sort();

Deno.test("startHttpEverything() retries on another port when its port is taken (EADDRINUSE)", async () => {
  const taken = Deno.listen({ hostname: "0.0.0.0", port: 0 });
  try {
    const port = (taken.addr as Deno.NetAddr).port;
    const http = await startHttpEverything([port, port]);
    try {
      assert.deepStrictEqual(http.attempts, 3);
      assert.notEqual(http.port, port);
    } finally {
      await http.stop();
    }
  } finally {
    taken.close();
  }
});

Deno.test("server-everything over stdio and streamable HTTP: tools, resources, templates, elicitation (MCP-9/14/15)", async (t) => {
  const http = await startHttpEverything();
  const tree = new URL("../../fixtures/workspaces/basic", import.meta.url).pathname;
  const answers = [
    "a", // name
    "y", // check
    "", // firstLine (default)
    "me@example.com",
    "https://example.com",
    "2000-01-02",
    "7", // integer
    "", // number default
    "2", // single select by number
    "Piano,Drums",
    "hero-3",
    "2,3",
    "", // legacyTitledEnum default or prompt
    "",
    "",
    "",
  ];
  let written = "";
  const { runtime, events } = await startRuntime([
    stdio("ev", [EVERYTHING, "stdio"]),
    serverConfigFromTable("evhttp", { url: http.url }),
    stdio("fs", [FILESYSTEM, tree]),
  ], {
    // server-filesystem replaces its command-line directories with the client's roots.
    extra: {
      roots: [tree],
      sampling: {
        handler: (request) =>
          Promise.resolve({
            role: "assistant",
            content: { type: "text", text: `sampled ${request.maxTokens}` },
            model: "fixture",
          }),
        confirm: () => Promise.resolve(true),
      },
    },
    elicitation: ttyElicitationResponder({
      readLine: () => Promise.resolve(answers.shift() ?? null),
      write: (text) => void (written += text),
    }),
  });
  try {
    await runtime.awaitStartup({ graceMs: 20_000 });
    const step = runtime.captureStep();
    await t.step(
      "7 resources and 2 templates are listed and read (before any tool adds session resources)",
      async () => {
        const listed = JSON.parse((await run(step.tools, "list_mcp_resources", { server: "ev" })).output);
        assert.deepStrictEqual(listed.resources.length, 7);
        const templates = JSON.parse(
          (await run(step.tools, "list_mcp_resource_templates", { server: "ev" })).output,
        );
        assert.deepStrictEqual(templates.resourceTemplates.length, 2);
        for (const resource of listed.resources) {
          const read = await run(step.tools, "read_mcp_resource", { server: "ev", uri: resource.uri });
          assert.deepStrictEqual(read.status, "success", read.output);
          assert.deepStrictEqual(JSON.parse(read.output).contents[0].uri, resource.uri);
        }
        const missing = await run(step.tools, "read_mcp_resource", { server: "ev", uri: "demo://nope" });
        assert.deepStrictEqual(missing.status, "error");
        assert.match(missing.output, /^resources\/read failed: /);
      },
    );
    await t.step("every always-on tool is callable on both transports", async () => {
      assert.deepStrictEqual([toolsOf(step.tools, "ev"), toolsOf(step.tools, "evhttp")], [
        EVERYTHING_TOOLS,
        EVERYTHING_TOOLS,
      ]);
      for (const server of ["ev", "evhttp"]) {
        for (const [tool, args] of Object.entries(ALWAYS_ON)) {
          const result = await run(step.tools, `mcp__${server}__${tool.replaceAll("-", "_")}`, args);
          assert.deepStrictEqual(result.status, "success", `${server}/${tool}: ${result.output}`);
        }
      }
      const image = await run(step.tools, "mcp__ev__get_tiny_image", {});
      assert.deepStrictEqual(image.content?.filter((p) => p.type === "image").length, 1);
      assert.deepStrictEqual(
        (await run(step.tools, "mcp__ev__get_sum", { a: 2, b: 3 })).output,
        "The sum of 2 and 3 is 5.",
      );
    });
    await t.step("the 13-field form elicitation is answered from a scripted TTY", async () => {
      const result = await run(step.tools, "mcp__ev__trigger_elicitation_request", {});
      assert.deepStrictEqual(result.status, "success", result.output);
      assert.match(result.output, /"action":\s*"accept"/);
      assert.match(result.output, /me@example.com/);
      assert.match(written, /Please provide inputs/);
      assert.ok(events.some((e) => e.type === "mcp.elicitation" && e.action === "accept"));
    });
    await t.step("roots, sampling and URL elicitation reach server-everything", async () => {
      const roots = await run(step.tools, "mcp__ev__get_roots_list", {});
      assert.match(roots.output, new RegExp(`URI: file://${tree}`));
      const sampled = await run(step.tools, "mcp__ev__trigger_sampling_request", {
        prompt: "hi",
        maxTokens: 20,
      });
      assert.match(sampled.output, /sampled 20/);
      assert.ok(
        events.some((e) => e.type === "mcp.sampling" && e.decision === "allowed" && e.server === "ev"),
      );
      const url = await run(step.tools, "mcp__ev__trigger_url_elicitation", { url: "https://example.com/x" });
      assert.ok(events.some((e) => e.type === "mcp.elicitation" && e.mode === "url"), url.output);
    });
    await t.step("server-filesystem reads the fixture tree", async () => {
      assert.deepStrictEqual(toolsOf(step.tools, "fs"), FILESYSTEM_TOOLS);
      const listing = await run(step.tools, "mcp__fs__list_directory", { path: tree });
      assert.deepStrictEqual(listing.status, "success", listing.output);
    });
    step.release();
  } finally {
    await runtime.shutdown();
    await http.stop();
  }
});
