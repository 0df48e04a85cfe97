/**
 * Issue 14 item 8 against the binary: AGENTS.md and CLAUDE.md reach the model in an exec turn's
 * request, `debug prompt --json` names their sources, and an unreadable file is one warning.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { events, runTrellis, trellisArgv } from "./_binary.ts";
import { copyInstructionsFixture } from "../config/_instructions_fixture.ts";

async function setup() {
  const { root, home, repo } = await copyInstructionsFixture();
  await Deno.mkdir(`${root}/etc`, { recursive: true });
  const env = {
    HOME: home,
    TRELLIS_HOME: `${home}/.trellis`,
    TRELLIS_SYSTEM_DIR: `${root}/etc`,
    TMPDIR: root,
  };
  const flags = (url: string) => [
    "-c",
    "model_provider=fixture",
    "-c",
    `model_providers.fixture.base_url=${JSON.stringify(url)}`,
    "-m",
    "fixture-model",
  ];
  return { root, home, repo, env, flags };
}

Deno.test("exec: the request carries AGENTS.md (three levels, override, fallback) and CLAUDE.md with imports, once", async () => {
  const s = await setup();
  const server = await startFixtureModelServer({ script: [{ text: "noted" }, { text: "again" }] });
  try {
    const cwd = `${s.repo}/services/api`;
    const fallback = ["-c", 'project_doc_fallback_filenames=["TEAM_GUIDE.md"]'];
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), ...fallback, "hello"], {
      env: s.env,
      cwd,
    });
    assert.equal(run.code, 0, run.stderr);
    const request = server.requests[0] as { input: { role?: string; content: unknown }[] };
    const texts = request.input.map((item) => JSON.stringify(item.content));
    const index = texts.findIndex((t) => t.includes("# AGENTS.md instructions for"));
    assert.ok(index >= 0, JSON.stringify(request.input).slice(0, 2000));
    assert.equal(request.input[index].role, "user");
    const sent = texts[index];
    for (
      const expected of [
        `# AGENTS.md instructions for ${cwd}`,
        "Answer in British English.",
        "--- project-doc ---",
        "Run `deno task test` before committing.",
        "Never touch generated clients.",
        "Document every endpoint.",
        `Contents of ${s.home}/.claude/CLAUDE.md (user's private global instructions for all projects)`,
        "Editor: vim; shell: zsh.",
        "Two-space indent.",
        "Widget: a UI part.",
        "Sandbox URL: http://localhost:8080",
        "Use the fixtures in testdata/.",
      ]
    ) assert.ok(sent.includes(JSON.stringify(expected).slice(1, -1)), expected);
    assert.ok(!sent.includes("shadowed by AGENTS.override.md"));
    // The instructions come before the prompt, and a resumed turn does not send them twice.
    const prompt = texts.findIndex((t) => t.includes('"hello"'));
    assert.ok(index < prompt);
    const threadId = events(run.stdout).find((e) => e.type === "thread.started")?.thread_id;
    const resumed = await runTrellis(
      ["exec", "resume", ...s.flags(server.url), ...fallback, threadId, "more"],
      { env: s.env, cwd },
    );
    assert.equal(resumed.code, 0, resumed.stderr);
    const second = JSON.stringify(server.requests[1]);
    assert.equal(second.split("# AGENTS.md instructions for").length - 1, 1);
  } finally {
    await server.close();
  }
});

Deno.test("debug prompt --json names every source; a bad CLAUDE.md import and a 10 MB AGENTS.md are warnings naming the file", async () => {
  const s = await setup();
  await Deno.writeTextFile(`${s.repo}/CLAUDE.md`, "Rules.\n@a.md\n@../outside.md\n");
  await Deno.writeTextFile(`${s.repo}/a.md`, "A.\n@CLAUDE.md\n");
  await Deno.writeTextFile(`${s.root}/outside.md`, "OUTSIDE");
  await Deno.writeTextFile(`${s.repo}/services/AGENTS.override.md`, "x".repeat(10 * 1024 * 1024));
  const run = await runTrellis(["debug", "prompt", "--json", "hi"], {
    env: s.env,
    cwd: `${s.repo}/services`,
  });
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  const warnings: string[] = out.projectInstructions.warnings;
  assert.deepStrictEqual(warnings.map((w) => w.replaceAll(s.root, "<root>")), [
    'Instructions file "<root>/repo/services/AGENTS.override.md" is 10485760 bytes; only its first ' +
    `${32768 - 62} bytes are used (project_doc_max_bytes = 32768)`,
    'CLAUDE.md import cycle <root>/repo/CLAUDE.md -> <root>/repo/a.md -> <root>/repo/CLAUDE.md: "<root>/repo/CLAUDE.md" is not imported again',
    'CLAUDE.md import "@../outside.md" in "<root>/repo/CLAUDE.md" is not followed: "<root>/outside.md" is ' +
    "outside the project (run `trellis project trust` to allow imports outside it)",
  ]);
  const sources = out.projectInstructions.sources.map((x: { path: string }) =>
    x.path.replace(s.root, "<root>")
  );
  assert.ok(sources.includes("<root>/repo/a.md"));
  assert.ok(sources.includes("<root>/repo/CLAUDE.local.md"));
  assert.ok(!JSON.stringify(out.input).includes("OUTSIDE"));
});

Deno.test("an unreadable AGENTS.md is one warning naming it; the rest still reaches the model (even run as root)", async () => {
  const s = await setup();
  await Deno.chmod(`${s.repo}/AGENTS.md`, 0o000);
  try {
    // Root reads a mode-000 file anyway: drop the two DAC overrides so the mode binds here too.
    const drop = "-dac_override,-dac_read_search";
    const argv = trellisArgv();
    const wrapped = Deno.uid() === 0
      ? ["setpriv", `--inh-caps=${drop}`, `--bounding-set=${drop}`, ...argv]
      : argv;
    const out = await new Deno.Command(wrapped[0], {
      args: [...wrapped.slice(1), "debug", "prompt", "--json", "hi"],
      cwd: s.repo,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...s.env },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const report = JSON.parse(stdout).projectInstructions;
    assert.equal(report.warnings.length, 1);
    assert.match(
      report.warnings[0],
      new RegExp(`^Cannot read instructions file "${s.repo}/AGENTS.md": .*; it is skipped$`),
    );
    assert.ok(report.sources.some((x: { path: string }) => x.path === `${s.repo}/CLAUDE.md`));
  } finally {
    await Deno.chmod(`${s.repo}/AGENTS.md`, 0o644);
  }
});
