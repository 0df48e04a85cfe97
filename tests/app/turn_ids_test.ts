import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { say, scriptedModel } from "../loop/_fakes.ts";

Deno.test("turn ids count turns (t1, t2, t3), whatever user messages skills add, and carry on across a resume", async () => {
  const { root, env } = await makeSandboxHome();
  const skillDir = `${env.HOME}/.agents/skills/notes`;
  await platform.fs.mkdir(skillDir);
  await platform.fs.writeTextFile(
    `${skillDir}/SKILL.md`,
    "---\nname: notes\ndescription: notes\n---\nbody\n",
  );
  await platform.fs.mkdir(`${root}/ws`);
  const loaded = await loadConfig(platform.fs, {
    cwd: `${root}/ws`,
    env: (name) => env[name],
    overrides: ["skills.bundled.enabled=false"],
  });
  const started: string[] = [];
  const open = async (resume?: string) =>
    await Session.open({
      platform,
      loaded,
      events: (e: TrellisEventBody) => void (e.type === "turn.started" && started.push(e.turn_id)),
      approver: noTtyApprover,
      model: scriptedModel([[say("one")], [say("two")], [say("three")]]),
      ...(resume ? { resume } : {}),
    });
  const turn = (session: Session, prompt: string, skills: string[] = []) =>
    session.runTurn({ prompt, skills, maxSteps: 3, signal: new AbortController().signal });
  const first = await open();
  try {
    // The selected skill's body is a second user message of turn 1.
    await turn(first, "first", ["notes"]);
    await turn(first, "second");
    assert.equal(
      first.transcript.items.filter((i) => i.type === "message" && i.role === "user").length,
      3,
      "the skill body is recorded as a user message",
    );
  } finally {
    await first.close();
  }
  const resumed = await open(first.threadId);
  try {
    await turn(resumed, "third");
  } finally {
    await resumed.close();
  }
  const id = first.threadId;
  assert.deepEqual(started, [`${id}-t1`, `${id}-t2`, `${id}-t3`]);
  await platform.fs.remove(root, { recursive: true });
});
