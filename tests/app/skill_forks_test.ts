import assert from "node:assert/strict";
import { forkSkills } from "../../lib/app/skill_forks.ts";
import { platform } from "../../lib/platform/mod.ts";
import { expandCommandBody, skillMessage, type SkillMetadata } from "../../lib/skills/mod.ts";

/** What the skills loader gives forkSkills: enough of a skill's metadata for its path and kind. */
function meta(name: string, path: string, command: boolean): SkillMetadata {
  return {
    name,
    description: "x",
    path,
    dir: path.slice(0, path.lastIndexOf("/")),
    scope: "user",
    root: "/",
    authority: "local",
    policy: {},
    extra: {},
    ...(command ? { command: {} } : {}),
  } as unknown as SkillMetadata;
}

Deno.test("#22 item 5: a forked command's subagent gets the command's text as injected (arguments filled), without the skill wrapper; a forked SKILL.md gets its body", async () => {
  const dir = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-forks-"));
  const commandFile = `${dir}/review.md`;
  await platform.fs.writeTextFile(
    commandFile,
    "---\ndescription: Review.\ncontext: fork\nagent: reviewer\n---\nReview $ARGUMENTS closely.\nList what breaks.\n",
  );
  const skillFile = `${dir}/SKILL.md`;
  await platform.fs.writeTextFile(
    skillFile,
    "---\nname: survey\ndescription: x\ncontext: fork\n---\n\nSURVEY-BODY\n\n",
  );
  const command = meta("demo:review", commandFile, true);
  const skill = meta("survey", skillFile, false);
  const injected = expandCommandBody("Review $ARGUMENTS closely.\nList what breaks.\n", "src/a.ts");
  const asked: { agentType: string; skill: string; prompt: string }[] = [];
  const out = await forkSkills(
    [skillMessage(command, injected), skillMessage(skill, await platform.fs.readTextFile(skillFile))],
    [command, skill],
    {
      fs: platform.fs,
      signal: new AbortController().signal,
      events: () => {},
      fork: ({ agentType, skill, prompt }) => {
        asked.push({ agentType, skill, prompt });
        return Promise.resolve({ status: "success", output: `answer for ${skill}` });
      },
    },
  );
  assert.deepStrictEqual(asked, [
    { agentType: "reviewer", skill: "demo:review", prompt: injected },
    { agentType: "general-purpose", skill: "survey", prompt: "SURVEY-BODY" },
  ]);
  assert.equal(injected, "Review src/a.ts closely.\nList what breaks.\n");
  // Each takes its skill's place as the agent's answer, in the same wrapper.
  assert.deepStrictEqual(out.map((i) => i.type === "message" ? i.content : ""), [
    `<skill>\n<name>demo:review</name>\n<path>${commandFile}</path>\n(context: fork — run by the reviewer agent; its answer:)\nanswer for demo:review\n</skill>`,
    `<skill>\n<name>survey</name>\n<path>${skillFile}</path>\n(context: fork — run by the general-purpose agent; its answer:)\nanswer for survey\n</skill>`,
  ]);
});
