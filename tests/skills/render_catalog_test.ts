import assert from "node:assert/strict";
import {
  catalogBudget,
  makeSnapshot,
  renderSkillsCatalog,
  type SkillMetadata,
  type SkillScope,
} from "../../lib/skills/mod.ts";
import { costModel, planLines } from "../../lib/skills/catalog_budget.ts";
import { CATALOG_INTRO_ABSOLUTE, CATALOG_USAGE } from "../../lib/skills/catalog_text.ts";

function skill(name: string, description: string, extra: Partial<SkillMetadata> = {}): SkillMetadata {
  const root = extra.root ?? "/r";
  return {
    name,
    description,
    policy: { allowImplicitInvocation: true, products: [] },
    path: `${root}/${name}/SKILL.md`,
    dir: `${root}/${name}`,
    scope: "user" as SkillScope,
    root,
    authority: "local",
    extra: {},
    ...extra,
  };
}

function snap(skills: SkillMetadata[], disabled: string[] = []) {
  return makeSnapshot({
    cwd: "/",
    configKey: "k",
    skills,
    errors: [],
    warnings: [],
    disabled: new Set(disabled),
    roots: [],
    duplicates: [],
  });
}

Deno.test("catalogBudget() is 2% of the context window in tokens when known, else 8,000 characters (SK-10)", () => {
  assert.deepStrictEqual(
    [catalogBudget(), catalogBudget(200_000), catalogBudget(99)],
    [{ kind: "characters", limit: 8000 }, { kind: "tokens", limit: 4000 }, { kind: "tokens", limit: 1 }],
  );
});

Deno.test("renderSkillsCatalog() renders Codex's layout with full lines when everything fits (SK-11)", () => {
  const rendered = renderSkillsCatalog(snap([
    skill("zeta", "Last."),
    skill("alpha", ""),
    skill("sys", "System first.", { scope: "system", root: "/s" }),
  ]));
  assert.deepStrictEqual(rendered.warnings, []);
  assert.deepStrictEqual(
    rendered.text,
    [
      "<skills_instructions>",
      "## Skills",
      CATALOG_INTRO_ABSOLUTE,
      "### Available skills",
      "- sys: System first. (file: /s/sys/SKILL.md)",
      "- alpha: (file: /r/alpha/SKILL.md)",
      "- zeta: Last. (file: /r/zeta/SKILL.md)",
      "### How to use skills",
      ...CATALOG_USAGE,
      "</skills_instructions>",
    ].join("\n"),
  );
});

Deno.test("renderSkillsCatalog() leaves out disabled and explicit-only skills and returns null when none remain (SK-9)", () => {
  const hidden = skill("quiet", "Q", { policy: { allowImplicitInvocation: false, products: [] } });
  const off = skill("off", "O");
  const rendered = renderSkillsCatalog(snap([hidden, off], [off.path]));
  assert.deepStrictEqual([rendered.text, rendered.stats.candidates], [null, 0]);
  const disabledByConfig = renderSkillsCatalog(snap([skill("a", "b")]), { includeInstructions: false });
  assert.deepStrictEqual(disabledByConfig.text, null);
});

Deno.test("planLines() shares leftover budget round-robin, one character at a time (SK-10)", () => {
  const model = costModel({ kind: "characters", limit: 0 });
  const entries = [skill("a", "abcdef"), skill("b", "uvwxyz")].map((s) => ({
    skill: s,
    description: s.description,
    locator: s.path,
  }));
  const minCost = entries.reduce((sum, e) => sum + `- ${e.skill.name}: (file: ${e.locator})`.length + 1, 0);
  const plan = planLines(entries, minCost + 6, model);
  assert.deepStrictEqual(plan.lines, ["- a: ab (file: /r/a/SKILL.md)", "- b: uv (file: /r/b/SKILL.md)"]);
  assert.deepStrictEqual([plan.included, plan.truncatedChars, plan.omitted], [2, 8, []]);
});

Deno.test("renderSkillsCatalog() omits skills with Codex's warning and stays within budget when even names overflow", () => {
  const skills = Array.from(
    { length: 400 },
    (_, i) => skill(`skill-${String(i).padStart(3, "0")}`, "d".repeat(80)),
  );
  const rendered = renderSkillsCatalog(snap(skills));
  const omitted = rendered.stats.omitted.length;
  assert.ok(omitted > 0 && rendered.stats.included + omitted === 400);
  assert.deepStrictEqual(rendered.warnings, [
    `Exceeded skills context budget. All skill descriptions were removed and ${omitted} additional skills were not included in the model-visible skills list.`,
  ]);
  const lines = rendered.text!.split("\n").filter((l) => l.startsWith("- skill-") || l.startsWith("- `r"));
  assert.ok(lines.reduce((sum, l) => sum + l.length + 1, 0) <= 8000);
});

Deno.test("renderSkillsCatalog() switches to a roots alias table when it shows more, and warns with counts (SK-10)", () => {
  const root = "/very/long/path/to/a/skills/root/that/repeats/in/every/line/of/the/catalog";
  const skills = Array.from({ length: 70 }, (_, i) => skill(`s${i}`, "Short description.", { root }));
  const rendered = renderSkillsCatalog(snap(skills));
  assert.ok(rendered.text!.includes("### Skill roots\n- `r0` = `" + root + "`\n"));
  assert.ok(rendered.text!.includes("- s0: Short description. (file: r0/s0/SKILL.md)"));
  assert.deepStrictEqual([rendered.stats.included, rendered.stats.aliases, rendered.stats.omitted], [
    70,
    1,
    [],
  ]);
  assert.deepStrictEqual(rendered.warnings, [
    "Skill file paths were shortened with 1 root alias to fit the skills context budget.",
  ]);
});

Deno.test("renderSkillsCatalog() shortens descriptions with a warning naming the 2% budget when the window is known", () => {
  const skills = Array.from({ length: 20 }, (_, i) => skill(`s${i}`, "word ".repeat(100).trim()));
  const rendered = renderSkillsCatalog(snap(skills), { contextWindow: 100_000 });
  assert.deepStrictEqual(rendered.stats.budget, { kind: "tokens", limit: 2000 });
  assert.deepStrictEqual([rendered.stats.included, rendered.stats.omitted.length], [20, 0]);
  assert.ok(rendered.stats.truncatedChars > 0 && rendered.stats.usedUnits <= rendered.stats.budgetUnits);
  assert.match(
    rendered.warnings[0],
    /^Skill descriptions were shortened to fit the 2% skills context budget \(20 of 20/,
  );
});

Deno.test("renderSkillsCatalog() omitting skills under a known window names the 2% budget in Codex's words (the neighbour of the 8,000-character case)", () => {
  const skills = Array.from(
    { length: 400 },
    (_, i) => skill(`skill-${String(i).padStart(3, "0")}`, "d".repeat(80)),
  );
  const rendered = renderSkillsCatalog(snap(skills), { contextWindow: 20_000 });
  const omitted = rendered.stats.omitted.length;
  assert.ok(omitted > 0);
  assert.deepStrictEqual(rendered.warnings, [
    `Exceeded skills context budget of 2%. All skill descriptions were removed and ${omitted} additional skills were not included in the model-visible skills list.`,
  ]);
});
