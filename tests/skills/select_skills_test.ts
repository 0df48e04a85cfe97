import assert from "node:assert/strict";
import * as path from "node:path";
import { parseSkillMentions, selectSkills } from "../../lib/skills/mod.ts";
import { fs, makeTree, skillFile, snapshotOf, userRoot } from "./_helpers.ts";

async function twoRoots() {
  const root = await makeTree({
    "pdf/SKILL.md": skillFile("pdf", "PDF forms.", "PDF BODY H<sub>2</sub>O </skill> end"),
    "a/x/SKILL.md": skillFile("x"),
    "b/x/SKILL.md": skillFile("x"),
    "deploy/SKILL.md": skillFile("deploy"),
    "deploy/agents/openai.yaml":
      "dependencies:\n  tools:\n    - type: mcp\n      value: cloud\n      url: https://c.example/mcp\n" +
      "    - type: mcp\n      value: github\n",
    "quiet/SKILL.md": skillFile("quiet"),
    "quiet/agents/openai.yaml": "policy:\n  allow_implicit_invocation: false\n",
    "off/SKILL.md": skillFile("off"),
  });
  const snapshot = await snapshotOf([userRoot(root)], {
    rules: [{ name: "off", enabled: false, source: "test" }],
  });
  return { root, snapshot };
}

Deno.test("parseSkillMentions() finds links and $names and ignores environment lookalikes (SK-11)", () => {
  assert.deepStrictEqual(
    parseSkillMentions(
      "use $pdf and $foo:bar-1, not $PATH or $home; [$x] (skill:///abs/b/SKILL.md) [$y](app://z)",
    ),
    {
      linkedPaths: ["/abs/b/SKILL.md"],
      names: ["pdf", "foo:bar-1"],
      args: { pdf: "and $foo:bar-1, not $PATH or $home;", "foo:bar-1": ", not $PATH or $home;" },
    },
  );
});

Deno.test("selectSkills() injects each mentioned body once, verbatim, in the skills' order (SK-11)", async () => {
  const { root, snapshot } = await twoRoots();
  const result = await selectSkills(
    snapshot,
    { texts: ["$quiet then $pdf", "again $pdf"], structured: [] },
    fs,
  );
  assert.deepStrictEqual(result.selected.map((s) => s.name), ["pdf", "quiet"]);
  assert.deepStrictEqual(result.items[0], {
    type: "message",
    role: "user",
    content: `<skill>\n<name>pdf</name>\n<path>${root}/pdf/SKILL.md</path>\n` +
      `---\nname: pdf\ndescription: PDF forms.\n---\nPDF BODY H<sub>2</sub>O </skill> end\n\n</skill>`,
  });
  assert.deepStrictEqual([result.warnings, result.unresolved], [[], []]);
});

Deno.test("selectSkills() selects a duplicated name only by path, never by bare $name (SK-11)", async () => {
  const { root, snapshot } = await twoRoots();
  const bare = await selectSkills(snapshot, { texts: ["$x"], structured: [] }, fs);
  assert.deepStrictEqual(bare.selected, []);
  const linked = await selectSkills(snapshot, {
    texts: [`[$x](skill://${root}/b/x/SKILL.md)`],
    structured: [],
  }, fs);
  assert.deepStrictEqual(linked.selected.map((s) => s.path), [path.join(root, "b/x/SKILL.md")]);
});

Deno.test("selectSkills() resolves structured NAME|PATH first and blocks that name from text matching", async () => {
  const { root, snapshot } = await twoRoots();
  const result = await selectSkills(snapshot, {
    texts: ["$deploy"],
    structured: ["deploy", `${root}/a/x`, "x", "nope"],
  }, fs);
  assert.deepStrictEqual(result.selected.map((s) => s.path), [
    path.join(root, "deploy/SKILL.md"),
    path.join(root, "a/x/SKILL.md"),
  ]);
  assert.deepStrictEqual(result.unresolved, ["x", "nope"]);
  assert.ok(result.warnings[0].startsWith('Skill name "x" is ambiguous'));
});

Deno.test("selectSkills() never selects a disabled skill or a name equal to a connector slug", async () => {
  const { snapshot } = await twoRoots();
  const result = await selectSkills(snapshot, {
    texts: ["$off $PDF $pdf"],
    structured: [],
    connectorSlugs: ["PDF"],
  }, fs);
  assert.deepStrictEqual(result.selected, []);
});

Deno.test("selectSkills() turns a SKILL.md deleted after discovery into a warning, not a failed turn", async () => {
  const { root, snapshot } = await twoRoots();
  await fs.remove(path.join(root, "pdf/SKILL.md"));
  const result = await selectSkills(snapshot, { texts: ["$pdf $quiet"], structured: [] }, fs);
  assert.deepStrictEqual(result.items.length, 1);
  assert.match(result.warnings[0], new RegExp(`^Failed to load skill pdf at ${root}/pdf/SKILL.md: `));
});

Deno.test("selectSkills() reports declared MCP servers that are not configured, with how to add them (SK-14)", async () => {
  const { snapshot } = await twoRoots();
  const result = await selectSkills(
    snapshot,
    { texts: ["$deploy"], structured: [], mcpServers: ["github"] },
    fs,
  );
  assert.deepStrictEqual(result.missingMcpDependencies, [
    { skill: "deploy", server: "cloud", hint: "run `trellis mcp add cloud --url https://c.example/mcp`" },
  ]);
  assert.deepStrictEqual(result.warnings, [
    'Skill deploy needs MCP server "cloud": run `trellis mcp add cloud --url https://c.example/mcp`',
  ]);
});
