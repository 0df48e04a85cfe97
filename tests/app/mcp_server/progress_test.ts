import assert from "node:assert/strict";
import { ChildTransport, newClient, serverSetup } from "./_harness.ts";

/**
 * Progress reaches a slow client whole (#17 item 4): the SDK's client dispatches a notification a
 * microtask after reading it and a response at once, so progress read in the same chunk as the
 * result would be dropped and reported as a protocol error (typescript-sdk#2580). The server pings
 * the client after a call's last progress and answers only then.
 */
Deno.test("mcp-server: a client that reads late still gets every progress notification, and no protocol error", async () => {
  const setup = await serverSetup("two_replies");
  // 150 ms before each read: everything the server wrote meanwhile arrives in one chunk.
  const transport = new ChildTransport(setup, [], 150);
  const client = newClient();
  const errors: string[] = [];
  client.onerror = (error) => void errors.push(error.message);
  try {
    await client.connect(transport);
    const progress: string[] = [];
    const result = await client.callTool({ name: "trellis", arguments: { prompt: "one" } }, undefined, {
      onprogress: (p) => void progress.push(p.message ?? ""),
    });
    assert.equal((result.content as { text: string }[])[0].text, "First answer.");
    assert.deepEqual(progress, [
      "turn started",
      "agent message started",
      "agent message completed",
      "turn completed",
    ]);
    assert.deepEqual(errors, []);
  } finally {
    await transport.endInput();
    await transport.child.status;
    await setup.close();
  }
});
