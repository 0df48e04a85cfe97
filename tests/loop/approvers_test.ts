import assert from "node:assert/strict";
import {
  approvalRequest,
  type ApprovalRequestInput,
  noTtyApprover,
  rememberingApprover,
  ttyApprover,
} from "../../lib/loop/mod.ts";

/** A tty approver fed scripted input lines; `screen` is everything it wrote. */
function scripted(lines: string[], columns = 72) {
  const io = {
    screen: "",
    readLine: () => Promise.resolve(lines.length ? lines.shift()! : null),
    write: (text: string) => void (io.screen += text),
    columns: () => columns,
  };
  return { io, approver: ttyApprover(io) };
}

const command = (text: string, sandbox: "inside" | "outside" | "unavailable" = "inside", cwd = "/w") =>
  approvalRequest({
    callId: "c1",
    toolName: "shell",
    args: { command: text },
    reason: "approval policy untrusted: command is not known to be read-only",
    subject: { kind: "command", command: text, cwd, sandbox },
  });

const write = (path: string): ApprovalRequestInput => ({
  callId: "c2",
  toolName: "write_file",
  args: { path, content: "x" },
  reason: `writing "${path}" outside the writable roots`,
  subject: { kind: "path", path, access: "write" },
});

Deno.test("ttyApprover() shows the whole 330-blank command, where it runs, and every choice (#13 item 2)", async () => {
  const { io, approver } = scripted(["y"], 60);
  const answer = await approver.request(command("make test" + " ".repeat(330) + "; touch /outside/X"));
  assert.deepStrictEqual(answer, { decision: "approved" });
  assert.equal(
    io.screen,
    [
      "",
      "Approve: shell wants to run a command inside the sandbox",
      "  command    make test␠×330; touch /outside/X",
      "  in         /w",
      "  runs       inside the sandbox: its limits still apply;",
      "             approving does not lift them",
      "  reason     approval policy untrusted: command is not known",
      "             to be read-only",
      "  [y]        yes, once",
      "  [a]        yes, and don't ask again this session for this",
      "             exact command (in /w, inside the sandbox)",
      "  [n]        no: tell the model it was denied",
      "  [x]        no, and stop the turn",
      "Answer (y/a/n/x): ",
    ].join("\n"),
  );
});

Deno.test("ttyApprover() wraps a long command to the terminal width without dropping a character", async () => {
  const long = "echo " + "a".repeat(150) + " && rm -rf /important";
  const { io } = scripted(["n"], 50);
  await ttyApprover(io).request(command(long));
  const commandLines = io.screen.split("\n").slice(2, 7);
  assert.ok(commandLines.every((line) => line.length <= 50), commandLines.join("\n"));
  assert.equal(commandLines.map((line) => line.slice(13)).join(""), long);
});

Deno.test("ttyApprover() says plainly when a command runs outside the sandbox or without one", async () => {
  const prompt = (where: string, runs: string) =>
    [
      "",
      `Approve: shell wants to run a command ${where}`,
      "  command    make deploy",
      "  in         /w",
      `  runs       ${runs}`,
      "  reason     approval policy untrusted: command is not known to be read-only",
      `  [y]        yes, run it ${where}, once`,
      `  [a]        yes, and don't ask again this session for this exact command (in /w, ${where})`,
      "  [n]        no: tell the model it was denied",
      "  [x]        no, and stop the turn",
      "Answer (y/a/n/x): ",
    ].join("\n");
  const outside = scripted(["n"], 120);
  await outside.approver.request(command("make deploy", "outside"));
  assert.equal(
    outside.io.screen,
    prompt(
      "OUTSIDE the sandbox",
      "OUTSIDE the sandbox, with your full rights: it can change or delete anything you can",
    ),
  );
  const none = scripted(["n"], 130);
  await none.approver.request(command("make deploy", "unavailable"));
  assert.equal(
    none.io.screen,
    prompt(
      "WITHOUT a sandbox",
      "WITHOUT a sandbox (none is available here), with your full rights: it can change or delete anything you can",
    ),
  );
});

Deno.test("ttyApprover() names the exact path of a write outside the roots and its directory scope", async () => {
  const { io, approver } = scripted(["n"], 100);
  const answer = await approver.request(approvalRequest(write("/outside/x")));
  assert.deepStrictEqual(answer, {
    decision: "denied",
    reason: 'the user declined (writing "/outside/x" outside the writable roots)',
  });
  assert.equal(
    io.screen,
    [
      "",
      "Approve: write_file wants to write a path it may not touch unasked",
      "  path       /outside/x",
      "  access     write",
      '  reason     writing "/outside/x" outside the writable roots',
      "  [y]        yes, once",
      "  [a]        yes, and don't ask again this session to write this exact path",
      "  [d]        yes, and don't ask again this session to write anything under /outside/",
      "  [n]        no: tell the model it was denied",
      "  [x]        no, and stop the turn",
      "Answer (y/a/d/n/x): ",
    ].join("\n"),
  );
});

Deno.test("ttyApprover() 'always' covers the exact command only, in the same sandbox placement (#13 item 3)", async () => {
  const { io, approver } = scripted(["a", "y", "n"]);
  assert.equal((await approver.request(command("npm --version"))).decision, "approved_for_session");
  // Asked again for another command, and for the same command outside the sandbox.
  assert.equal((await approver.request(command("rm -rf x"))).decision, "approved");
  assert.equal((await approver.request(command("npm --version", "outside"))).decision, "denied");
  // Not asked again for the exact command approved.
  const again = await approver.request(command("npm --version"));
  assert.deepStrictEqual(again, {
    decision: "approved_for_session",
    by: "session",
    scope: { kind: "command", command: "npm --version", cwd: "/w", sandbox: "inside" },
  });
  assert.equal(io.screen.split("Answer (").length - 1, 3);
});

Deno.test("ttyApprover() 'always' covers the exact path; a directory only when that scope was chosen", async () => {
  const exact = scripted(["a", "n", "n"]);
  assert.equal(
    (await exact.approver.request(approvalRequest(write("/outside/x")))).decision,
    "approved_for_session",
  );
  assert.equal((await exact.approver.request(approvalRequest(write("/outside/x")))).by, "session");
  assert.equal((await exact.approver.request(approvalRequest(write("/root/.bashrc")))).decision, "denied");
  assert.equal((await exact.approver.request(approvalRequest(write("/outside/y")))).decision, "denied");
  const dir = scripted(["d", "n"]);
  assert.equal(
    (await dir.approver.request(approvalRequest(write("/outside/x")))).decision,
    "approved_for_session",
  );
  assert.equal((await dir.approver.request(approvalRequest(write("/outside/sub/y")))).by, "session");
  assert.equal((await dir.approver.request(approvalRequest(write("/outside-other/y")))).decision, "denied");
});

const read = (path: string): ApprovalRequestInput => ({
  callId: "c3",
  toolName: "read_file",
  args: { path },
  reason: `reading "${path}" outside the readable roots`,
  subject: { kind: "path", path, access: "read" },
});

const action = (name: string): ApprovalRequestInput => ({
  callId: "c4",
  toolName: "install_plugin",
  args: { name },
  reason: "installing a plugin needs approval",
  subject: { kind: "action", name, arguments: {} },
});

// #26 item 5: the scope tests above only ever used writes, so a scope that forgot its access kind
// (a read approval answering a write) passed them. Each grant here is asked again for the other kind.
Deno.test("ttyApprover() 'always' for a read is no write (nor the reverse), a read directory covers reads only, an action only itself", async () => {
  const exact = scripted(["a", "n", "a", "n"]);
  assert.equal(
    (await exact.approver.request(approvalRequest(read("/outside/x")))).decision,
    "approved_for_session",
  );
  assert.equal((await exact.approver.request(approvalRequest(read("/outside/x")))).by, "session");
  assert.equal((await exact.approver.request(approvalRequest(write("/outside/x")))).decision, "denied");
  assert.equal(
    (await exact.approver.request(approvalRequest(write("/outside/w")))).decision,
    "approved_for_session",
  );
  assert.equal((await exact.approver.request(approvalRequest(read("/outside/w")))).decision, "denied");

  const dir = scripted(["d", "n"]);
  assert.equal(
    (await dir.approver.request(approvalRequest(read("/outside/x")))).decision,
    "approved_for_session",
  );
  assert.equal((await dir.approver.request(approvalRequest(read("/outside/sub/y")))).by, "session");
  assert.equal((await dir.approver.request(approvalRequest(write("/outside/sub/y")))).decision, "denied");

  const acts = scripted(["a", "n"]);
  assert.equal(
    (await acts.approver.request(approvalRequest(action("install plugin a")))).decision,
    "approved_for_session",
  );
  assert.equal((await acts.approver.request(approvalRequest(action("install plugin a")))).by, "session");
  assert.equal((await acts.approver.request(approvalRequest(action("install plugin b")))).decision, "denied");
});

Deno.test("ttyApprover() offers a two-word prefix only for a plain command, and honours it", async () => {
  const { io, approver } = scripted(["p", "n"]);
  const first = await approver.request(command("cargo test --release"));
  assert.deepStrictEqual(first.scope, {
    kind: "command_prefix",
    prefix: ["cargo", "test"],
    cwd: "/w",
    sandbox: "inside",
  });
  assert.match(
    io.screen,
    /\[p\] {8}yes, and don't ask again this session for commands starting\n {13}with "cargo test" \(in \/w, inside the sandbox\)\n/,
  );
  assert.equal((await approver.request(command("cargo test -p core"))).by, "session");
  // Not plain (an operator follows): asked again, and no prefix offered for it.
  assert.equal((await approver.request(command("cargo test; rm -rf ~"))).decision, "denied");
  assert.doesNotMatch(io.screen.slice(io.screen.lastIndexOf("Approve:")), /\[p\]/);
});

Deno.test("ttyApprover() makes escape sequences in the command visible instead of sending them", async () => {
  const { io } = scripted(["n"], 200);
  await ttyApprover(io).request(
    command("ls\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\r\u202eecho ok\u202c\x9b31m"),
  );
  // deno-lint-ignore no-control-regex -- matching controls is the point
  assert.doesNotMatch(io.screen, /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
  assert.match(io.screen, /command {4}ls␛\[2J␛\]52;c;cm0gLXJmIH4=␇␍\\u202eecho ok\\u202c\\u009b31m$/m);
});

Deno.test("ttyApprover() asks again on an unknown answer, denies when input ends, and aborts on x", async () => {
  const retried = scripted(["maybe", "yes"]);
  assert.equal((await retried.approver.request(command("make"))).decision, "approved");
  assert.match(retried.io.screen, /Type one of y, a, n, x: $/);
  const ended = scripted([]);
  assert.deepStrictEqual(await ended.approver.request(command("make")), {
    decision: "denied",
    reason: "no answer: input ended (approval policy untrusted: command is not known to be read-only)",
  });
  const aborted = scripted(["x"]);
  assert.deepStrictEqual(await aborted.approver.request(command("make")), {
    decision: "abort",
    reason: "the user declined and stopped the turn",
  });
});

Deno.test("rememberingApprover() grants only a scope the request offered", async () => {
  const approver = rememberingApprover(() =>
    Promise.resolve({
      decision: "approved_for_session",
      scope: { kind: "directory", directory: "/", access: "write" },
    })
  );
  // The request offered /outside/x and /outside/, never "/": approved once, nothing remembered.
  assert.deepStrictEqual(await approver.request(approvalRequest(write("/outside/x"))), {
    decision: "approved",
    scope: undefined,
  });
  assert.notEqual((await approver.request(approvalRequest(write("/etc/passwd")))).by, "session");
});

Deno.test("noTtyApprover() denies by policy, naming the reason once (#16 item 8)", async () => {
  const answer = await noTtyApprover.request(command("make"));
  assert.deepStrictEqual(answer, {
    decision: "denied",
    by: "policy",
    reason: "approval required (approval policy untrusted: command is not known to be read-only) but no " +
      "terminal is attached to ask; rerun with a TTY, or change approval_policy / sandbox_mode",
  });
});

Deno.test("ttyApprover() takes one key when the terminal gives keys: no line is read, the key is echoed (#21 item 6)", async () => {
  for (
    const [key, decision] of [["y", "approved"], ["n", "denied"], ["x", "abort"], [null, "denied"]] as const
  ) {
    const asked: { keys: string[]; options: unknown }[] = [];
    const io = {
      screen: "",
      readLine: () => Promise.reject(new Error("a line was read")),
      readKey: (keys: string[], options: unknown) => {
        asked.push({ keys, options });
        return Promise.resolve(key);
      },
      write: (text: string) => void (io.screen += text),
      columns: () => 72,
    };
    assert.equal((await ttyApprover(io).request(command("make"))).decision, decision);
    assert.deepStrictEqual(asked, [{ keys: ["y", "a", "n", "x"], options: { escape: "n", interrupt: "x" } }]);
    assert.match(
      io.screen,
      key ? new RegExp(`Answer \\(y/a/n/x\\): ${key}\\n$`) : /Answer \(y\/a\/n\/x\): \n$/,
    );
  }
});
