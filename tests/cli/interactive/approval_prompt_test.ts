import assert from "node:assert/strict";
import { interactiveApprover } from "../../../lib/cli/interactive/approval_prompt.ts";
import { approvalRequest } from "../../../lib/loop/mod.ts";
import { FakeUi, key } from "./_fake_ui.ts";

const shell = (command: string) =>
  approvalRequest({
    callId: "c",
    toolName: "shell",
    args: { command },
    reason: "not known safe",
    subject: { kind: "command", command, cwd: "/w", sandbox: "inside" },
  });

Deno.test("interactiveApprover shows the whole command, control characters visible, and takes one key", async () => {
  const ui = new FakeUi({ width: 40 });
  const approver = interactiveApprover(ui, {});
  const long = `make test${" ".repeat(60)}; touch /outside/x\x1b[2K`;
  const answer = approver.request(shell(long));
  await ui.answer("x", "y"); // not a choice: ignored
  assert.deepEqual(await answer, { decision: "approved" });
  const shown = ui.printed.join("\n");
  assert.match(shown, /shell needs approval/);
  assert.match(shown, /touch \/outside\/x\^\[\[2K/);
});

Deno.test("interactiveApprover: 'always' approves that exact command again, not another", async () => {
  const ui = new FakeUi();
  const approver = interactiveApprover(ui, {});
  const first = approver.request(shell("npm test"));
  await ui.answer("a");
  assert.deepEqual(await first, { decision: "approved_for_session" });
  assert.deepEqual(await approver.request(shell("npm test")), { decision: "approved_for_session" });
  const other = approver.request(shell("npm test; rm -rf /"));
  await ui.answer(key("", { name: "escape" }));
  assert.deepEqual(await other, { decision: "denied", reason: "the user said no" });
});

Deno.test("interactiveApprover: explain asks the model, then asks again without that choice", async () => {
  const ui = new FakeUi();
  const approver = interactiveApprover(ui, { explain: () => Promise.resolve("It lists files.") });
  const answer = approver.request(shell("ls"));
  await ui.answer("e");
  await new Promise((r) => setTimeout(r, 10));
  const again = await ui.question();
  assert.doesNotMatch(again.view(80).rows.join(" "), /explain/);
  again.key(key("n"));
  assert.equal((await answer).decision, "denied");
  assert.ok(ui.printed.some((l) => l.includes("It lists files.")));
});

Deno.test("interactiveApprover: a plugin install offers yes or no only", async () => {
  const ui = new FakeUi();
  const approver = interactiveApprover(ui, {});
  const answer = approver.request(approvalRequest({
    callId: "p",
    toolName: "request_plugin_install",
    args: { plugin: "lint@market" },
    reason: "install plugin lint@market: needed",
  }));
  const q = await ui.question();
  assert.doesNotMatch(q.view(80).rows.join(" "), /always/);
  q.key(key("y"));
  assert.equal((await answer).decision, "approved");
});
