import assert from "node:assert/strict";
import { parseOverride } from "../../../lib/config/mod.ts";
import { progressMessage } from "../../../lib/app/mcp_server/call_events.ts";
import { callOverrides, tomlValue } from "../../../lib/app/mcp_server/config_overrides.ts";
import { parseReplyArguments, parseTrellisArguments } from "../../../lib/app/mcp_server/tool_arguments.ts";
import { turnResult } from "../../../lib/app/mcp_server/trellis_tools.ts";
import { emptyUsage } from "../../../lib/shared/mod.ts";

Deno.test("parseTrellisArguments() names every field that is wrong, and an unknown field", () => {
  assert.deepEqual(
    parseTrellisArguments({ prompt: "x", "approval-policy": "sometimes", extra: 1, model: 2 }),
    {
      ok: false,
      error: 'Invalid arguments for trellis: "model": Invalid input: expected string, received number; ' +
        '"approval-policy": Invalid option: expected one of "untrusted"|"on-failure"|"on-request"|"never"; ' +
        '"extra": unknown field',
    },
  );
  assert.deepEqual(parseTrellisArguments({ prompt: "x", sandbox: "read-only", config: { a: 1 } }), {
    ok: true,
    value: { prompt: "x", sandbox: "read-only", config: { a: 1 } },
  });
});

Deno.test("parseReplyArguments() takes threadId, or Codex's deprecated conversationId, and requires one", () => {
  assert.deepEqual(parseReplyArguments({ threadId: "t1", prompt: "x" }), {
    ok: true,
    value: { threadId: "t1", prompt: "x" },
  });
  assert.deepEqual(parseReplyArguments({ conversationId: "t2", prompt: "x" }), {
    ok: true,
    value: { threadId: "t2", prompt: "x" },
  });
  assert.deepEqual(parseReplyArguments({ prompt: "x" }), {
    ok: false,
    error: 'Invalid arguments for trellis-reply: "threadId": required (the id `trellis` returned)',
  });
});

Deno.test("callOverrides() writes config as -c overrides that parse back to the same values; named fields win", () => {
  const overrides = callOverrides({
    prompt: "x",
    model: "m",
    sandbox: "read-only",
    "approval-policy": "never",
    config: {
      model: "ignored-because-later-wins",
      "sandbox_workspace_write.network_access": true,
      tool_output_max_bytes: 1000,
      project_doc_fallback_filenames: ["A.md", 'q"uote\n.md'],
      model_providers: { local: { base_url: "http://x", http_headers: { "X-A": "b" } } },
    },
  });
  assert.deepEqual(overrides.map((o) => JSON.parse(JSON.stringify(parseOverride(o)))), [
    { model: "ignored-because-later-wins" },
    { sandbox_workspace_write: { network_access: true } },
    { tool_output_max_bytes: 1000 },
    { project_doc_fallback_filenames: ["A.md", 'q"uote\n.md'] },
    { model_providers: { local: { base_url: "http://x", http_headers: { "X-A": "b" } } } },
    { model: "m" },
    { sandbox_mode: "read-only" },
    { approval_policy: "never" },
  ]);
});

Deno.test("tomlValue() refuses what TOML cannot hold, naming the config key", () => {
  assert.throws(() => tomlValue({ a: [1, null] }, "x"), /"config\.x\.a\[1\]": expected a string, number/);
  assert.throws(() => tomlValue(Infinity, "n"), /"config\.n": expected a number TOML can hold/);
});

Deno.test("progressMessage() gives one short line per step, and reads item types it does not know", () => {
  const lines = [
    { type: "turn.started", turn_id: "t" },
    { type: "item.started", item: { id: "1", type: "tool_call", name: "shell", status: "in_progress" } },
    { type: "item.completed", item: { id: "1", type: "tool_call", name: "shell", status: "denied" } },
    { type: "item.completed", item: { id: "2", type: "command_execution", status: "completed" } },
    { type: "item.updated", item: { id: "3", type: "agent_message", text: "par" } },
    { type: "approval.requested", call_id: "c", tool: "shell", reason: "r" },
    { type: "turn.failed", turn_id: "t", error: { message: "boom" } },
  ].map((event) => progressMessage(event as never));
  assert.deepEqual(lines, [
    "turn started",
    "tool call shell started",
    "tool call shell denied",
    "command execution completed",
    null,
    "waiting for approval: shell",
    "turn failed: boom",
  ]);
});

Deno.test("turnResult() is Codex's result shape; a turn that did not end normally is a tool error", () => {
  const base = { usage: emptyUsage(), steps: 1 };
  assert.deepEqual(turnResult("t1", { ...base, status: "completed", lastMessage: "done" }), {
    text: "done",
    structured: { threadId: "t1", content: "done", status: "completed" },
  });
  assert.deepEqual(
    turnResult("t1", { ...base, status: "aborted", lastMessage: null, error: { message: "interrupted" } }),
    {
      text: "Turn aborted: interrupted",
      structured: { threadId: "t1", content: "Turn aborted: interrupted", status: "aborted" },
      isError: true,
    },
  );
});
