import assert from "node:assert/strict";
import { EventView } from "../../../lib/cli/interactive/event_view.ts";
import { loadMarkdownLibraries } from "../../../lib/cli/interactive/markdown_libraries.ts";
import { FakeUi } from "./_fake_ui.ts";

async function view(argumentsOf: (id: string) => string | undefined = () => undefined) {
  const ui = new FakeUi();
  const v = new EventView(ui, argumentsOf);
  v.libraries = await loadMarkdownLibraries(ui.colors, false);
  return { ui, v };
}

Deno.test("EventView streams today's item.updated (whole text so far) as rendered lines", async () => {
  const { ui, v } = await view();
  const item = (text: string) => ({ id: "m1", type: "agent_message" as const, text });
  v.handle({ type: "item.started", item: item("") });
  v.handle({ type: "item.updated", item: item("**Hi**\nsecond") });
  assert.deepEqual(ui.printed, ["Hi"]);
  assert.equal(v.pendingText(), "second");
  v.handle({ type: "item.updated", item: item("**Hi**\nsecond line") });
  v.handle({ type: "item.completed", item: item("**Hi**\nsecond line") });
  assert.deepEqual(ui.printed, ["Hi", "second line", ""]);
});

Deno.test("EventView takes delta events too (item.agent_message.delta) and tolerates additive fields", async () => {
  const { ui, v } = await view();
  v.handle({ type: "item.agent_message.delta", item_id: "m2", delta: "one\ntw" });
  v.handle({ type: "item.agent_message.delta", item_id: "m2", delta: "o\n", extra: true });
  v.handle({ type: "item.completed", item: { id: "m2", type: "agent_message", text: "one\ntwo\n" } });
  assert.deepEqual(ui.printed, ["one", "two", ""]);
});

Deno.test("EventView shows a finished call compactly, an edit as a diff, from either event shape", async () => {
  const args = JSON.stringify({ path: "a.txt", old_string: "old\n", new_string: "new\n" });
  const { ui, v } = await view((id) => (id === "c2" ? args : undefined));
  v.handle({
    type: "item.completed",
    item: {
      id: "i1",
      type: "tool_call",
      name: "edit_file",
      call_id: "c1",
      arguments: args,
      source: "builtin",
      status: "completed",
      output: "edited",
      duration_ms: 4,
    },
  });
  // A later shape: file_change with call_status, arguments found through the transcript.
  v.handle({
    type: "item.completed",
    item: {
      id: "i2",
      type: "file_change",
      name: "edit_file",
      call_id: "c2",
      call_status: "completed",
      status: "completed",
      duration_ms: 5,
    },
  });
  assert.deepEqual(ui.printed, [
    "✓ edit_file a.txt · edited · 4 ms",
    "    - old",
    "    + new",
    "✓ edit_file a.txt · 5 ms",
    "    - old",
    "    + new",
  ]);
});

Deno.test("EventView shows an MCP result by its text, not the structured JSON the model got (#21 item 6)", async () => {
  const { ui, v } = await view();
  const item = (id: string, extra: Record<string, unknown>) => ({
    id,
    type: "mcp_tool_call",
    name: "weather__now",
    call_id: id,
    source: "mcp:weather",
    call_status: "completed",
    server: "weather",
    tool: "now",
    arguments: { city: "Lyon" },
    status: "completed",
    output: '{"city":"Lyon","sky":"sunny"}',
    duration_ms: 3,
    ...extra,
  });
  v.handle({ type: "item.completed", item: item("c1", { display_text: "Sunny in Lyon" }) } as never);
  // The neighbour: a call without a display text is shown by its output, as before.
  v.handle({ type: "item.completed", item: item("c2", {}) } as never);
  assert.deepEqual(ui.printed, [
    "✓ weather__now Lyon · Sunny in Lyon · 3 ms",
    '✓ weather__now Lyon · {"city":"Lyon","sky":"sunny"} · 3 ms',
  ]);
});

Deno.test("EventView says a warning once, names hook blocks and added context, makes server text safe", async () => {
  const { ui, v } = await view();
  v.handle({ type: "warning", message: "careful" });
  v.handle({ type: "warning", message: "careful" });
  v.handle({
    type: "hook.completed",
    run_id: "r",
    event: "PreToolUse",
    source: "user",
    status: "blocked",
    duration_ms: 1,
    display_order: 0,
    entries: [{ kind: "feedback", text: "no \x1b[31mrm" }, { kind: "context", text: "repo is frozen" }],
  });
  v.handle({ type: "mcp.server_status", server: "docs", status: "failed", error: "spawn ENOENT" });
  assert.deepEqual(ui.printed, [
    "warning: careful",
    "✗ PreToolUse hook (user) blocked: no ␛[31mrm",
    "  PreToolUse hook (user) added context: repo is frozen",
    "MCP server docs failed to start: spawn ENOENT",
  ]);
  assert.deepEqual(v.servers.get("docs"), { status: "failed", error: "spawn ENOENT" });
});

Deno.test("EventView shows a compaction while it runs, its sizes when done, and a failure with the history kept (#15 item 6)", async () => {
  const { ui, v } = await view();
  const item = { id: "k1", type: "context_compaction", trigger: "auto", status: "in_progress" };
  v.handle({ type: "item.started", item } as never);
  assert.equal(v.compacting, "Compacting the context (automatic)");
  v.handle({
    type: "item.completed",
    item: { ...item, status: "completed", strategy: "summary", tokens_before: 9000, tokens_after: 1200 },
  } as never);
  assert.equal(v.compacting, null);
  v.handle({
    type: "item.completed",
    item: { ...item, trigger: "manual", status: "failed", error: "HTTP 500\x1b[2J" },
  } as never);
  assert.deepEqual(ui.printed, [
    "─ context compacted automatically: ~9,000 → ~1,200 tokens",
    "✗ compaction failed, the history is unchanged: HTTP 500␛[2J",
  ]);
});

Deno.test("EventView clips a hook's long added context at 200 characters and marks the cut with …; a short one is shown whole", async () => {
  const { ui, v } = await view();
  const completed = (text: string) => ({
    type: "hook.completed" as const,
    run_id: "r",
    event: "SessionStart",
    source: "user",
    status: "completed",
    duration_ms: 1,
    display_order: 0,
    entries: [{ kind: "context", text }],
  });
  v.handle(completed("x".repeat(250)) as never);
  v.handle(completed("y".repeat(200)) as never);
  assert.deepEqual(ui.printed, [
    `  SessionStart hook (user) added context: ${"x".repeat(200)}…`,
    `  SessionStart hook (user) added context: ${"y".repeat(200)}`,
  ]);
});
