import assert from "node:assert/strict";
import { acpSetup, connect, updatesOf } from "../acp/_harness.ts";

/**
 * #25 item 4: `trellis acp` as shipped — $TRELLIS_BIN (CI: dist/trellis, the Bun-compiled binary;
 * the sources through Deno without it) — driven by the ACP SDK's client: a prompt with a read and
 * an edit through the client's fs, an approval through session/request_permission, then the
 * session loaded again by a new agent process with its history replayed.
 */
Deno.test("e2e acp: the binary serves a turn with an approved edit through the client, then session/load replays it", async () => {
  const setup = await acpSetup("read_and_edit");
  const notes = `${setup.workspace}/notes.md`;
  await Deno.writeTextFile(notes, "TODO\n");
  const c = connect(setup, { fs: { buffers: {} }, extra: ["-c", "approval_policy=untrusted"] });
  let sessionId = "";
  try {
    const init = await c.initialize();
    assert.equal(init.protocolVersion, 1);
    ({ sessionId } = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] }));
    const response = await c.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "fix" }],
    });
    assert.equal(response.stopReason, "end_turn");
    assert.equal(c.permissions.length, 1);
    assert.deepEqual(c.written, [{ path: notes, content: "DONE\n" }]);
    assert.equal(await Deno.readTextFile(notes), "DONE\n");
    assert.deepEqual(updatesOf(c, "tool_call").map((u) => u.kind), ["read", "edit"]);
  } finally {
    await c.close();
  }
  const again = connect(setup);
  try {
    await again.initialize();
    await again.agent.request("session/load", { sessionId, cwd: setup.workspace, mcpServers: [] });
    const said = updatesOf(again, "agent_message_chunk").map((u) => (u.content as { text: string }).text);
    assert.deepEqual(said, ["I read notes.md and replaced TODO with DONE."]);
    assert.equal(updatesOf(again, "user_message_chunk").length, 1);
  } finally {
    await again.close();
    await setup.close();
  }
});
