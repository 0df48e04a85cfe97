import assert from "node:assert/strict";
import {
  ChildTransport,
  newClient,
  recordNotifications,
  serverSetup,
  transcript,
  trellisEvents,
} from "./_harness.ts";

/**
 * A client that goes away (#17 item 4, bad input): over stdio the end of its pipe aborts the turn
 * in flight, the transcript stays consistent, and the process exits cleanly on its own.
 */

Deno.test("mcp-server: a client that disconnects mid-turn aborts the turn; the process exits 0 on its own", async () => {
  const setup = await serverSetup("shell_sleep");
  const transport = new ChildTransport(setup);
  const client = newClient();
  const notifications = recordNotifications(client);
  const errors: Error[] = [];
  client.onerror = (error) => void errors.push(error);
  try {
    await client.connect(transport);
    let running!: () => void;
    const shellStarted = new Promise<void>((resolve) => running = resolve);
    const call = client.callTool({ name: "trellis", arguments: { prompt: "sleep" } }, undefined, {
      onprogress: (p) => {
        if (p.message === "tool call shell started") running();
      },
    });
    call.catch(() => {}); // never answered: the client is gone
    await shellStarted;
    const threadId = trellisEvents(notifications).find((e) => e.type === "thread.started")!.thread_id;

    const closedAt = Date.now();
    await transport.endInput();
    const status = await transport.child.status;
    assert.deepEqual(
      { code: status.code, signal: status.signal },
      { code: 0, signal: null },
      await transport.stderr,
    );
    assert.ok(Date.now() - closedAt < 15_000, "the 30 s sleep did not hold the exit");

    const lines = await transcript(setup, threadId);
    const outputs = lines.filter((l) => l.type === "item" && l.item.type === "function_call_output");
    assert.deepEqual(outputs.map((l) => l.item.status), ["aborted"]);
    assert.deepEqual(lines.filter((l) => l.type === "turn").map((l) => l.status), ["aborted"]);
    // stdout carried only JSON-RPC frames: every line parsed, no error reported by the framing.
    assert.deepEqual(errors, []);
  } finally {
    await setup.close();
  }
});

Deno.test("mcp-server: an idle server exits 0 as soon as its client closes the pipe", async () => {
  const setup = await serverSetup("text_reply");
  const transport = new ChildTransport(setup);
  const client = newClient();
  try {
    await client.connect(transport);
    await client.callTool({ name: "trellis", arguments: { prompt: "hi" } });
    await transport.endInput();
    const status = await transport.child.status;
    assert.deepEqual(
      { code: status.code, signal: status.signal },
      { code: 0, signal: null },
      await transport.stderr,
    );
    assert.equal(await transport.stderr, "");
  } finally {
    await setup.close();
  }
});
