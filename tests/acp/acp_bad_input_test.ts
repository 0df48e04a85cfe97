import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { acpSetup, connect, updatesOf } from "./_harness.ts";

async function refusal(promise: Promise<unknown>): Promise<acp.RequestError> {
  const error = await promise.then(() => null, (e) => e);
  assert.ok(error instanceof acp.RequestError, `expected a JSON-RPC error, got ${error}`);
  return error;
}

// #25 bad input: requests before initialize, an unknown session id, a prompt while one runs.
Deno.test("acp: a request before initialize, an unknown session, a second prompt while one runs: clear errors, serving goes on", async () => {
  const setup = await acpSetup("slow_stream");
  const c = connect(setup);
  try {
    const early = await refusal(c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] }));
    assert.equal(early.code, -32600);
    await c.initialize();
    const unknown = await refusal(
      c.agent.request("session/prompt", {
        sessionId: "20990101000000-deadbeef",
        prompt: [{ type: "text", text: "x" }],
      }),
    );
    assert.equal(unknown.code, -32002);
    assert.match(unknown.message, /Unknown session "20990101000000-deadbeef"/);
    const relative = await refusal(c.agent.request("session/new", { cwd: "relative/dir", mcpServers: [] }));
    assert.match(relative.message + JSON.stringify(relative.data), /not an absolute path/);
    const { sessionId } = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
    const first = c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "talk" }] });
    while (updatesOf(c, "agent_message_chunk").length === 0) await new Promise((r) => setTimeout(r, 20));
    const second = await refusal(
      c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] }),
    );
    assert.match(second.message + JSON.stringify(second.data), /already running a prompt/);
    // session/cancel stops the running one: it answers `cancelled`.
    await c.agent.notify("session/cancel", { sessionId });
    assert.equal((await first).stopReason, "cancelled");
    const mode = await refusal(c.agent.request("session/set_mode", { sessionId, modeId: "sometimes" }));
    assert.match(mode.message, /sometimes/);
  } finally {
    await c.close();
    await setup.close();
  }
});

// #25 bad input: the client disappears mid-turn — the agent ends (no orphan: the shell command
// it ran is gone), and the transcript keeps the turn so far.
Deno.test("acp: a client that disappears mid-turn ends the agent and its command; the transcript is kept", async () => {
  const setup = await acpSetup("shell_sleep");
  const c = connect(setup, {
    extra: ["-c", "approval_policy=never", "-c", "sandbox_mode=danger-full-access"],
  });
  try {
    await c.initialize();
    const { sessionId } = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
    void c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "sleep" }] }).catch(
      () => {},
    );
    while (updatesOf(c, "tool_call").length === 0) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    c.connection.close();
    await c.child.stdin.close().catch(() => {});
    const status = await c.child.status;
    assert.equal(status.success, true, c.stderr());
    const ps = new TextDecoder().decode(
      (await new Deno.Command("ps", { args: ["-eo", "args"] }).output()).stdout,
    );
    assert.doesNotMatch(ps, /^sleep 30$/m);
    const transcript = await Deno.readTextFile(`${setup.home}/sessions/${sessionId}.jsonl`);
    assert.match(transcript, /"sleep"/);
    assert.match(transcript, /function_call_output/);
  } finally {
    await c.close();
    await setup.close();
  }
});

// #25 bad input: fs/write_text_file to a protected path is refused before the client is asked;
// the neighbour: an ordinary workspace file is written through the client.
Deno.test("acp: a write to a protected path never reaches the client's fs/write_text_file; a workspace file does", async () => {
  const setup = await acpSetup({
    steps: [
      { tool_calls: [{ name: "write_file", arguments: { path: ".git/hooks/pre-commit", content: "evil" } }] },
      { tool_calls: [{ name: "write_file", arguments: { path: "ok.txt", content: "fine" } }] },
      { text: "Done." },
    ],
  });
  await Deno.mkdir(`${setup.workspace}/.git/hooks`, { recursive: true });
  const c = connect(setup, { fs: { buffers: {} }, extra: ["-c", "approval_policy=never"] });
  try {
    await c.initialize();
    const { sessionId } = await c.agent.request("session/new", { cwd: setup.workspace, mcpServers: [] });
    await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write" }] });
    assert.deepEqual(c.written.map((w) => w.path), [`${setup.workspace}/ok.txt`]);
    const [refused] = updatesOf(c, "tool_call_update").filter((u) => u.status);
    assert.equal(refused.status, "failed");
    assert.match(JSON.stringify(refused.content), /\.git/);
    assert.equal(
      await Deno.stat(`${setup.workspace}/.git/hooks/pre-commit`).then(() => true, () => false),
      false,
    );
    assert.equal(c.permissions.length, 0);
  } finally {
    await c.close();
    await setup.close();
  }
});
