import assert from "node:assert/strict";
import * as path from "node:path";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { BASIC_FIXTURE, fs, skillFile } from "./_helpers.ts";

async function sandbox(userToml = "") {
  const { root, env } = await makeSandboxHome();
  const repo = path.join(root, "repo");
  await fs.mkdir(path.join(repo, ".git"));
  await fs.mkdir(path.join(repo, ".agents/skills/forms"));
  await fs.writeTextFile(
    path.join(repo, ".agents/skills/forms/SKILL.md"),
    skillFile("forms", "PDF forms.", "PDF BODY"),
  );
  await fs.mkdir(path.join(env.HOME, ".claude/skills/review"));
  await fs.writeTextFile(path.join(env.HOME, ".claude/skills/review/SKILL.md"), skillFile("review"));
  await fs.writeTextFile(path.join(env.TRELLIS_HOME, "config.toml"), userToml);
  const run = (...argv: string[]) => runCliCaptured(["skills", ...argv], { env, cwd: repo });
  return { env, repo, run };
}

Deno.test("skills list --json prints every skill with scope, path and flags, then errors and warnings", async () => {
  const { env, repo, run } = await sandbox(
    `[skills]\nextra_roots = ["${BASIC_FIXTURE}"]\n\n[[skills.config]]\nname = "review"\nenabled = false\n`,
  );
  const listed = await run("list", "--json");
  assert.deepStrictEqual(listed.code, 0, listed.stderr);
  const out = JSON.parse(listed.stdout);
  assert.deepStrictEqual(out.skills.slice(0, 2), [
    {
      name: "forms",
      description: "PDF forms.",
      scope: "repo",
      origin: "agents",
      path: `${repo}/.agents/skills/forms/SKILL.md`,
      enabled: true,
      implicit: true,
      plugin: null,
    },
    {
      name: "claude-style",
      description: "Written for Claude Code.",
      scope: "user",
      origin: "trellis",
      path: `${BASIC_FIXTURE}/claude-style/SKILL.md`,
      enabled: true,
      implicit: false,
      plugin: null,
      allowedTools: ["Read", "Grep"],
    },
  ]);
  assert.ok(!out.skills.some((s: { name: string }) => s.name === "review"));
  assert.deepStrictEqual(out.skills.at(-1).name, "skill-creator");
  assert.deepStrictEqual(out.errors.length, 4);
  const all = JSON.parse((await run("list", "--json", "--all")).stdout);
  assert.deepStrictEqual(all.skills.find((s: { name: string }) => s.name === "review")?.enabled, false);
  assert.ok(env.HOME);
});

Deno.test("skills show prints metadata and body, and exits 2 for an unknown or failed skill", async () => {
  const { repo, run } = await sandbox(`[skills]\nextra_roots = ["${BASIC_FIXTURE}"]\n`);
  const shown = await run("show", "forms");
  assert.deepStrictEqual(shown.code, 0, shown.stderr);
  assert.deepStrictEqual(
    shown.stdout,
    `name: forms\ndescription: PDF forms.\nscope: repo\npath: ${repo}/.agents/skills/forms/SKILL.md\n` +
      "enabled: true\nimplicit invocation: true\n---\nPDF BODY\n",
  );
  const byPath = await run("show", `${repo}/.agents/skills/forms`);
  assert.deepStrictEqual(byPath.stdout, shown.stdout);
  const missing = await run("show", "nope");
  assert.deepStrictEqual([missing.code, missing.stderr], [
    2,
    'error: Cannot show skill "nope": no skill with this name or path\n',
  ]);
  const failed = await run("show", `${BASIC_FIXTURE}/long-name`);
  assert.deepStrictEqual(failed.code, 2);
  assert.match(failed.stderr, /it failed to load: invalid name: exceeds maximum length of 64 characters/);
});

Deno.test("skills doctor lists roots with status and counts, errors and hidden skills with reasons", async () => {
  const { repo, run } = await sandbox(
    `[skills]\nextra_roots = ["${BASIC_FIXTURE}"]\n\n[[skills.config]]\nname = "review"\nenabled = false\n`,
  );
  const json = await run("doctor", "--json");
  assert.deepStrictEqual(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  const agents = report.roots.find((r: { path: string }) => r.path === `${repo}/.agents/skills`);
  assert.deepStrictEqual(agents, {
    path: `${repo}/.agents/skills`,
    kind: "project_agents",
    scope: "repo",
    status: "ok",
    skills: 1,
    dirs: 2,
    entries: 2,
    watched: true,
  });
  assert.deepStrictEqual(
    report.hidden.map((h: { name: string; reason: string }) => `${h.name}:${h.reason}`).sort(),
    ["claude-style:not_implicit", "deploy:not_implicit", "review:disabled"],
  );
  const text = await run("doctor");
  assert.match(text.stdout, /\[repo\] .*\.agents\/skills: ok — 1 skills, 2 dirs, 2 entries, watched/);
  // The default model is gpt-5: its family's 272,000-token window gives the catalog 2 % of it.
  assert.match(text.stdout, /catalog: \d+ of \d+ skills shown, budget 5440 tokens/);
  assert.match(text.stdout, /long-name\/SKILL.md: invalid name/);
});

Deno.test("skills list: 25 skills of real description lengths are shown whole for gpt-5 (272k window), shortened with a warning in --json when the window is unknown (SK-10)", async () => {
  const { env, repo, run } = await sandbox();
  const words = "Use this skill when the user asks for reports, charts, exports or audits of the workspace. ";
  for (let i = 0; i < 25; i++) {
    const dir = path.join(repo, `.agents/skills/s${i}`);
    await fs.mkdir(dir);
    await fs.writeTextFile(path.join(dir, "SKILL.md"), skillFile(`s${i}`, words.repeat(5).trim()));
  }
  const whole = JSON.parse((await run("list", "--json")).stdout);
  assert.deepStrictEqual(whole.catalogWarnings, []);
  const unknown = await runCliCaptured(["skills", "list", "--json", "-c", "model=local-llm"], {
    env,
    cwd: repo,
  });
  const report = JSON.parse(unknown.stdout);
  assert.equal(report.catalogWarnings.length, 2, unknown.stdout);
  assert.match(
    report.catalogWarnings[0],
    /^Skill descriptions were shortened to fit the skills context budget/,
  );
  // model_context_window in config still wins over the family table.
  const small = await runCliCaptured(
    ["skills", "list", "--json", "-c", "model_context_window=100000"],
    { env, cwd: repo },
  );
  assert.match(JSON.parse(small.stdout).catalogWarnings[0], /shortened to fit the 2% skills context budget/);
  const text = await run("list");
  assert.doesNotMatch(text.stdout, /catalog warnings:/);
  const textUnknown = await runCliCaptured(["skills", "list", "-c", "model=local-llm"], { env, cwd: repo });
  assert.match(textUnknown.stdout, /\ncatalog warnings:\n {2}Skill descriptions were shortened/);
});
