import assert from "node:assert/strict";
import {
  connectHttp,
  newClient,
  recordNotifications,
  serverSetup,
  transcript,
  trellisCommand,
  trellisEvents,
  waitFor,
} from "./_harness.ts";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/**
 * `trellis mcp-server --http PORT` (#17 item 4): Streamable HTTP on the loopback interface, driven by
 * the SDK's StreamableHTTPClientTransport.
 */

Deno.test("mcp-server --http: a turn and its reply over Streamable HTTP, with progress; SIGTERM exits 0", async () => {
  const setup = await serverSetup("two_replies");
  const server = await connectHttp(setup);
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const progress: string[] = [];
    const first = await server.client.callTool({ name: "trellis", arguments: { prompt: "one" } }, undefined, {
      onprogress: (p) => void progress.push(p.message ?? ""),
    });
    const threadId = (first.structuredContent as { threadId: string }).threadId;
    assert.equal((first.content as { text: string }[])[0].text, "First answer.");
    assert.deepEqual(progress, [
      "turn started",
      "agent message started",
      "agent message completed",
      "turn completed",
    ]);
    const second = await server.client.callTool({
      name: "trellis-reply",
      arguments: { threadId, prompt: "two" },
    });
    assert.deepEqual(second.structuredContent, { threadId, content: "Second answer.", status: "completed" });
  } finally {
    const { status, stdout } = await server.stop();
    assert.deepEqual({ code: status.code, stdout }, { code: 0, stdout: "" }, server.stderr());
    await setup.close();
  }
});

Deno.test("mcp-server --http: a request whose Host or Origin is not a loopback name is refused (DNS rebinding)", async () => {
  const setup = await serverSetup("text_reply");
  const server = await connectHttp(setup);
  try {
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    // fetch() may not set Host: a raw HTTP/1.1 request, as a rebinding browser would send it.
    const port = Number(new URL(server.url).port);
    const post = async (headers: Record<string, string>) => {
      const connection = await Deno.connect({ hostname: "127.0.0.1", port });
      const head = Object.entries({
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "content-length": String(new TextEncoder().encode(initialize).length),
        connection: "close",
        ...headers,
      }).map(([k, v]) => `${k}: ${v}\r\n`).join("");
      await connection.write(new TextEncoder().encode(`POST /mcp HTTP/1.1\r\n${head}\r\n${initialize}`));
      const text = await new Response(connection.readable).text();
      return { status: Number(text.split(" ")[1]), body: text.slice(text.indexOf("\r\n\r\n") + 4) };
    };
    const evil = await post({ host: "evil.example.com" });
    assert.equal(evil.status, 403);
    assert.equal(
      JSON.parse(evil.body).error.message,
      'Forbidden: Host "evil.example.com" is not a loopback name',
    );
    const origin = await post({ host: `127.0.0.1:${port}`, origin: "http://evil.example.com" });
    assert.equal(origin.status, 403);
    assert.equal(
      JSON.parse(origin.body).error.message,
      'Forbidden: Origin "http://evil.example.com" is not a loopback origin',
    );
    assert.equal(
      (await post({ host: `localhost:${port}`, origin: `http://localhost:${port}`, ...server.headers }))
        .status,
      200,
    );
  } finally {
    await server.stop();
    await setup.close();
  }
});

Deno.test("mcp-server --http: a client that drops its stream mid-turn loses its session; the turn is aborted", async () => {
  const setup = await serverSetup("shell_sleep");
  const server = await connectHttp(setup);
  try {
    const notifications = recordNotifications(server.client);
    let running!: () => void;
    const shellStarted = new Promise<void>((resolve) => running = resolve);
    const call = server.client.callTool({ name: "trellis", arguments: { prompt: "sleep" } }, undefined, {
      onprogress: (p) => {
        if (p.message === "tool call shell started") running();
      },
    });
    call.catch(() => {});
    await shellStarted;
    const threadId = trellisEvents(notifications).find((e) => e.type === "thread.started")!.thread_id;
    const sessionId = server.transport.sessionId!;
    await server.transport.close(); // aborts the POST whose stream would carry the result

    // The server notices the dropped stream at its next write (a keep-alive, every 5 s): on a loaded
    // machine that took more than 20 s once. Past 30 s the shell's `sleep 30` would have ended the
    // turn as completed, which the status check below names.
    await waitFor(async () => (await transcript(setup, threadId)).some((l) => l.type === "turn"), 45_000);
    const lines = await transcript(setup, threadId);
    assert.deepEqual(lines.filter((l) => l.type === "turn").map((l) => l.status), ["aborted"]);
    assert.deepEqual(
      lines.filter((l) => l.type === "item" && l.item.type === "function_call_output").map((l) =>
        l.item.status
      ),
      ["aborted"],
    );
    const stale = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        ...server.headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    assert.equal(stale.status, 404);
    await stale.body?.cancel();

    // Nothing else was affected: a new client continues the thread.
    const client = newClient();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }),
    );
    const reply = await client.callTool({ name: "trellis-reply", arguments: { threadId, prompt: "go on" } });
    assert.equal((reply.content as { text: string }[])[0].text, "Slept.");
    await client.close();
  } finally {
    const { status } = await server.stop();
    assert.equal(status.code, 0, server.stderr());
    await setup.close();
  }
});

Deno.test("mcp-server --http: a port already in use is a clear error (exit 2), never a stack trace", async () => {
  const setup = await serverSetup("text_reply");
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const { command, args } = trellisCommand();
    const out = await new Deno.Command(command, {
      args: [...args, ...setup.args("--http", String(taken.addr.port))],
      cwd: setup.workspace,
      env: setup.env,
      clearEnv: true,
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 2, stderr);
    assert.match(stderr, new RegExp(`^error: Cannot listen on 127\\.0\\.0\\.1:${taken.addr.port}: .+\\n$`));
    assert.equal(new TextDecoder().decode(out.stdout), "");
  } finally {
    taken.close();
    await setup.close();
  }
});
