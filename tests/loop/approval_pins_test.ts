import assert from "node:assert/strict";
import type { ApprovalRequest, Approver } from "../../lib/loop/mod.ts";
import type { PermissionProfile } from "../../lib/tools/mod.ts";
import { call, say, type ScriptedStep } from "./_fakes.ts";
import { type Box, exists, makeBox, removeBox } from "./_real_tools.ts";
import { approvalTurn, tty } from "./_approval_turn.ts";

/**
 * #20 item 18: approval scopes that held with no test to notice if they broke, through the loop with
 * the real file tools: "always for this directory" given for reading grants no writes there, and
 * neither `/` nor `$HOME` is ever offered as a directory scope.
 */

async function turn(
  box: Box,
  steps: ScriptedStep[],
  profile: Partial<PermissionProfile>,
  approver: Approver,
) {
  const run = await approvalTurn(box, steps, {
    profile: { sandboxMode: "workspace-write", ...profile },
    approver,
  });
  return { outputs: run.outputs.map((o) => [o.id, o.status]) };
}

const read = (path: string, id: string) => call("read_file", { path }, id);
const write = (path: string, id: string) => call("write_file", { path, content: "evil\n" }, id);

// Fails when a directory scope stops checking the access kind (scopeCovers' `subject.access ===
// scope.access`): the write then runs as "approved by session" without a prompt.
Deno.test("#20 item 18: 'always: this directory' for reading grants no writes there; other reads in it are covered", async () => {
  const box = await makeBox();
  try {
    await Deno.writeTextFile(`${box.outside}/a.txt`, "a\n");
    await Deno.writeTextFile(`${box.outside}/b.txt`, "b\n");
    const { io, approver } = tty(["d", "n"]);
    const run = await turn(
      box,
      [
        [read(`${box.outside}/a.txt`, "r1")],
        [read(`${box.outside}/b.txt`, "r2")],
        [write(`${box.outside}/c.txt`, "w1")],
        [say("done")],
      ],
      {},
      approver,
    );
    // r1 asked (answered "d"), r2 covered by it, w1 asked again (answered "n").
    assert.deepStrictEqual(io.prompts, 2, io.screen);
    assert.deepStrictEqual(run.outputs, [["r1", "success"], ["r2", "success"], ["w1", "denied"]]);
    assert.equal(await exists(`${box.outside}/c.txt`), false);
  } finally {
    await removeBox(box);
  }
});

/** An approver that records what each request offers and says no. */
function offered(): { approver: Approver; requests: ApprovalRequest[] } {
  const requests: ApprovalRequest[] = [];
  return {
    requests,
    approver: { request: (r) => (requests.push(r), Promise.resolve({ decision: "denied" })) },
  };
}

// Fails when sessionScopesFor offers the directory of a path in `/` (drop `directory !== "/"`) or
// in `$HOME` (drop the `noDirectoryScope` check, or path_access stops setting it).
Deno.test("#20 item 18: `/` and $HOME are never offered as a directory scope; another directory is", async () => {
  const box = await makeBox();
  try {
    const { approver, requests } = offered();
    await turn(
      box,
      [
        [read("/trellis-pin-test", "r1")],
        [write(`${box.home}/.bashrc`, "w1")],
        [read(`${box.home}/.profile`, "r2")],
        [write(`${box.outside}/x`, "w2")],
        [say("done")],
      ],
      { userHome: box.home },
      approver,
    );
    assert.deepStrictEqual(requests.map((r) => r.sessionScopes), [
      [{ kind: "path", path: "/trellis-pin-test", access: "read" }],
      [{ kind: "path", path: `${box.home}/.bashrc`, access: "write" }],
      [{ kind: "path", path: `${box.home}/.profile`, access: "read" }],
      [
        { kind: "path", path: `${box.outside}/x`, access: "write" },
        { kind: "directory", directory: box.outside, access: "write" },
      ],
    ]);
    assert.equal(await exists(`${box.home}/.bashrc`), false);
  } finally {
    await removeBox(box);
  }
});
