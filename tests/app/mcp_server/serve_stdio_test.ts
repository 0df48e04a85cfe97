import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  connectStdio,
  recordNotifications,
  serverSetup,
  transcript,
  trellisEvents,
  waitFor,
} from "./_harness.ts";

/**
 * `trellis mcp-server` over stdio (#17 item 4), driven by the MCP SDK's Client and
 * StdioClientTransport against `deno run -A main.ts mcp-server` and the fixture model server.
 */

Deno.test("mcp-server: trellis returns the final message and a threadId; trellis-reply continues the thread", async () => {
  const setup = await serverSetup("two_replies");
  const { client } = await connectStdio(setup);
  const notifications = recordNotifications(client);
  try {
    const progress: string[] = [];
    const first = await client.callTool({ name: "trellis", arguments: { prompt: "say one" } }, undefined, {
      onprogress: (p) => void progress.push(p.message ?? ""),
    });
    const threadId = (first.structuredContent as { threadId: string }).threadId;
    assert.match(threadId, /^\d{14}-[0-9a-f]{8}$/);
    assert.deepEqual(first, {
      content: [{ type: "text", text: "First answer." }],
      structuredContent: { threadId, content: "First answer.", status: "completed" },
    });
    // One progress notification per step of the turn, with a short message.
    assert.deepEqual(progress, [
      "turn started",
      "agent message started",
      "agent message completed",
      "turn completed",
    ]);
    // Every event arrives as trellis/event, naming the request's thread.
    const seen = trellisEvents(notifications);
    // (Streamed pieces of the answer come too, as many as the stream has chunks: not counted here.)
    const kinds = seen.map((e) => e.type).filter((t) =>
      t !== "item.updated" && t !== "item.agent_message.delta"
    );
    assert.deepEqual(kinds, [
      "thread.started",
      "turn.started",
      "item.started",
      "item.completed",
      "turn.completed",
    ]);
    assert.equal(seen[0].thread_id, threadId);
    assert.ok(seen.every((e) => e._meta.threadId === threadId && e.version === 1));

    const second = await client.callTool({
      name: "trellis-reply",
      arguments: { threadId, prompt: "say two" },
    });
    assert.deepEqual(second, {
      content: [{ type: "text", text: "Second answer." }],
      structuredContent: { threadId, content: "Second answer.", status: "completed" },
    });
    // The model saw the whole thread: the first prompt and answer before the second prompt.
    const input = (setup.model.requests[1] as { input: { role?: string; content: unknown }[] }).input;
    const said = input.filter((i) => i.role === "user" || i.role === "assistant").map((i) =>
      `${i.role}: ${JSON.stringify(i.content)}`
    );
    assert.deepEqual(said.filter((l) => /say one|First answer|say two/.test(l)).map((l) => l.split(":")[0]), [
      "user",
      "assistant",
      "user",
    ]);
    assert.ok(said.at(-1)!.includes("say two"));
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server: tools/list shows trellis and trellis-reply with Codex's argument names", async () => {
  const setup = await serverSetup("text_reply");
  const { client } = await connectStdio(setup);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t.title, t.inputSchema.required, Object.keys(t.inputSchema.properties!)]),
      [
        [
          "trellis",
          "Trellis",
          ["prompt"],
          ["prompt", "model", "profile", "cwd", "approval-policy", "sandbox", "config", "base-instructions"],
        ],
        ["trellis-reply", "Trellis Reply", ["prompt"], ["threadId", "conversationId", "prompt"]],
      ],
    );
    assert.deepEqual(tools[0].outputSchema?.required, ["threadId", "content"]);
    assert.equal(client.getServerVersion()?.name, "trellis");
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server: invalid arguments and an unknown thread are tool errors naming the field; serving goes on", async () => {
  const setup = await serverSetup("text_reply");
  const { client } = await connectStdio(setup);
  try {
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
    assert.deepEqual(await call("trellis", { prompt: "x", approval_policy: "never" }), {
      content: [{ type: "text", text: 'Invalid arguments for trellis: "approval_policy": unknown field' }],
      isError: true,
    });
    const problems = [
      [{}, /"prompt": required/],
      [{ prompt: 3 }, /"prompt": Invalid input: expected string, received number/],
      [{ prompt: "" }, /"prompt": must not be empty/],
      [{ prompt: "x", sandbox: "yolo" }, /"sandbox": Invalid option: expected one of/],
      [{ prompt: "x", cwd: "missing" }, /"cwd": .*\/workspace\/missing is not a directory/],
      [{ prompt: "x", config: { model: null } }, /"config\.model": expected a string, number/],
      [{ prompt: "x", config: { approval_policy: "sometimes" } }, /approval_policy/],
    ] as const;
    for (const [args, expected] of problems) {
      const result = await call("trellis", args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match((result.content as { text: string }[])[0].text, expected);
    }
    const missing = await call("trellis-reply", { prompt: "x" });
    assert.match((missing.content as { text: string }[])[0].text, /"threadId": required/);

    const unknown = await call("trellis-reply", { threadId: "20990101000000-deadbeef", prompt: "x" });
    const text = `Cannot continue thread "20990101000000-deadbeef": no such thread in this server, and no ` +
      `recorded session at ${setup.home}/sessions/20990101000000-deadbeef.jsonl`;
    assert.deepEqual(unknown, {
      content: [{ type: "text", text }],
      structuredContent: { threadId: "20990101000000-deadbeef", content: text },
      isError: true,
    });
    const traversal = await call("trellis-reply", { threadId: "../../etc/passwd", prompt: "x" });
    assert.match(
      (traversal.content as { text: string }[])[0].text,
      /"\.\.\/\.\.\/etc\/passwd": not a thread id/,
    );
    await assert.rejects(call("nope", {}), /Unknown tool "nope"/);

    // Nothing else was affected: a valid call still runs a turn.
    const ok = await call("trellis", { prompt: "hello" });
    assert.equal((ok.content as { text: string }[])[0].text, "Hello from the fixture model.");
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server: a call's cwd, model and config reach the session; base-instructions replace the default", async () => {
  const setup = await serverSetup("text_reply", { pinModel: false });
  await Deno.mkdir(`${setup.workspace}/sub`);
  const { client } = await connectStdio(setup);
  try {
    const result = await client.callTool({
      name: "trellis",
      arguments: {
        prompt: "hi",
        cwd: "sub",
        model: "other-model",
        config: { model_reasoning_effort: "low", "sandbox_workspace_write.network_access": false },
        "base-instructions": "You are a test.",
      },
    });
    const threadId = (result.structuredContent as { threadId: string }).threadId;
    const request = setup.model.requests[0] as { model: string; instructions: string; reasoning?: unknown };
    assert.equal(request.model, "other-model");
    assert.equal(request.instructions, "You are a test.");
    assert.deepEqual(request.reasoning, { effort: "low", summary: "auto" });
    const [header] = await transcript(setup, threadId);
    assert.equal(header.meta.cwd, `${setup.workspace}/sub`);
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server: trellis-reply resumes a thread recorded by an earlier server process", async () => {
  const setup = await serverSetup("two_replies");
  try {
    const first = await connectStdio(setup);
    const result = await first.client.callTool({ name: "trellis", arguments: { prompt: "say one" } });
    const threadId = (result.structuredContent as { threadId: string }).threadId;
    await first.client.close();

    const second = await connectStdio(setup);
    try {
      const reply = await second.client.callTool(
        { name: "trellis-reply", arguments: { threadId, prompt: "say two" } },
        CallToolResultSchema,
      );
      assert.equal((reply.content as { text: string }[])[0].text, "Second answer.");
      const input = JSON.stringify((setup.model.requests[1] as { input: unknown }).input);
      assert.ok(input.includes("say one") && input.includes("First answer."), input);
    } finally {
      await second.client.close();
    }
  } finally {
    await setup.close();
  }
});

Deno.test("mcp-server: cancelling the tools/call aborts the turn; the running call gets an aborted output", async () => {
  const setup = await serverSetup("shell_sleep");
  const { client } = await connectStdio(setup);
  const notifications = recordNotifications(client);
  try {
    const controller = new AbortController();
    const started = Date.now();
    const call = client.callTool({ name: "trellis", arguments: { prompt: "sleep" } }, undefined, {
      signal: controller.signal,
      onprogress: (p) => {
        if (p.message === "tool call shell started") controller.abort("enough");
      },
    });
    await assert.rejects(call, /enough|abort/i);
    const threadId = trellisEvents(notifications).find((e) => e.type === "thread.started")!
      .thread_id as string;
    await waitFor(async () => (await transcript(setup, threadId)).some((l) => l.type === "turn"));
    const lines = await transcript(setup, threadId);
    const output = lines.find((l) => l.type === "item" && l.item.type === "function_call_output");
    assert.equal(output?.item.status, "aborted");
    assert.deepEqual(lines.filter((l) => l.type === "turn").map((l) => l.status), ["aborted"]);
    assert.ok(Date.now() - started < 25_000, "the 30 s sleep was killed");

    // The thread and the server go on: the next turn continues it.
    const reply = await client.callTool({ name: "trellis-reply", arguments: { threadId, prompt: "go on" } });
    assert.equal((reply.content as { text: string }[])[0].text, "Slept.");
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server: a trellis-reply while the thread's turn runs is a tool error; the turn goes on", async () => {
  const setup = await serverSetup([
    { tool_calls: [{ name: "shell", arguments: { command: "sleep 1" } }] },
    { text: "Slept a second." },
  ]);
  const { client } = await connectStdio(setup);
  const notifications = recordNotifications(client);
  try {
    let running!: () => void;
    const shellStarted = new Promise<void>((resolve) => running = resolve);
    const first = client.callTool({ name: "trellis", arguments: { prompt: "sleep" } }, undefined, {
      onprogress: (p) => {
        if (p.message === "tool call shell started") running();
      },
    });
    await shellStarted;
    const threadId = trellisEvents(notifications).find((e) => e.type === "thread.started")!.thread_id;
    const busy = await client.callTool({ name: "trellis-reply", arguments: { threadId, prompt: "now?" } });
    const text = `Cannot continue thread "${threadId}": a turn is already running on it; wait for its ` +
      `result or cancel that call`;
    assert.deepEqual(busy, {
      content: [{ type: "text", text }],
      structuredContent: { threadId, content: text },
      isError: true,
    });
    assert.equal(((await first).content as { text: string }[])[0].text, "Slept a second.");
  } finally {
    await client.close();
    await setup.close();
  }
});
