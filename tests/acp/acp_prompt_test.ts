import assert from "node:assert/strict";
import { acpSetup, connect, updatesOf } from "./_harness.ts";

// #25 item 1: initialize, session/new, a prompt streamed as agent_message_chunk, end_turn.
Deno.test("acp: initialize declares protocol 1 and the capabilities; a prompt streams the answer and ends the turn", async () => {
  const setup = await acpSetup("text_reply");
  const c = connect(setup);
  try {
    const init = await c.initialize();
    assert.equal(init.protocolVersion, 1);
    assert.deepEqual(init.agentCapabilities, {
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true, audio: false },
      mcpCapabilities: { http: true, sse: false },
    });
    assert.equal(init.agentInfo?.name, "trellis");
    const session = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
    assert.match(session.sessionId, /^\d{14}-[0-9a-f]{8}$/);
    assert.equal(session.modes?.currentModeId, "on-request");
    assert.deepEqual(session.modes?.availableModes.map((m) => m.id), [
      "untrusted",
      "on-request",
      "on-failure",
      "never",
    ]);
    const response = await c.agent.request("session/prompt", {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: "say hello" }],
    });
    assert.equal(response.stopReason, "end_turn");
    const text = updatesOf(c, "agent_message_chunk").map((u) => (u.content as { text: string }).text).join(
      "",
    );
    assert.equal(text, "Hello from the fixture model.");
    assert.ok(c.updates.every((n) => n.sessionId === session.sessionId));
    // The model got the prompt as the person's message.
    assert.match(JSON.stringify(setup.model.requests[0]), /say hello/);
  } finally {
    await c.close();
    await setup.close();
  }
});
