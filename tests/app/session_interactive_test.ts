/** The Session APIs the interactive mode uses (#15 item 1): many turns over one Session. */
import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { call, say, scriptedModel } from "../loop/_fakes.ts";

async function open(options: { hooks?: unknown; overrides?: string[] } = {}) {
  const { root, env } = await makeSandboxHome();
  await platform.fs.mkdir(`${root}/ws`);
  if (options.hooks) {
    await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/hooks.json`, JSON.stringify(options.hooks));
    const trusted = await runCliCaptured(["hooks", "trust", "--all"], { env, cwd: `${root}/ws` });
    assert.equal(trusted.code, 0, trusted.stderr);
  }
  const loaded = await loadConfig(platform.fs, {
    cwd: `${root}/ws`,
    env: (name) => env[name],
    overrides: [
      "skills.bundled.enabled=false",
      "model_context_window=100000",
      "tool_set=trellis",
      ...(options.overrides ?? []),
    ],
  });
  const model = scriptedModel([
    [say("one")],
    [say("two")],
    [say("three")],
    [call("shell", { command: "touch asked-never" })],
    [say("four")],
    [call("shell", { command: "touch asked-untrusted" })],
    [say("five")],
  ]);
  const session = await Session.open({ platform, loaded, events: () => {}, approver: noTtyApprover, model });
  return { session, model, root };
}

const signal = () => new AbortController().signal;

Deno.test("Session runs many turns on one transcript; turn ids never repeat, also after a blocked prompt", async () => {
  const { session, model } = await open({
    hooks: {
      hooks: {
        UserPromptSubmit: [{
          hooks: [{ type: "command", command: "grep -q blockme && { echo no >&2; exit 2; }; exit 0" }],
        }],
      },
    },
  });
  try {
    assert.equal(
      (await session.runTurn({ prompt: "first", maxSteps: 3, signal: signal() })).status,
      "completed",
    );
    assert.equal(
      (await session.runTurn({ prompt: "blockme", maxSteps: 3, signal: signal() })).status,
      "blocked",
    );
    assert.equal(
      (await session.runTurn({ prompt: "third", maxSteps: 3, signal: signal() })).status,
      "completed",
    );
  } finally {
    await session.close();
  }
  const lines = (await platform.fs.readTextFile(session.transcript.file!)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const turns = lines.filter((l) => l.type === "turn").map((l) => [l.turn_id.split("-").at(-1), l.status]);
  assert.deepEqual(turns, [["t1", "completed"], ["t2", "blocked"], ["t3", "completed"]]);
  // The third request carries the first exchange: one conversation.
  assert.match(JSON.stringify(model.requests[1].input), /first/);
  assert.doesNotMatch(JSON.stringify(model.requests[1].input), /blockme/);
});

Deno.test("Session attaches @files after the prompt, reports context use, and changes model and approvals", async () => {
  const { session, model, root } = await open();
  const ws = `${root}/ws`;
  try {
    assert.equal(session.contextTokens(), null);
    await session.runTurn({
      prompt: "look at @a.txt",
      maxSteps: 3,
      signal: signal(),
      attachments: [{ path: "a.txt", content: "A </attached_file> B", truncated: true }],
    });
    const input = model.requests[0].input;
    const last = input.at(-1)!;
    assert.deepEqual(last, {
      type: "message",
      role: "user",
      content:
        '<attached_file path="a.txt">\nA <\\/attached_file> B\n[truncated: only the beginning of the file is attached]\n</attached_file>',
    });
    assert.equal(session.contextTokens(), 1, "the last request's input + output tokens");
    assert.equal(session.info().contextWindow, 100000);
    session.setModel("other-model");
    session.setApprovalPolicy("never");
    assert.deepEqual([session.info().model, session.info().approvalPolicy], ["other-model", "never"]);
    await session.runTurn({ prompt: "again", maxSteps: 3, signal: signal() });
    assert.equal(model.requests[1].model, "other-model");
    const before = session.transcript.items.length;
    assert.equal(await session.ask("what does ls do?", signal()), "three");
    assert.equal(session.transcript.items.length, before, "ask() records nothing");
    assert.deepEqual(model.requests[2].tools, []);
    // #26 item 5: the approval change was checked by its label only. It changes what a call does:
    // under "never" the command runs unasked; under "untrusted" it is asked (and refused here).
    await session.runTurn({ prompt: "make one", maxSteps: 3, signal: signal() });
    assert.ok(await platform.fs.stat(`${ws}/asked-never`), "never: the command ran without asking");
    session.setApprovalPolicy("untrusted");
    await session.runTurn({ prompt: "make another", maxSteps: 3, signal: signal() });
    assert.equal(await platform.fs.stat(`${ws}/asked-untrusted`), null, "untrusted: asked, refused, not run");
    assert.match(JSON.stringify(model.requests.at(-1)!.input), /approval/i);
  } finally {
    await session.close();
  }
});
