/**
 * Issue 14 item 7 against the binary, with fixtures/skills/real_shapes: a 1,100-character
 * description loads (cut, with a warning), a body with `</sub>` reaches the model verbatim, icons
 * in ./assets and a depth-bound root load without spurious warnings, and the gpt-5 window applies.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { events, runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

const SKILLS = new URL("../../fixtures/skills/real_shapes/skills", import.meta.url).pathname;

Deno.test("exec: a </sub> body is injected verbatim and a 1,100-character description is cut with one warning (SK-5, SK-11)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/config.toml`, `[skills]\nextra_roots = ["${SKILLS}"]\n`);
  const server = await startFixtureModelServer({ script: [{ text: "ok" }] });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "use $chemistry"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const request = JSON.stringify(server.requests[0]);
    assert.ok(request.includes("Water is written H<sub>2</sub>O"), "body verbatim");
    assert.ok(request.includes('document.title = \\"</title>\\"'), "closing tags verbatim");
    assert.ok(!request.includes("<\\\\/"), "nothing escaped");
    assert.match(request, /- orbit-api: Reference for the Orbit API/);
    const warnings = events(run.stdout).filter((e) => e.type === "warning").map((e) => e.message as string);
    assert.deepStrictEqual(warnings.filter((w) => w.includes("long-description")), [
      `Skill ${SKILLS}/long-description/SKILL.md: description is 1100 characters; only its first 1024 are used (SK-5)`,
    ]);
    assert.deepStrictEqual(
      warnings.filter((w) => w.includes("openai.yaml") || w.includes("context budget")),
      [],
    );
  } finally {
    await server.close();
  }
});

Deno.test("skills list --json: no icon warnings for ./assets icons, catalog warnings carried, budget from the gpt-5 window (SK-6, SK-10)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/config.toml`, `[skills]\nextra_roots = ["${SKILLS}"]\n`);
  const run = await runTrellis(["skills", "list", "--json"], { env: s.env, cwd: s.workspace });
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.deepStrictEqual(out.errors, []);
  assert.ok(out.skills.some((x: { name: string }) => x.name === "orbit-api"));
  assert.deepStrictEqual(out.warnings.filter((w: string) => w.includes("icon")), []);
  assert.deepStrictEqual(out.catalogWarnings, []);
  const doctor = await runTrellis(["skills", "doctor"], { env: s.env, cwd: s.workspace });
  assert.match(doctor.stdout, /budget 5440 tokens/);
  const tiny = await runTrellis(["skills", "list", "--json", "-c", "model_context_window=2000"], {
    env: s.env,
    cwd: s.workspace,
  });
  assert.match(JSON.parse(tiny.stdout).catalogWarnings.join("\n"), /skills context budget/);
});
