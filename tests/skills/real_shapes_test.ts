/**
 * Shapes of real public skills and plugins (issue 14 item 7, SK-5/SK-6): fixtures written here that
 * reproduce anthropics/skills' 1,100-character description, a body with `</sub>`, openai/skills'
 * `./assets/` icons, a plugin's shared `../../assets/` icons, and Claude plugin commands.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { selectSkills, type SkillRootSpec } from "../../lib/skills/mod.ts";
import { BASIC_FIXTURE, fs, snapshotOf, userRoot } from "./_helpers.ts";

const SHAPES = path.resolve(new URL("../../fixtures/skills/real_shapes", import.meta.url).pathname);
const SKILLS = path.join(SHAPES, "skills");
const PLUGIN = path.join(SHAPES, "plugin");
const plugin = { id: "kit@market", namespace: "kit", root: path.join(PLUGIN, "skills") };
const pluginSkills: SkillRootSpec = {
  path: path.join(PLUGIN, "skills"),
  kind: "plugin",
  scope: "user",
  plugin,
};
const pluginCommands: SkillRootSpec = {
  path: path.join(PLUGIN, "commands"),
  kind: "plugin_commands",
  scope: "user",
  plugin: { ...plugin, root: path.join(PLUGIN, "commands") },
};

Deno.test("a 1,100-character description loads cut to 1,024 characters with a warning naming the file (SK-5)", async () => {
  const snap = await snapshotOf([userRoot(SKILLS)]);
  const skill = snap.skills.find((s) => s.name === "orbit-api");
  assert.ok(skill, JSON.stringify(snap.errors));
  assert.equal([...skill.description].length, 1024);
  assert.ok(skill.description.startsWith("Reference for the Orbit API and its SDKs"));
  assert.deepStrictEqual(snap.errors, []);
  assert.deepStrictEqual(
    snap.warnings.filter((w) => w.includes("long-description")),
    [`Skill ${SKILLS}/long-description/SKILL.md: description is 1100 characters; only its first 1024 are used (SK-5)`],
  );
});

Deno.test("a body with </sub> and </script> is injected exactly as written (SK-11)", async () => {
  const snap = await snapshotOf([userRoot(SKILLS)]);
  const chosen = await selectSkills(snap, { texts: ["use $chemistry"], structured: [] }, fs);
  const file = await fs.readTextFile(path.join(SKILLS, "chemistry/SKILL.md"));
  assert.deepStrictEqual(chosen.items, [{
    type: "message",
    role: "user",
    content: `<skill>\n<name>chemistry</name>\n<path>${SKILLS}/chemistry/SKILL.md</path>\n${file}\n</skill>`,
  }]);
  assert.match(chosen.items[0].type === "message" ? chosen.items[0].content : "", /H<sub>2<\/sub>O/);
});

Deno.test("openai.yaml icons ./assets/x and a plugin's ../../assets/x load; one leaving the plugin is a warning (SK-6)", async () => {
  const snap = await snapshotOf([userRoot(SKILLS), pluginSkills]);
  const figma = snap.skills.find((s) => s.name === "figma")!;
  assert.deepStrictEqual(figma.interface, {
    displayName: "Figma",
    shortDescription: "Design to code",
    iconSmall: path.join(SKILLS, "figma/assets/figma-small.svg"),
    iconLarge: path.join(SKILLS, "figma/assets/figma.png"),
    brandColor: "#0ACF83",
  });
  const send = snap.skills.find((s) => s.name === "kit:send-message")!;
  assert.deepStrictEqual(send.interface, {
    displayName: "Send message",
    iconSmall: path.join(PLUGIN, "assets/logo.svg"),
  });
  assert.deepStrictEqual(snap.warnings.filter((w) => w.includes("openai.yaml")), [
    `Ignored interface.icon_large in ${PLUGIN}/skills/send-message/agents/openai.yaml: ` +
    "must be a relative path that stays inside the skill's folder (or its plugin)",
  ]);
});

Deno.test("the same ../../assets icon outside any plugin leaves the skill's folder and is a warning (SK-6)", async () => {
  const snap = await snapshotOf([userRoot(path.join(PLUGIN, "skills"))]);
  const send = snap.skills.find((s) => s.name === "send-message")!;
  assert.deepStrictEqual(send.interface, { displayName: "Send message" });
  assert.equal(snap.warnings.filter((w) => w.includes("Ignored interface.icon_")).length, 2);
});

Deno.test("the depth bound warns naming the root and marks it incomplete, like the directory bound (SK-3)", async () => {
  const snap = await snapshotOf([userRoot(BASIC_FIXTURE)]);
  assert.equal(snap.roots[0].status, "incomplete");
  assert.ok(!snap.skills.some((s) => s.name === "seven-deep"));
  assert.deepStrictEqual(snap.warnings.filter((w) => w.includes("depth limit")), [
    `skills scan reached its depth limit of 6 directories (root: ${BASIC_FIXTURE}); ` +
    "SKILL.md files deeper than that are not loaded, so the skill list for this root may be incomplete",
  ]);
});

Deno.test("a plugin's commands/*.md load as explicit-only skills <namespace>:<command> (issue 14 item 5)", async () => {
  const snap = await snapshotOf([pluginCommands]);
  assert.deepStrictEqual(snap.errors, []);
  assert.deepStrictEqual(
    snap.skills.map((s) => ({
      name: s.name,
      description: s.description,
      implicit: s.policy.allowImplicitInvocation,
      command: s.command,
      tools: s.extra.allowedTools,
    })),
    [
      {
        name: "kit:commit",
        description: "Create a git commit",
        implicit: false,
        command: {},
        tools: ["Bash(git add:*)", "Bash(git status:*)", "Bash(git commit:*)"],
      },
      {
        name: "kit:frontend:component",
        description: "Scaffold a UI component",
        implicit: false,
        command: { argumentHint: "NAME" },
        tools: undefined,
      },
      {
        name: "kit:help",
        description: "Explain what this plugin does",
        implicit: false,
        command: {},
        tools: undefined,
      },
      {
        name: "kit:loop",
        description: "Start a work loop in this session",
        implicit: false,
        command: { argumentHint: "PROMPT [--max-iterations N]", model: "claude-sonnet-4" },
        tools: ["Bash(./scripts/setup-loop.sh:*)"],
      },
    ],
  );
  assert.equal(snap.roots[0].watched, false);
});

Deno.test("$ns:command rest of the line injects the body with $ARGUMENTS and $1… filled in", async () => {
  const snap = await snapshotOf([pluginCommands]);
  const loop = await selectSkills(
    snap,
    {
      texts: ['first line\nplease $kit:loop "fix tests" quickly --max-iterations 3\nnext line'],
      structured: [],
    },
    fs,
  );
  assert.deepStrictEqual(loop.items, [{
    type: "message",
    role: "user",
    content: `<skill>\n<name>kit:loop</name>\n<path>${PLUGIN}/commands/loop.md</path>\n` +
      "# Loop\n\nFirst word: fix tests. Second word: quickly. " +
      'Everything: "fix tests" quickly --max-iterations 3\n\n</skill>',
  }]);
  const help = await selectSkills(snap, { texts: ["$kit:help the commit one"], structured: [] }, fs);
  assert.match(
    help.items[0].type === "message" ? help.items[0].content : "",
    /List the commands and when to use each\.\n\nARGUMENTS: the commit one\n/,
  );
  const bare = await selectSkills(snap, { texts: [], structured: ["kit:commit"] }, fs);
  assert.match(bare.items[0].type === "message" ? bare.items[0].content : "", /Message focus: \n/);
});
