import assert from "node:assert/strict";
import {
  ChildTransport,
  connectHttp,
  connectStdio,
  newClient,
  recordNotifications,
  serverSetup,
  transcript,
  trellisEvents,
  waitFor,
} from "../app/mcp_server/_harness.ts";

/**
 * `$TRELLIS_BIN mcp-server` (#17 item 4) as an MCP client uses it: the compiled binary (Bun) over
 * stdio and Streamable HTTP, the SDK's client classes, the fixture model server.
 */

Deno.test("e2e mcp-server: a turn, an approval answered by elicitation, and a reply that sees the thread", async () => {
  const setup = await serverSetup([
    { tool_calls: [{ name: "shell", arguments: { command: "touch approved.txt" } }] },
    { text: "Touched it." },
    { text: "Still here." },
  ]);
  const asked: string[] = [];
  const { client } = await connectStdio(setup, {
    elicit: (params) => {
      asked.push(String(params.message));
      return { action: "accept", content: {} };
    },
  });
  try {
    const progress: string[] = [];
    const first = await client.callTool(
      { name: "trellis", arguments: { prompt: "touch it", "approval-policy": "untrusted" } },
      undefined,
      { onprogress: (p) => void progress.push(p.message ?? "") },
    );
    const threadId = (first.structuredContent as { threadId: string }).threadId;
    assert.deepEqual(first.content, [{ type: "text", text: "Touched it." }]);
    assert.ok(
      progress.includes("waiting for approval: shell") && progress.includes("tool call shell completed"),
    );
    assert.equal(asked.length, 1);
    assert.match(asked[0], /^ {2}command {4}touch approved\.txt$/m);
    await Deno.stat(`${setup.workspace}/approved.txt`);

    const reply = await client.callTool({
      name: "trellis-reply",
      arguments: { threadId, prompt: "and now?" },
    });
    assert.deepEqual(reply.structuredContent, { threadId, content: "Still here.", status: "completed" });
    assert.ok(JSON.stringify((setup.model.requests[2] as { input: unknown }).input).includes("Touched it."));
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("e2e mcp-server: a client that closes the pipe mid-turn: turn aborted, transcript consistent, exit 0", async () => {
  const setup = await serverSetup("shell_sleep");
  const transport = new ChildTransport(setup);
  const client = newClient();
  const notifications = recordNotifications(client);
  try {
    await client.connect(transport);
    let running!: () => void;
    const shellStarted = new Promise<void>((resolve) => running = resolve);
    client.callTool({ name: "trellis", arguments: { prompt: "sleep" } }, undefined, {
      onprogress: (p) => {
        if (p.message === "tool call shell started") running();
      },
    }).catch(() => {});
    await shellStarted;
    const threadId = trellisEvents(notifications).find((e) => e.type === "thread.started")!.thread_id;
    await transport.endInput();
    const status = await transport.child.status;
    assert.deepEqual(
      { code: status.code, signal: status.signal },
      { code: 0, signal: null },
      await transport.stderr,
    );
    const lines = await transcript(setup, threadId);
    assert.deepEqual(lines.filter((l) => l.type === "turn").map((l) => l.status), ["aborted"]);
    assert.deepEqual(
      lines.filter((l) => l.type === "item" && l.item.type === "function_call_output").map((l) =>
        l.item.status
      ),
      ["aborted"],
    );
  } finally {
    await setup.close();
  }
});

Deno.test("e2e mcp-server --http: a turn over Streamable HTTP; a dropped stream aborts its turn; SIGTERM exits 0", async () => {
  const setup = await serverSetup([
    { text: "Over HTTP." },
    { tool_calls: [{ name: "shell", arguments: { command: "sleep 30" } }] },
  ]);
  const server = await connectHttp(setup);
  try {
    const first = await server.client.callTool({ name: "trellis", arguments: { prompt: "hi" } });
    assert.equal((first.content as { text: string }[])[0].text, "Over HTTP.");

    const notifications = recordNotifications(server.client);
    let running!: () => void;
    const shellStarted = new Promise<void>((resolve) => running = resolve);
    server.client.callTool({ name: "trellis", arguments: { prompt: "sleep" } }, undefined, {
      onprogress: (p) => {
        if (p.message === "tool call shell started") running();
      },
    }).catch(() => {});
    await shellStarted;
    const threadId = trellisEvents(notifications).find((e) => e.type === "thread.started")!.thread_id;
    await server.transport.close();
    await waitFor(async () => (await transcript(setup, threadId)).some((l) => l.type === "turn"));
    const lines = await transcript(setup, threadId);
    assert.deepEqual(lines.filter((l) => l.type === "turn").map((l) => l.status), ["aborted"]);
  } finally {
    const { status, stdout } = await server.stop();
    assert.deepEqual({ code: status.code, stdout }, { code: 0, stdout: "" }, server.stderr());
    await setup.close();
  }
});

Deno.test("e2e mcp-server --http: no token, 401; with it, a looser sandbox or a config MCP server is refused by name, a tighter one runs", async () => {
  const setup = await serverSetup("text_reply");
  const server = await connectHttp(setup);
  try {
    assert.equal((await Deno.stat(server.tokenFile!)).mode! & 0o777, 0o600);
    const bare = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    await bare.body?.cancel();
    assert.deepEqual([bare.status, bare.headers.get("www-authenticate")], [401, 'Bearer realm="trellis"']);

    const call = (args: Record<string, unknown>) =>
      server.client.callTool({ name: "trellis", arguments: { prompt: "hi", ...args } });
    const loose = await call({ sandbox: "danger-full-access" });
    assert.match((loose.content as { text: string }[])[0].text, /^Not allowed for trellis: "sandbox": /);
    const planted = await call({ config: { mcp_servers: { x: { command: "sh" } } } });
    assert.match(
      (planted.content as { text: string }[])[0].text,
      /^Not allowed for trellis: "config\.mcp_servers": /,
    );
    const tight = await call({ sandbox: "read-only" });
    assert.equal((tight.content as { text: string }[])[0].text, "Hello from the fixture model.");
  } finally {
    const { status } = await server.stop();
    assert.equal(status.code, 0, server.stderr());
    await setup.close();
  }
});
