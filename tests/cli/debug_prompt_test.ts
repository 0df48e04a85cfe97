import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { copyInstructionsFixture } from "../config/_instructions_fixture.ts";

Deno.test("debug prompt --json shows the first request without calling a model or writing a session", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.mkdir(`${root}/ws`);
  const run = await runCliCaptured(["debug", "prompt", "--json", "hello there"], { env, cwd: `${root}/ws` });
  assert.equal(run.code, 0, run.stderr);
  const request = JSON.parse(run.stdout);
  // #23 item 2: tool_set = "auto" (the default) gives the default gpt-5 Codex's tools, as Codex
  // declares them to gpt-5 (apply_patch only to the newer GPT-5 and codex models).
  assert.deepEqual(request.toolSet, {
    name: "codex",
    reason: 'tool_set = "auto" (the default): gpt-5 is a GPT-5-family model (Codex\'s tools)',
  });
  assert.deepEqual(request.tools.map((t: { name: string }) => t.name), [
    "exec_command",
    "write_stdin",
    "request_user_input",
    "view_image",
    "update_plan",
    // #22 item 2: the default gpt-5 is OpenAI-family, so agents.tool_style = "auto" gives it Codex's
    // multi_agent_v1 face (a Claude model gets the Agent tool).
    "spawn_agent",
    "send_input",
    "wait_agent",
    "close_agent",
    "resume_agent",
  ]);
  assert.deepEqual(request.input.at(-1), { type: "message", role: "user", content: "hello there" });
  assert.match(request.instructions, /You are Trellis/);
  assert.equal(await platform.fs.stat(`${env.TRELLIS_HOME}/sessions`), null);
});

Deno.test("profiles: -p selects [profiles.<name>]; an unknown profile exits 2 naming the known ones", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    '[profiles.fast]\nmodel = "small"\napproval_policy = "never"\n',
  );
  const ok = await runCliCaptured(["debug", "prompt", "--json", "-p", "fast"], { env, cwd: root });
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).model, "small");
  const bad = await runCliCaptured(["debug", "prompt", "-p", "slow"], { env, cwd: root });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /profile "slow".*known: fast/);
});

Deno.test("debug prompt shows the AGENTS.md / CLAUDE.md instructions first, as Codex wraps them, with their sources (--json too)", async () => {
  const { root, home, repo } = await copyInstructionsFixture();
  const env = { HOME: home, TRELLIS_HOME: `${home}/.trellis`, TRELLIS_SYSTEM_DIR: `${root}/etc` };
  const cwd = `${repo}/services/api`;
  const fallback = ["-c", 'project_doc_fallback_filenames=["TEAM_GUIDE.md"]'];
  const run = await runCliCaptured(["debug", "prompt", "--json", ...fallback, "hi"], { env, cwd });
  assert.equal(run.code, 0, run.stderr);
  const request = JSON.parse(run.stdout);
  const first = request.input[0];
  assert.equal(first.role, "user");
  assert.ok(
    first.content.startsWith(`# AGENTS.md instructions for ${cwd}\n\n<INSTRUCTIONS>\n# Personal defaults`),
  );
  assert.ok(first.content.endsWith("- Use the fixtures in testdata/.\n\n</INSTRUCTIONS>"));
  assert.match(first.content, /\n\n--- project-doc ---\n\n# Repo conventions/);
  assert.match(
    first.content,
    /Contents of .*\/repo\/docs\/glossary\.md \(project instructions, checked into the codebase\):\n\nWidget/,
  );
  assert.doesNotMatch(first.content, /Services \(shadowed/);
  assert.deepStrictEqual(request.projectInstructions.sources.map((s: { path: string }) => s.path), [
    `${home}/.trellis/AGENTS.md`,
    `${home}/.claude/CLAUDE.md`,
    `${home}/.claude/prefs.md`,
    `${repo}/AGENTS.md`,
    `${repo}/CLAUDE.md`,
    `${repo}/docs/style.md`,
    `${repo}/docs/glossary.md`,
    `${repo}/CLAUDE.local.md`,
    `${repo}/services/AGENTS.override.md`,
    `${repo}/services/api/TEAM_GUIDE.md`,
    `${repo}/services/api/.claude/CLAUDE.md`,
  ]);
  assert.deepStrictEqual(request.projectInstructions.sources[5], {
    path: `${repo}/docs/style.md`,
    family: "claude",
    scope: "project",
    importedFrom: `${repo}/CLAUDE.md`,
    bytes: 54,
    truncated: false,
  });
  assert.deepStrictEqual(request.projectInstructions.warnings, []);
  const text = await runCliCaptured(["debug", "prompt", ...fallback, "hi"], { env, cwd });
  assert.match(
    text.stdout,
    /## project instructions \(11 files\)\n- .*\/home\/\.trellis\/AGENTS\.md \(agents, user, \d+ bytes\)\n/,
  );
  assert.match(
    text.stdout,
    /- .*\/repo\/docs\/style\.md \(claude, project, 54 bytes, imported by .*\/repo\/CLAUDE\.md\)\n/,
  );
});
