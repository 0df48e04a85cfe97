import assert from "node:assert/strict";
import { FIXTURE_MCP } from "../helpers/peer_home.ts";
import { acpSetup, connect, updatesOf } from "./_harness.ts";

const wait = async (done: () => boolean) => {
  for (let i = 0; i < 300 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
};

// #25 item 2: session/load resumes a recorded session, its conversation replayed as updates
// before the response; the resumed session continues with the whole history.
Deno.test("acp: session/load replays the recorded conversation as updates and continues it", async () => {
  const setup = await acpSetup("two_replies");
  const first = connect(setup);
  let sessionId: string;
  try {
    await first.initialize();
    ({ sessionId } = await first.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] }));
    await first.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "say one" }] });
  } finally {
    await first.close();
  }
  const second = connect(setup);
  try {
    await second.initialize();
    const loaded = await second.agent.request("session/load", {
      sessionId,
      cwd: setup.workspace,
      mcpServers: [],
    });
    assert.equal(loaded.modes?.currentModeId, "on-request");
    const replay = second.updates.map((n) => n.update).filter((u) =>
      u.sessionUpdate === "user_message_chunk" || u.sessionUpdate === "agent_message_chunk"
    ).map((u) => `${u.sessionUpdate}:${(u as { content: { text: string } }).content.text}`);
    assert.deepEqual(replay, ["user_message_chunk:say one", "agent_message_chunk:First answer."]);
    const response = await second.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "say two" }],
    });
    assert.equal(response.stopReason, "end_turn");
    assert.match(JSON.stringify(setup.model.requests[1]), /say one[\s\S]*First answer[\s\S]*say two/);
    const unknown = await second.agent.request("session/load", {
      sessionId: "20990101000000-deadbeef",
      cwd: setup.workspace,
      mcpServers: [],
    }).then(() => null, (e) => e);
    assert.match(String(unknown?.message), /20990101000000-deadbeef/);
  } finally {
    await second.close();
    await setup.close();
  }
});

// #25 item 2: set_model (the unstable method and the model config option) changes the next request's model.
Deno.test("acp: session/set_model and the model config option change the model the next turn asks for", async () => {
  const setup = await acpSetup("two_replies");
  const c = connect(setup);
  try {
    await c.initialize();
    const session = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
    const model = session.configOptions?.find((o) => o.id === "model");
    assert.equal(model?.category, "model");
    assert.equal(model?.type === "select" && model.currentValue, "fixture-model");
    await c.agent.request("session/set_model", { sessionId: session.sessionId, modelId: "other-model" });
    await c.agent.request("session/prompt", {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: "a" }],
    });
    const options = await c.agent.request("session/set_config_option", {
      sessionId: session.sessionId,
      configId: "model",
      value: "third-model",
    });
    assert.equal(options.configOptions.find((o) => o.id === "model")?.currentValue, "third-model");
    await c.agent.request("session/prompt", {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text: "b" }],
    });
    assert.deepEqual(setup.model.requests.map((r) => (r as { model: string }).model), [
      "other-model",
      "third-model",
    ]);
  } finally {
    await c.close();
    await setup.close();
  }
});

// #25 item 2: available_commands_update lists the built-in compact, skills and plugin commands;
// `/skill args` runs the skill as `$skill` does. The client's MCP servers join with origin acp.
Deno.test("acp: available_commands_update offers compact and the skills; the client's MCP server serves tools", async () => {
  const setup = await acpSetup({
    steps: [{ tool_calls: [{ name: "mcp__fx__echo", arguments: { text: "from the editor's server" } }] }, {
      text: "Deployed.",
    }],
  });
  await Deno.mkdir(`${setup.root}/home/.agents/skills/deploy`, { recursive: true });
  await Deno.writeTextFile(
    `${setup.root}/home/.agents/skills/deploy/SKILL.md`,
    "---\nname: deploy\ndescription: Deploy the service.\n---\nDeploy body.\n",
  );
  const c = connect(setup, { extra: ["-c", "approval_policy=never"] });
  try {
    await c.initialize();
    const { sessionId } = await c.agent.request("session/new", {
      cwd: setup.workspace,
      mcpServers: [{ name: "fx", command: "node", args: [FIXTURE_MCP, "echo"], env: [] }],
    });
    await wait(() => updatesOf(c, "available_commands_update").length > 0);
    const [commands] = updatesOf(c, "available_commands_update");
    const names = commands.availableCommands.map((x) => x.name);
    assert.ok(["compact", "mcp", "deploy"].every((n) => names.includes(n)), names.join(","));
    const response = await c.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "/deploy now" }],
    });
    assert.equal(response.stopReason, "end_turn");
    assert.match(JSON.stringify(setup.model.requests[0]), /Deploy body/);
    const call = updatesOf(c, "tool_call")[0];
    assert.equal(call.title, "fx: echo");
    const done = updatesOf(c, "tool_call_update").filter((u) => u.status).at(-1)!;
    assert.equal(done.status, "completed");
    assert.match(JSON.stringify(done.content), /from the editor's server/);
    // `/mcp` shows the client's server with its origin.
    const before = updatesOf(c, "agent_message_chunk").length;
    await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/mcp" }] });
    const listing = updatesOf(c, "agent_message_chunk").slice(before).map((u) =>
      (u.content as { text: string }).text
    );
    assert.match(listing.join(""), /^fx: ready, stdio, origin acp, \d+\/\d+ tools offered$/);
  } finally {
    await c.close();
    await setup.close();
  }
});

// #25 item 1: prompt content — an embedded resource (the editor's copy) attached as a file, a
// resource link named as its path, an image sent as an image.
Deno.test("acp: an embedded resource, a resource link and an image reach the model", async () => {
  const setup = await acpSetup("text_reply");
  const c = connect(setup);
  try {
    await c.initialize();
    const { sessionId } = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    await c.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "look at" },
        { type: "resource_link", uri: `file://${setup.workspace}/a.ts`, name: "a.ts" },
        { type: "resource", resource: { uri: `file://${setup.workspace}/b.ts`, text: "const unsaved = 1;" } },
        { type: "image", mimeType: "image/png", data: png },
      ],
    });
    const sent = JSON.stringify(setup.model.requests[0]);
    assert.match(sent, new RegExp(`look at @${setup.workspace}/a.ts`));
    assert.match(sent, /attached_file path=\\".*b\.ts\\">\\nconst unsaved = 1;/);
    assert.match(sent, /data:image\/png;base64,iVBORw0KGgo/);
    const audio = await c.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "audio", mimeType: "audio/wav", data: "AAAA" }],
    }).then(() => null, (e) => e);
    assert.match(String(audio?.message), /audio/);
  } finally {
    await c.close();
    await setup.close();
  }
});

// #25 item 3: the shell tool runs in the client's terminal when it offers terminals — the same
// argv, sandbox wrapper included — and the tool call shows the terminal.
Deno.test("acp: with terminal/* offered the shell command runs in the client's terminal, sandbox argv included", async () => {
  const setup = await acpSetup("shell_touch");
  const c = connect(setup, { terminal: true, extra: ["-c", "approval_policy=never"] });
  try {
    await c.initialize();
    const { sessionId } = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
    await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "touch" }] });
    assert.equal(c.terminals.length, 1);
    assert.equal(c.terminals[0].at(-1), "touch approved.txt");
    assert.match(c.terminals[0].join(" "), /bwrap/, JSON.stringify(c.terminals[0]));
    await Deno.stat(`${setup.workspace}/approved.txt`);
    const shown = updatesOf(c, "tool_call_update").find((u) => u.content?.some((x) => x.type === "terminal"));
    assert.ok(shown, "a tool_call_update with the terminal");
    assert.match(JSON.stringify(setup.model.requests[1]), /Exit code: 0/);
  } finally {
    await c.close();
    await setup.close();
  }
});

// #25 item 2, the ACP equivalent of /rewind: the turns listed, files and conversation put back.
Deno.test("acp: /rewind lists the turns and puts a file back to before turn 1; a turn out of range is said, nothing changed", async () => {
  const setup = await acpSetup({
    steps: [
      { tool_calls: [{ name: "write_file", arguments: { path: "notes.md", content: "v1\n" } }] },
      { text: "Wrote v1." },
      { tool_calls: [{ name: "write_file", arguments: { path: "notes.md", content: "v2\n" } }] },
      { text: "Wrote v2." },
    ],
  });
  const c = connect(setup, { extra: ["-c", "approval_policy=never"] });
  const said = async (sessionId: string, text: string) => {
    const before = updatesOf(c, "agent_message_chunk").length;
    const response = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
    assert.equal(response.stopReason, "end_turn");
    return updatesOf(c, "agent_message_chunk").slice(before).map((u) => (u.content as { text: string }).text)
      .join("");
  };
  try {
    await c.initialize();
    const { sessionId } = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
    await wait(() => updatesOf(c, "available_commands_update").length > 0);
    const names = updatesOf(c, "available_commands_update")[0].availableCommands.map((x) => x.name);
    assert.ok(names.includes("rewind"), names.join(","));
    await said(sessionId, "write v1");
    await said(sessionId, "write v2");
    assert.equal(await Deno.readTextFile(`${setup.workspace}/notes.md`), "v2\n");
    const list = await said(sessionId, "/rewind");
    assert.match(list, /^2\. write v2 — 1 file\(s\), 0 shell command\(s\)\n1\. write v1 — 1 file\(s\)/);
    // The neighbour: a turn that does not exist changes nothing.
    assert.match(await said(sessionId, "/rewind 7"), /^Cannot rewind: .*turns are 1 to 2/);
    assert.equal(await Deno.readTextFile(`${setup.workspace}/notes.md`), "v2\n");
    // Files only, back to before turn 2: v1 again.
    assert.match(
      await said(sessionId, "/rewind 2 files"),
      /^Rewound to before turn 2\.\nPut back: .*notes\.md/,
    );
    assert.equal(await Deno.readTextFile(`${setup.workspace}/notes.md`), "v1\n");
    // Both, back to before turn 1: the file the agent created is gone.
    assert.match(await said(sessionId, "/rewind 1"), /The conversation continues from before that turn\./);
    await assert.rejects(Deno.stat(`${setup.workspace}/notes.md`), Deno.errors.NotFound);
    assert.equal(setup.model.requests.length, 4, "no /rewind reached the model");
  } finally {
    await c.close();
    await setup.close();
  }
});
