import assert from "node:assert/strict";
import { call, say } from "./_fakes.ts";
import { exists, makeBox, removeBox } from "./_real_tools.ts";
import { approvalTurn, tty } from "./_approval_turn.ts";

/**
 * #13 items 2 and 3 through the loop with the real built-in tools under real bwrap: an approval runs
 * exactly what the prompt showed, inside the sandbox unless "outside" was the explicit choice, and
 * "always" covers only the exact command or path.
 */

const turn = approvalTurn;

const shell = (command: string, id: string) => call("shell", { command }, id);

Deno.test("untrusted: a plain y runs the command inside the sandbox, so a write outside the roots fails", async () => {
  const box = await makeBox();
  try {
    const { io, approver } = tty(["y"]);
    const run = await turn(box, [[shell(`touch ${box.outside}/X`, "s1")], [say("done")]], {
      profile: { approvalPolicy: "untrusted" },
      approver,
    });
    assert.equal(io.prompts, 1);
    assert.match(io.screen, /wants to run a command inside the sandbox/);
    assert.deepStrictEqual(run.decided, [["s1", "approved", "user"]]);
    assert.equal(run.outputs[0].status, "error");
    assert.match(run.outputs[0].output, /Read-only file system/);
    assert.equal(await exists(`${box.outside}/X`), false);
  } finally {
    await removeBox(box);
  }
});

Deno.test("untrusted: 'always' for `npm --version` leaves `rm -rf x` to be asked again (#13 item 3)", async () => {
  const box = await makeBox();
  try {
    await Deno.mkdir(`${box.ws}/x`);
    const { io, approver } = tty(["a", "n"]);
    const run = await turn(box, [
      [shell("npm --version", "n1")],
      [shell("npm --version", "n2")],
      [shell("rm -rf x", "r1")],
      [say("done")],
    ], { profile: { approvalPolicy: "untrusted" }, approver });
    assert.equal(io.prompts, 2);
    assert.deepStrictEqual(run.decided, [
      ["n1", "approved", "user"],
      ["n2", "approved", "session"],
      ["r1", "denied", "user"],
    ]);
    assert.equal(run.outputs[2].status, "denied");
    assert.equal(await exists(`${box.ws}/x`), true);
  } finally {
    await removeBox(box);
  }
});

Deno.test("'always' for a write to /outside/x leaves ~/.bashrc to be asked again (#13 item 3)", async () => {
  const box = await makeBox();
  try {
    const { io, approver } = tty(["a", "n"]);
    const write = (path: string, id: string) => call("write_file", { path, content: "evil\n" }, id);
    const run = await turn(box, [
      [write(`${box.outside}/x`, "w1")],
      [write(`${box.outside}/x`, "w2")],
      [write(`${box.home}/.bashrc`, "w3")],
      [say("done")],
    ], { profile: { approvalPolicy: "on-request" }, approver });
    assert.equal(io.prompts, 2);
    assert.match(io.screen, new RegExp(`path {7}${box.home}/\\.bashrc\n`));
    assert.deepStrictEqual(run.decided, [
      ["w1", "approved", "user"],
      ["w2", "approved", "session"],
      ["w3", "denied", "user"],
    ]);
    assert.equal(await exists(`${box.outside}/x`), true);
    assert.equal(await exists(`${box.home}/.bashrc`), false);
  } finally {
    await removeBox(box);
  }
});

Deno.test("on-failure: the retry asks to run OUTSIDE the sandbox and only that explicit yes lifts it", async () => {
  const box = await makeBox();
  try {
    const command = `touch ${box.outside}/X`;
    const declined = tty(["n"]);
    const first = await turn(box, [[shell(command, "s1")], [say("done")]], {
      profile: { approvalPolicy: "on-failure" },
      approver: declined.approver,
    });
    assert.equal(declined.io.prompts, 1);
    assert.match(declined.io.screen, /wants to run a command OUTSIDE the sandbox/);
    assert.match(declined.io.screen, new RegExp(`command {4}${command}\n`));
    assert.match(
      declined.io.screen,
      /reason {5}the command failed inside the sandbox \(Exit code: 1\); approving runs/,
    );
    assert.equal(first.outputs[0].status, "error");
    assert.equal(await exists(`${box.outside}/X`), false);

    const approved = tty(["y"]);
    const second = await turn(box, [[shell(command, "s2")], [say("done")]], {
      profile: { approvalPolicy: "on-failure" },
      approver: approved.approver,
    });
    assert.equal(second.outputs[0].status, "success");
    assert.equal(await exists(`${box.outside}/X`), true);
  } finally {
    await removeBox(box);
  }
});

Deno.test("on-failure: 'always' outside covers that exact command's retry only", async () => {
  const box = await makeBox();
  try {
    const { io, approver } = tty(["a"]);
    const run = await turn(box, [
      [shell(`touch ${box.outside}/X`, "s1")],
      [shell(`touch ${box.outside}/X`, "s2")],
      [shell(`touch ${box.outside}/Y`, "s3")],
      [say("done")],
    ], { profile: { approvalPolicy: "on-failure" }, approver });
    // s3 was asked (input had ended: denied); s2's retry was answered by the session approval.
    assert.equal(io.prompts, 2);
    assert.deepStrictEqual(run.decided, [
      ["s1", "approved", "user"],
      ["s2", "approved", "session"],
      ["s3", "denied", "user"],
    ]);
    assert.equal(await exists(`${box.outside}/X`), true);
    assert.equal(await exists(`${box.outside}/Y`), false);
  } finally {
    await removeBox(box);
  }
});

Deno.test("'always' to run a command inside the sandbox never approves running it outside", async () => {
  const box = await makeBox();
  try {
    const command = `touch ${box.outside}/X`;
    const { io, approver } = tty(["a"]);
    // Same approver (session) for both turns: untrusted grants "inside"; on-failure's retry asks "outside".
    await turn(box, [[shell(command, "s1")], [say("done")]], {
      profile: { approvalPolicy: "untrusted" },
      approver,
    });
    const run = await turn(box, [[shell(command, "s2")], [say("done")]], {
      profile: { approvalPolicy: "on-failure" },
      approver,
    });
    assert.equal(io.prompts, 2);
    assert.deepStrictEqual(run.decided, [["s2", "denied", "user"]]);
    assert.equal(await exists(`${box.outside}/X`), false);
  } finally {
    await removeBox(box);
  }
});

Deno.test("without a sandbox the prompt says so, and an approved command runs without one", async () => {
  const box = await makeBox();
  try {
    const { io, approver } = tty(["y"]);
    const run = await turn(box, [[shell(`touch ${box.outside}/X`, "s1")], [say("done")]], {
      profile: { approvalPolicy: "on-request" },
      approver,
      sandbox: { available: false, reason: "bwrap not found" },
    });
    assert.match(io.screen, /wants to run a command WITHOUT a sandbox\n/);
    assert.match(
      io.screen,
      /reason {5}sandbox unavailable \(bwrap not found\): the command would run without one/,
    );
    assert.equal(run.outputs[0].status, "success");
    assert.equal(await exists(`${box.outside}/X`), true);
  } finally {
    await removeBox(box);
  }
});

Deno.test("'no, and stop the turn' ends the turn: later calls never run", async () => {
  const box = await makeBox();
  try {
    const { approver } = tty(["x"]);
    const run = await turn(box, [
      [shell("make", "s1")],
      [shell(`touch ${box.ws}/later`, "s2")],
      [say("done")],
    ], { profile: { approvalPolicy: "untrusted" }, approver });
    assert.equal(run.result.status, "aborted");
    assert.deepStrictEqual(run.result.error, {
      message: "stopped: the user declined a call and stopped the turn",
      code: "cancelled",
    });
    assert.deepStrictEqual(run.outputs, [{
      id: "s1",
      status: "denied",
      output: "denied: the user declined and stopped the turn",
    }]);
    assert.equal(await exists(`${box.ws}/later`), false);
  } finally {
    await removeBox(box);
  }
});

Deno.test("approval.decided says by policy when no one was asked, and no message says 'denied: denied:' (#16 item 8)", async () => {
  const box = await makeBox();
  try {
    const { noTtyApprover } = await import("../../lib/loop/mod.ts");
    for (const approvalPolicy of ["never", "untrusted"] as const) {
      const write = call("write_file", { path: `${box.outside}/x`, content: "x" }, "s1");
      const run = await turn(box, [[write], [say("done")]], {
        profile: { approvalPolicy },
        approver: noTtyApprover,
      });
      assert.deepStrictEqual(run.decided, [["s1", "denied", "policy"]]);
      const texts = [
        run.outputs[0].output,
        ...run.events.flatMap((e) => e.type === "approval.decided" ? [`denied: ${e.reason}`] : []),
      ];
      assert.ok(texts.every((t) => !/denied: denied/i.test(t)), texts.join("\n"));
    }
  } finally {
    await removeBox(box);
  }
});

Deno.test("approval.requested carries the structured subject the prompt shows", async () => {
  const box = await makeBox();
  try {
    const { approver } = tty(["n"]);
    const run = await turn(box, [[shell("make test", "s1")], [say("done")]], {
      profile: { approvalPolicy: "untrusted" },
      approver,
    });
    assert.deepStrictEqual(run.events.filter((e) => e.type === "approval.requested"), [{
      type: "approval.requested",
      call_id: "s1",
      tool: "shell",
      reason: "approval policy untrusted: command is not known to be read-only",
      subject: { kind: "command", command: "make test", cwd: box.ws, sandbox: "inside" },
    }]);
  } finally {
    await removeBox(box);
  }
});

Deno.test("a PermissionRequest allow keeps an untrusted command in the sandbox; hooks see which one they allow", async () => {
  const box = await makeBox();
  try {
    const seen: unknown[] = [];
    const hooks = {
      permissionRequest: (_ctx: unknown, input: { sandboxPermissions?: string }) => {
        seen.push(input.sandboxPermissions);
        return Promise.resolve({ decision: "allow" as const });
      },
    };
    const command = `touch ${box.outside}/X`;
    const { approver } = tty([]);
    const untrusted = await turn(box, [[shell(command, "s1")], [say("done")]], {
      profile: { approvalPolicy: "untrusted" },
      approver,
      hooks,
    });
    assert.deepStrictEqual(untrusted.decided, [["s1", "approved", "hook"]]);
    assert.equal(untrusted.outputs[0].status, "error");
    assert.equal(await exists(`${box.outside}/X`), false);
    // on-failure's retry asks for an escalation, and says so to the hook.
    await turn(box, [[shell(command, "s2")], [say("done")]], {
      profile: { approvalPolicy: "on-failure" },
      approver,
      hooks,
    });
    assert.deepStrictEqual(seen, ["use_default", "require_escalated"]);
    assert.equal(await exists(`${box.outside}/X`), true);
  } finally {
    await removeBox(box);
  }
});
