import assert from "node:assert/strict";
import { interactiveApprover } from "../../../lib/cli/interactive/approval_prompt.ts";
import { approvalRequest } from "../../../lib/loop/mod.ts";
import type { CommandSandbox } from "../../../lib/shared/mod.ts";
import { FakeUi, key } from "./_fake_ui.ts";

// #15 item 4 and #13 items 2, 3, 11: the interactive approver renders the structured request the
// same way `exec` does on a terminal, and its session approvals are the loop's scoped ones.

const shell = (command: string, sandbox: CommandSandbox = "inside", cwd = "/w") =>
  approvalRequest({
    callId: "c",
    toolName: "shell",
    args: { command },
    reason: "not known safe",
    subject: { kind: "command", command, cwd, sandbox },
  });

Deno.test("interactiveApprover shows the whole command, its cwd and placement, controls visible, and takes one key", async () => {
  const ui = new FakeUi({ width: 60 });
  const approver = interactiveApprover(ui, {});
  const long = `make test${" ".repeat(330)}; touch /outside/x\x1b[2K`;
  const answer = approver.request(shell(long));
  await ui.answer("q", key("\r", { name: "return" }), "y"); // not a choice: refused in place
  assert.deepEqual(await answer, { decision: "approved" });
  const shown = ui.printed.join("\n");
  assert.match(shown, /^\? Approve: shell wants to run a command inside the sandbox$/m);
  assert.match(shown, /^ {2}command {4}make test␠×330; touch \/outside\/x␛\[2K$/m);
  assert.match(shown, /^ {2}in {9}\/w$/m);
  assert.match(shown, /^ {2}\[a\] +yes, and don't ask again this session for this$/m);
  assert.match(shown, /^ +exact command \(in \/w, inside the sandbox\)$/m);
  assert.match(shown, /approved once/);
});

Deno.test("interactiveApprover: running OUTSIDE the sandbox is said by the heading and by yes itself", async () => {
  const ui = new FakeUi({ width: 100 });
  const approver = interactiveApprover(ui, {});
  const answer = approver.request(shell("make test", "outside"));
  const q = await ui.question();
  // #21 item 6: the choices are printed once (above, whole); the question shows the keys.
  assert.deepEqual(q.view(100).rows, ["Approve? [y/a/n/x] (the choices above)"]);
  q.key(key("x"));
  assert.equal((await answer).decision, "abort");
  const shown = ui.printed.join("\n");
  assert.match(shown, /wants to run a command OUTSIDE the sandbox/);
  assert.match(shown, /\[y\] +yes, run it OUTSIDE the sandbox, once/);
  assert.match(shown, /denied; the turn stops/);
});

Deno.test("interactiveApprover: 'always' covers that exact command in that directory and placement, not another", async () => {
  const ui = new FakeUi();
  const approver = interactiveApprover(ui, {});
  const first = approver.request(shell("npm test"));
  await ui.answer("a");
  assert.equal((await first).decision, "approved_for_session");
  assert.deepEqual(await approver.request(shell("npm test")), {
    decision: "approved_for_session",
    scope: { kind: "command", command: "npm test", cwd: "/w", sandbox: "inside" },
    by: "session",
  });
  for (
    const other of [
      shell("npm test; rm -rf /"),
      shell("npm test", "outside"),
      shell("npm test", "inside", "/x"),
    ]
  ) {
    const asked = approver.request(other);
    await ui.answer(key("", { name: "escape" }));
    assert.equal((await asked).decision, "denied");
  }
});

Deno.test("interactiveApprover: 'p' approves the named two-word prefix; 'd' the named directory", async () => {
  const ui = new FakeUi();
  const approver = interactiveApprover(ui, {});
  const first = approver.request(shell("git log --oneline"));
  await ui.answer("p");
  await first;
  assert.equal((await approver.request(shell("git log -5"))).by, "session");
  const write = (path: string) =>
    approvalRequest({
      callId: "w",
      toolName: "write_file",
      args: { path, content: "x\n" },
      reason: "outside the roots",
      subject: { kind: "path", path, access: "write" },
    });
  const asked = approver.request(write("/srv/data/a.txt"));
  await ui.answer("d");
  await asked;
  assert.ok(ui.printed.some((l) => l.includes("+ x")), "a write's diff is shown");
  assert.equal((await approver.request(write("/srv/data/b.txt"))).by, "session");
  const elsewhere = approver.request(write("/srv/other.txt"));
  await ui.answer("n");
  assert.equal((await elsewhere).decision, "denied");
});

Deno.test("interactiveApprover: explain asks the model, then asks again without that choice", async () => {
  const ui = new FakeUi();
  const approver = interactiveApprover(ui, { explain: () => Promise.resolve("It lists \x1b[2Jfiles.") });
  const answer = approver.request(shell("ls"));
  await ui.answer("e");
  await new Promise((r) => setTimeout(r, 10));
  const again = await ui.question();
  assert.doesNotMatch(again.view(80).rows.join(" "), /explain/);
  again.key(key("n"));
  assert.equal((await answer).decision, "denied");
  assert.ok(ui.printed.some((l) => l.includes("It lists ␛[2Jfiles.")));
});

Deno.test("interactiveApprover: a plugin install's 'always' covers that plugin only", async () => {
  const ui = new FakeUi();
  const approver = interactiveApprover(ui, {});
  const install = (plugin: string) =>
    approvalRequest({
      callId: "p",
      toolName: "request_plugin_install",
      args: { plugin },
      reason: `install plugin ${plugin}: needed`,
      subject: { kind: "action", name: `install plugin ${plugin}`, arguments: {} },
    });
  const answer = approver.request(install("lint@market"));
  await ui.answer("a");
  assert.equal((await answer).decision, "approved_for_session");
  assert.match(ui.printed.join("\n"), /for install plugin lint@market/);
  const other = approver.request(install("evil@market"));
  await ui.answer("n");
  assert.equal((await other).decision, "denied");
});

// #21 item 1: a question consumes every key typed while it is open.
Deno.test("interactiveApprover: `yes` answers with its first key and leaves the rest of the word to swallow", async () => {
  const ui = new FakeUi();
  const approver = interactiveApprover(ui, {});
  const answer = approver.request(shell("make"));
  const q = await ui.question();
  q.key(key("y"));
  assert.deepEqual(await answer, { decision: "approved" });
  assert.equal(q.trailing, "es", "the app swallows `es⏎` typed after the `y`");
  const always = approver.request(shell("make other"));
  const q2 = await ui.question();
  q2.key(key("a"));
  assert.equal((await always).decision, "approved_for_session");
  assert.equal(q2.trailing, "lways");
});

Deno.test("interactiveApprover: a word that is not an answer (`maybe⏎`) is refused, never answered by a middle letter", async () => {
  const ui = new FakeUi();
  const approver = interactiveApprover(ui, {});
  let settled = false;
  const answer = approver.request(shell("make")).then((a) => (settled = true, a));
  const q = await ui.question();
  for (const ch of "maybe") q.key(key(ch));
  assert.match(q.view(80).rows.join("\n"), /› ?maybe/);
  q.key(key("\r", { name: "return" }));
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(settled, false, "neither the `a` (always) nor the `y` of maybe answered");
  assert.match(q.view(80).rows.join("\n"), /"maybe" is not an answer: press y, a, n, x/);
  // The neighbour: a whole answer word typed after a refusal answers.
  q.key(key("n")); // after a refusal, a choice's key answers at once again
  assert.equal((await answer).decision, "denied");
});

Deno.test("interactiveApprover: typed as a word, `yes⏎` answers yes; `always⏎` answers always", async () => {
  const ui = new FakeUi();
  const approver = interactiveApprover(ui, {});
  const answer = approver.request(shell("make"));
  const q = await ui.question();
  for (const ch of "zz") q.key(key(ch));
  q.key(key("", { name: "backspace" }));
  q.key(key("", { name: "backspace" }));
  for (const ch of "Always") q.key(key(ch, { name: ch.toLowerCase() }));
  q.key(key("\r", { name: "return" }));
  assert.equal((await answer).decision, "approved_for_session");
});

// #21 item 2: Ctrl-C at an approval stops the turn; Esc declines.
Deno.test("interactiveApprover: Ctrl-C answers `no, and stop the turn`; Esc answers `no`", async () => {
  const ui = new FakeUi();
  const approver = interactiveApprover(ui, {});
  const stopped = approver.request(shell("make"));
  const q = await ui.question();
  assert.ok(q.interrupt, "the app lets the approval answer Ctrl-C itself");
  q.key(key("c", { ctrl: true }));
  assert.equal((await stopped).decision, "abort");
  assert.match(ui.printed.join("\n"), /denied; the turn stops/);
  const declined = approver.request(shell("make again"));
  await ui.answer(key("", { name: "escape" }));
  assert.equal((await declined).decision, "denied");
});
