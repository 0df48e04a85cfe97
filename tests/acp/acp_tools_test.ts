import assert from "node:assert/strict";
import { acpSetup, connect, updatesOf } from "./_harness.ts";

// #25 item 1: tool_call / tool_call_update with kind, title, locations and the edit's diff; the
// client's fs/* used for reads (its unsaved buffer wins) and writes; the reasoning as a thought.
Deno.test("acp: a read and an edit go through the client's fs, with kinds, locations, a diff and the thought", async () => {
  const setup = await acpSetup("read_and_edit");
  const notes = `${setup.workspace}/notes.md`;
  await Deno.writeTextFile(notes, "on disk: TODO\n");
  const c = connect(setup, { fs: { buffers: { [notes]: "unsaved buffer: TODO\n" } } });
  try {
    await c.initialize();
    const { sessionId } = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
    const response = await c.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "fix notes" }],
    });
    assert.equal(response.stopReason, "end_turn");
    const calls = updatesOf(c, "tool_call");
    assert.deepEqual(calls.map((u) => [u.kind, u.title, u.locations]), [
      ["read", "read_file notes.md", [{ path: notes }]],
      ["edit", `Edit ${notes}`, [{ path: notes }]],
    ]);
    const done = updatesOf(c, "tool_call_update").filter((u) => u.status);
    assert.deepEqual(
      done.map((u) => [u.toolCallId, u.status]),
      calls.map((u) => [u.toolCallId, "completed"]),
    );
    // The model read the editor's buffer, not the disk; the edit applied to it, through the client.
    assert.match(JSON.stringify(setup.model.requests[1]), /unsaved buffer: TODO/);
    assert.deepEqual(c.written, [{ path: notes, content: "unsaved buffer: DONE\n" }]);
    assert.deepEqual(done[1].content?.[0], {
      type: "diff",
      path: notes,
      oldText: "unsaved buffer: TODO\n",
      newText: "unsaved buffer: DONE\n",
    });
    // The turn's checkpoint (#25 item 2) kept the disk's text as it was, though the client wrote
    // the file in place: a copy, never a hard link that the in-place write would change too.
    const kept: string[] = [];
    for await (const entry of Deno.readDir(`${setup.home}/checkpoints/${sessionId}/objects`)) {
      kept.push(await Deno.readTextFile(`${setup.home}/checkpoints/${sessionId}/objects/${entry.name}`));
    }
    assert.deepEqual(kept, ["on disk: TODO\n"]);
    const thought = updatesOf(c, "agent_thought_chunk").map((u) => (u.content as { text: string }).text);
    assert.deepEqual(thought, ["I should look at notes.md before changing it."]);
  } finally {
    await c.close();
    await setup.close();
  }
});

Deno.test("acp: without the client's fs the tools read and write the disk, and the edit still carries its diff", async () => {
  const setup = await acpSetup("read_and_edit");
  const notes = `${setup.workspace}/notes.md`;
  await Deno.writeTextFile(notes, "on disk: TODO\n");
  const c = connect(setup);
  try {
    await c.initialize();
    const { sessionId } = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
    await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "fix notes" }] });
    assert.equal(await Deno.readTextFile(notes), "on disk: DONE\n");
    const edit = updatesOf(c, "tool_call_update").filter((u) => u.status).at(-1)!;
    assert.deepEqual(edit.content?.[0], {
      type: "diff",
      path: notes,
      oldText: "on disk: TODO\n",
      newText: "on disk: DONE\n",
    });
  } finally {
    await c.close();
    await setup.close();
  }
});

// #25 item 1: the plan tool's list as `plan` updates, each one whole.
Deno.test("acp: update_plan reaches the client as plan updates with each entry's status", async () => {
  const setup = await acpSetup("update_plan");
  const c = connect(setup);
  try {
    await c.initialize();
    const { sessionId } = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
    await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "plan it" }] });
    const plans = updatesOf(c, "plan").map((p) => p.entries.map((e) => `${e.content}:${e.status}`));
    assert.deepEqual(plans, [
      ["Read the config:in_progress", "Fix the typo:pending"],
      ["Read the config:completed", "Fix the typo:in_progress"],
    ]);
    // The third call (two steps in progress) is refused by the tool: no plan update for it.
    assert.ok(updatesOf(c, "tool_call").every((u) => u.kind === "think"));
  } finally {
    await c.close();
    await setup.close();
  }
});

// #25 item 1: every approval is a session/request_permission naming the tool call, its options
// allow_once, allow_always (named for its scope) and reject_once; the answer decides.
Deno.test("acp: an approval is asked with allow_once / allow_always (scope named) / reject_once; reject denies, allow runs", async () => {
  for (const choice of ["reject_once", "allow_always"] as const) {
    const setup = await acpSetup("shell_touch");
    const c = connect(setup, {
      permission: (request) => ({
        outcome: { outcome: "selected", optionId: request.options.find((o) => o.kind === choice)!.optionId },
      }),
    });
    try {
      await c.initialize();
      const { sessionId } = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
      await c.agent.request("session/set_mode", { sessionId, modeId: "untrusted" });
      assert.deepEqual(updatesOf(c, "current_mode_update").map((u) => u.currentModeId), ["untrusted"]);
      const response = await c.agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text: "touch" }],
      });
      assert.equal(response.stopReason, "end_turn");
      assert.equal(c.permissions.length, 1);
      const [asked] = c.permissions;
      const call = updatesOf(c, "tool_call")[0];
      assert.equal(asked.toolCall.toolCallId, call.toolCallId);
      assert.equal(call.kind, "execute");
      assert.match(asked.toolCall.title ?? "", /touch approved\.txt/);
      assert.deepEqual(asked.options.map((o) => o.kind), ["allow_once", "allow_always", "reject_once"]);
      assert.match(
        asked.options[1].name,
        /^Always allow this session for this exact command \(in .*workspace/,
      );
      const touched = await Deno.stat(`${setup.workspace}/approved.txt`).then(() => true, () => false);
      assert.equal(touched, choice === "allow_always");
      const status = updatesOf(c, "tool_call_update").filter((u) => u.status).at(-1)!.status;
      assert.equal(status, choice === "allow_always" ? "completed" : "failed");
    } finally {
      await c.close();
      await setup.close();
    }
  }
});
