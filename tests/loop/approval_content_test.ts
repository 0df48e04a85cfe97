import assert from "node:assert/strict";
import type { NamedFileState } from "../../lib/shared/mod.ts";
import { call, say } from "./_fakes.ts";
import { type Box, exists, makeBox, removeBox } from "./_real_tools.ts";
import { approvalTurn, tty } from "./_approval_turn.ts";
import { platform } from "../../lib/platform/mod.ts";

/**
 * #20 item 7 through the loop with the real built-in tools under real bwrap: "always, outside the
 * sandbox" for a workspace script is for that script's content. After the model rewrites it with
 * write_file, the same command is asked about again.
 */

const turn = approvalTurn;

const shell = (command: string, id: string) => call("shell", { command }, id);
const write = (path: string, content: string, id: string) => call("write_file", { path, content }, id);

/** A script that writes outside every root: it fails in the sandbox, so on-failure offers the retry. */
const script = (box: Box, mark: string) => `#!/bin/sh\ntouch ${box.outside}/${mark}\n`;

async function workspaceScript(box: Box, name: string, mark: string): Promise<void> {
  await platform.fs.writeFile(`${box.ws}/${name}`, new TextEncoder().encode(script(box, mark)), {
    mode: 0o755,
  });
}

Deno.test("on-failure: 'always' outside for ./build.sh covers it unchanged, asks again once it is rewritten", async () => {
  const box = await makeBox();
  try {
    await workspaceScript(box, "build.sh", "v1");
    const { io, approver } = tty(["a"]);
    const run = await turn(box, [
      [shell("./build.sh", "s1")],
      [shell("./build.sh", "s2")],
      [write(`${box.ws}/build.sh`, script(box, "v2"), "w1")],
      [shell("./build.sh", "s3")],
      [say("done")],
    ], { profile: { approvalPolicy: "on-failure" }, approver });
    // s1 asked and approved for the session; s2 (same bytes) ran unasked; s3 (rewritten) was asked
    // again — input had ended, so it was denied and the new content never ran outside.
    assert.equal(io.prompts, 2);
    assert.deepStrictEqual(run.decided, [
      ["s1", "approved", "user"],
      ["s2", "approved", "session"],
      ["s3", "denied", "user"],
    ]);
    assert.match(
      io.screen,
      /don't ask again this session for this exact command .*, while \S*\/build\.sh stays as it is now/,
    );
    assert.equal(await exists(`${box.outside}/v1`), true);
    assert.equal(await exists(`${box.outside}/v2`), false);
    const requested = run.events.find((e) => e.type === "approval.requested" && e.call_id === "s1");
    const subject = requested?.type === "approval.requested" ? requested.subject : undefined;
    const files = subject?.kind === "command" ? subject.files ?? [] : [];
    assert.deepStrictEqual(
      files.map((f: NamedFileState) => [f.path, f.state.replace(/[0-9a-f]{64}/, "…")]),
      [[`${box.ws}/build.sh`, "x sha256:…"]],
    );
  } finally {
    await removeBox(box);
  }
});

Deno.test("on-failure: 'always' outside for ./build.sh does not cover another script path", async () => {
  const box = await makeBox();
  try {
    await workspaceScript(box, "build.sh", "v1");
    await workspaceScript(box, "other.sh", "other");
    const { io, approver } = tty(["a"]);
    const run = await turn(box, [
      [shell("./build.sh", "s1")],
      [shell("./other.sh", "s2")],
      [say("done")],
    ], { profile: { approvalPolicy: "on-failure" }, approver });
    assert.equal(io.prompts, 2);
    assert.deepStrictEqual(run.decided, [["s1", "approved", "user"], ["s2", "denied", "user"]]);
    assert.equal(await exists(`${box.outside}/other`), false);
  } finally {
    await removeBox(box);
  }
});

Deno.test("on-failure: the 'bash scripts/x.sh' prefix scope is for that script's bytes too", async () => {
  const box = await makeBox();
  try {
    await platform.fs.mkdir(`${box.ws}/scripts`);
    await workspaceScript(box, "scripts/x.sh", "x1");
    // "p" chooses the offered prefix scope `bash scripts/x.sh` (any arguments after it).
    const { io, approver } = tty(["p"]);
    const run = await turn(box, [
      [shell("bash scripts/x.sh one", "s1")],
      [shell("bash scripts/x.sh two", "s2")],
      [write(`${box.ws}/scripts/x.sh`, script(box, "x2"), "w1")],
      [shell("bash scripts/x.sh three", "s3")],
      [say("done")],
    ], { profile: { approvalPolicy: "on-failure" }, approver });
    assert.equal(io.prompts, 2, io.screen);
    assert.deepStrictEqual(run.decided, [
      ["s1", "approved", "user"],
      ["s2", "approved", "session"],
      ["s3", "denied", "user"],
    ]);
    assert.equal(await exists(`${box.outside}/x2`), false);
  } finally {
    await removeBox(box);
  }
});
