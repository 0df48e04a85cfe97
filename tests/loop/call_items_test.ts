import assert from "node:assert/strict";
import { completedCallItem, startedCallItem } from "../../lib/loop/call_items.ts";
import type { ToolDefinition, ToolSource } from "../../lib/shared/mod.ts";

function tool(name: string, hookName: string, source: ToolSource = { kind: "builtin" }): ToolDefinition {
  return {
    name,
    hookName,
    hookAliases: [],
    description: "",
    parameters: {},
    parallel: false,
    source,
    approval: () => ({ kind: "none" }),
    run: () => Promise.resolve({ output: "", status: "success" }),
    parseArguments: (raw) => raw,
  };
}

const call = (name: string, args: unknown) => ({
  type: "function_call" as const,
  callId: "c1",
  name,
  arguments: JSON.stringify(args),
});
const output = (text: string, status: "success" | "error" | "denied" | "aborted" = "success") => ({
  type: "function_call_output" as const,
  callId: "c1",
  output: text,
  status,
});
const context = (name: string, definition: ToolDefinition | undefined, args: unknown) => ({
  id: "item_1",
  call: call(name, args),
  tool: definition,
  cwd: "/work",
});

Deno.test("completedCallItem() reports a denied shell call as Codex's declined, with Trellis's denied beside it", () => {
  const shell = context("shell", tool("shell", "Bash"), { command: "rm -rf /" });
  assert.deepEqual(completedCallItem(shell, output("approval required", "denied"), 3), {
    id: "item_1",
    type: "command_execution",
    name: "shell",
    call_id: "c1",
    source: "builtin",
    call_status: "denied",
    output: "approval required",
    duration_ms: 3,
    command: "rm -rf /",
    aggregated_output: "approval required",
    status: "declined",
  });
});

Deno.test("completedCallItem() splits the shell's exit code from its output and maps aborted to failed", () => {
  const shell = context("shell", tool("shell", "Bash"), { command: "make" });
  const done = completedCallItem(
    shell,
    output("Exit code: 2\nWall time: 0.1 seconds\nOutput:\nno rule\n", "error"),
    1,
  );
  assert.deepEqual(
    done.type === "command_execution" && [done.exit_code, done.aggregated_output, done.status],
    [2, "no rule\n", "failed"],
  );
  const aborted = completedCallItem(
    shell,
    output("Command aborted after 0.2 seconds\nOutput:\n", "aborted"),
    1,
  );
  assert.deepEqual(
    aborted.type === "command_execution" && [aborted.exit_code, aborted.status, aborted.call_status],
    [undefined, "failed", "aborted"],
  );
});

Deno.test("completedCallItem() gives edits absolute paths and tells a created file from an overwritten one", () => {
  const write = context("write_file", tool("write_file", "Write"), { path: "a/b.txt", content: "x" });
  const created = completedCallItem(write, output("Created /work/a/b.txt (1 bytes)"), 1);
  const overwritten = completedCallItem(write, output("Overwrote /work/a/b.txt (1 bytes)"), 1);
  const edit = completedCallItem(
    context("edit_file", tool("edit_file", "Edit"), { path: "/etc/x" }),
    output("Edited"),
    1,
  );
  assert.deepEqual([created, overwritten, edit].map((item) => item.type === "file_change" && item.changes), [
    [{ path: "/work/a/b.txt", kind: "add" }],
    [{ path: "/work/a/b.txt", kind: "update" }],
    [{ path: "/etc/x", kind: "update" }],
  ]);
});

Deno.test("startedCallItem() and completedCallItem() give MCP calls Codex's mcp_tool_call with result or error", () => {
  const mcp = tool("mcp__docs__search", "mcp__docs__search", { kind: "mcp", server: "docs", tool: "search" });
  const started = startedCallItem(context("mcp__docs__search", mcp, { q: "x" }));
  assert.deepEqual(
    started.type === "mcp_tool_call" && [started.server, started.tool, started.arguments, started.status],
    ["docs", "search", { q: "x" }, "in_progress"],
  );
  const ok = completedCallItem(context("mcp__docs__search", mcp, { q: "x" }), {
    ...output("found"),
    content: [{ type: "image", mimeType: "image/png", data: "AA" }],
  }, 1);
  assert.deepEqual(ok.type === "mcp_tool_call" && [ok.result, ok.error, ok.status], [
    { content: [{ type: "image", mimeType: "image/png", data: "AA" }], structured_content: null },
    undefined,
    "completed",
  ]);
  const failed = completedCallItem(context("mcp__docs__search", mcp, { q: "x" }), output("boom", "error"), 1);
  assert.deepEqual(failed.type === "mcp_tool_call" && [failed.result, failed.error, failed.status], [
    undefined,
    { message: "boom" },
    "failed",
  ]);
});

Deno.test("startedCallItem() keeps other tools, unknown ones and unparsable arguments as Trellis's tool_call", () => {
  const items = [
    startedCallItem(context("read_file", tool("read_file", "Read"), { path: "x" })),
    startedCallItem(context("nope", undefined, {})),
    startedCallItem({
      ...context("shell", tool("shell", "Bash"), {}),
      call: { ...call("shell", {}), arguments: "{oops" },
    }),
  ];
  assert.deepEqual(items.map((item) => [item.type, "source" in item && item.source]), [
    ["tool_call", "builtin"],
    ["tool_call", "unknown"],
    ["tool_call", "builtin"],
  ]);
});

Deno.test("completedCallItem() carries a display text beside the model's output for an MCP call (#21 item 6)", () => {
  const mcp = context(
    "weather__now",
    tool("weather__now", "mcp__weather__now", {
      kind: "mcp",
      server: "weather",
      tool: "now",
    } as ToolSource),
    { city: "Lyon" },
  );
  const done = completedCallItem(mcp, output('{"sky":"sunny"}'), 2, "Sunny in Lyon");
  assert.deepEqual("call_id" in done && [done.output, done.display_text], [
    '{"sky":"sunny"}',
    "Sunny in Lyon",
  ]);
  assert.deepEqual(
    done.type === "mcp_tool_call" && done.result?.content,
    [{ type: "text", text: "Sunny in Lyon" }],
  );
  // Without one, the item has no display_text and the result is the output.
  const plain = completedCallItem(mcp, output("Sunny"), 2);
  assert.equal("display_text" in plain, false);
});
