/**
 * Project instructions (issue 14 item 8): Codex's AGENTS.md chain and Claude Code's CLAUDE.md files
 * with `@path` imports, read from fixtures/instructions; bad input gives one warning naming the file.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { findImports, loadConfig, loadProjectInstructions } from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { copyInstructionsFixture } from "./_instructions_fixture.ts";

const fs = platform.fs;

async function load(root: string, cwd: string, overrides: string[] = []) {
  const env = (name: string) =>
    ({ HOME: `${root}/home`, TRELLIS_HOME: `${root}/home/.trellis`, TRELLIS_SYSTEM_DIR: `${root}/etc` })[
      name
    ];
  const loaded = await loadConfig(fs, { cwd, env, overrides });
  return loadProjectInstructions(fs, loaded);
}

function summary(root: string, files: Awaited<ReturnType<typeof load>>["files"]) {
  return files.map((f) => {
    const rel = path.relative(root, f.path);
    const from = f.importedFrom ? ` <- ${path.relative(root, f.importedFrom)}` : "";
    return `${f.family}:${f.scope} ${rel}${from}`;
  });
}

Deno.test("loadProjectInstructions() reads the user files, then root -> cwd: AGENTS.md (override, fallback) before CLAUDE.md and its imports", async () => {
  const { root, repo } = await copyInstructionsFixture();
  const loaded = await load(root, `${repo}/services/api`, [
    'project_doc_fallback_filenames=["TEAM_GUIDE.md"]',
  ]);
  assert.deepStrictEqual(loaded.warnings, []);
  assert.deepStrictEqual(summary(root, loaded.files), [
    "agents:user home/.trellis/AGENTS.md",
    "claude:user home/.claude/CLAUDE.md",
    "claude:user home/.claude/prefs.md <- home/.claude/CLAUDE.md",
    "agents:project repo/AGENTS.md",
    "claude:project repo/CLAUDE.md",
    "claude:project repo/docs/style.md <- repo/CLAUDE.md",
    "claude:project repo/docs/glossary.md <- repo/docs/style.md",
    "claude:local repo/CLAUDE.local.md",
    "agents:project repo/services/AGENTS.override.md",
    "agents:project repo/services/api/TEAM_GUIDE.md",
    "claude:project repo/services/api/.claude/CLAUDE.md",
  ]);
  // The user AGENTS.md is trimmed as Codex trims it; project files are kept as written.
  assert.equal(loaded.files[0].text, "# Personal defaults\n\n- Answer in British English.");
  assert.equal(loaded.files[3].text, "# Repo conventions\n\n- Run `deno task test` before committing.\n");
  assert.ok(
    loaded.files.every((f) =>
      !f.truncated && f.bytes === new TextEncoder().encode(f.text).length || f.scope === "user"
    ),
  );
});

Deno.test("loadProjectInstructions() without the fallback name skips TEAM_GUIDE.md; project_doc_claude_md = false reads no CLAUDE.md", async () => {
  const { root, repo } = await copyInstructionsFixture();
  const plain = await load(root, `${repo}/services/api`, ["project_doc_claude_md=false"]);
  assert.deepStrictEqual(summary(root, plain.files), [
    "agents:user home/.trellis/AGENTS.md",
    "agents:project repo/AGENTS.md",
    "agents:project repo/services/AGENTS.override.md",
  ]);
  const none = await load(root, repo, ["project_doc_max_bytes=0"]);
  assert.deepStrictEqual(summary(root, none.files), ["agents:user home/.trellis/AGENTS.md"]);
});

Deno.test("loadProjectInstructions() reads instructions in an untrusted project, but keeps its imports inside it", async () => {
  const { root, repo } = await copyInstructionsFixture();
  await fs.writeTextFile(`${root}/secret.md`, "SECRET TOKEN");
  await fs.writeTextFile(`${repo}/CLAUDE.md`, "Rules.\n@../secret.md\n@~/.claude/prefs.md\n");
  const untrusted = await load(root, repo);
  assert.ok(!JSON.stringify(untrusted.files).includes("SECRET TOKEN"));
  assert.deepStrictEqual(untrusted.warnings, [
    `CLAUDE.md import "@../secret.md" in "${repo}/CLAUDE.md" is not followed: "${root}/secret.md" is outside the project (run \`trellis project trust\` to allow imports outside it)`,
  ]);
  // ~/.claude/prefs.md was already read through the user's own CLAUDE.md: not repeated, no warning.
  assert.ok(summary(root, untrusted.files).includes("claude:project repo/CLAUDE.md"));
  const trusted = await load(root, repo, [`projects.${JSON.stringify(repo)}.trust_level="trusted"`]);
  assert.deepStrictEqual(trusted.warnings, []);
  assert.ok(summary(root, trusted.files).includes("claude:project secret.md <- repo/CLAUDE.md"));
});

// #20 item 10: a CLAUDE.md above the project used to import anything below its own directory.
Deno.test("loadProjectInstructions(): a parent directory's CLAUDE.md of an untrusted project imports only inside the project", async () => {
  const { root, repo } = await copyInstructionsFixture();
  await fs.mkdir(`${root}/notes`);
  await fs.writeTextFile(`${root}/notes/secret.md`, "SECRET BESIDE THE PARENT");
  await fs.writeTextFile(`${repo}/inside.md`, "INSIDE THE PROJECT");
  await fs.writeTextFile(`${root}/CLAUDE.md`, "Parent.\n@notes/secret.md\n@repo/inside.md\n");
  const untrusted = await load(root, repo);
  assert.ok(!JSON.stringify(untrusted.files).includes("SECRET BESIDE THE PARENT"));
  assert.ok(untrusted.warnings.includes(
    `CLAUDE.md import "@notes/secret.md" in "${root}/CLAUDE.md" is not followed: "${root}/notes/secret.md" is outside the project (run \`trellis project trust\` to allow imports outside it)`,
  ));
  // The neighbour: the same parent file's import of a file inside the project still loads.
  assert.ok(summary(root, untrusted.files).includes("claude:project repo/inside.md <- CLAUDE.md"));
  const trusted = await load(root, repo, [`projects.${JSON.stringify(repo)}.trust_level="trusted"`]);
  assert.ok(summary(root, trusted.files).includes("claude:project notes/secret.md <- CLAUDE.md"));
});

Deno.test("loadProjectInstructions() warns once for an import cycle and for imports past five levels; everything else loads", async () => {
  const { root, repo } = await copyInstructionsFixture();
  await fs.writeTextFile(`${repo}/CLAUDE.md`, "Top.\n@a.md\n@l1.md\n");
  await fs.writeTextFile(`${repo}/a.md`, "A.\n@b.md\n");
  await fs.writeTextFile(`${repo}/b.md`, "B.\n@a.md\n");
  for (let i = 1; i <= 6; i++) await fs.writeTextFile(`${repo}/l${i}.md`, `Level ${i}.\n@l${i + 1}.md\n`);
  await fs.writeTextFile(`${repo}/l7.md`, "Level 7.\n");
  const loaded = await load(root, repo);
  assert.deepStrictEqual(loaded.warnings, [
    `CLAUDE.md import cycle ${repo}/a.md -> ${repo}/b.md -> ${repo}/a.md: "${repo}/a.md" is not imported again`,
    `CLAUDE.md import "@l6.md" in "${repo}/l5.md" is not followed: imports go at most 5 levels deep`,
  ]);
  const names = loaded.files.map((f) => path.basename(f.path));
  assert.deepStrictEqual(names.filter((n) => /^(a|b|l\d)\.md$/.test(n)), [
    "a.md",
    "b.md",
    "l1.md",
    "l2.md",
    "l3.md",
    "l4.md",
    "l5.md",
  ]);
  assert.ok(names.includes("CLAUDE.local.md"));
});

Deno.test("loadProjectInstructions() cuts a 10 MB AGENTS.md at project_doc_max_bytes with a warning naming it", async () => {
  const { root, repo } = await copyInstructionsFixture();
  const line = "- rule: keep functions short, name things for what they are, and test behaviour.\n";
  await fs.writeTextFile(`${repo}/AGENTS.md`, line.repeat(Math.ceil(10_000_000 / line.length)));
  const size = (await fs.stat(`${repo}/AGENTS.md`))!.size;
  const loaded = await load(root, `${repo}/services`);
  assert.deepStrictEqual(loaded.warnings, [
    `Instructions file "${repo}/AGENTS.md" is ${size} bytes; only its first 32768 bytes are used (project_doc_max_bytes = 32768)`,
  ]);
  const big = loaded.files.find((f) => f.path === `${repo}/AGENTS.md`)!;
  assert.deepStrictEqual([big.bytes, big.truncated], [32768, true]);
  // The budget is spent: Codex reads no later AGENTS.md; CLAUDE.md files have their own budget.
  assert.ok(!loaded.files.some((f) => f.path.endsWith("AGENTS.override.md")));
  assert.ok(loaded.files.some((f) => f.path === `${repo}/CLAUDE.md`));
});

Deno.test("loadProjectInstructions() does not send a CLAUDE.md symlinked to AGENTS.md twice", async () => {
  const { root, repo } = await copyInstructionsFixture();
  await fs.remove(`${repo}/CLAUDE.md`);
  await fs.symlink("AGENTS.md", `${repo}/CLAUDE.md`);
  const loaded = await load(root, repo);
  assert.deepStrictEqual(loaded.files.filter((f) => f.realPath === `${repo}/AGENTS.md`).length, 1);
});

Deno.test("findImports() finds @paths outside code, as Claude Code does", async () => {
  const text = "# Title @docs/a.md\nSee @README and `@not/this`, mail bob@x.com\n\n- item @list/b.md\n\n" +
    "```\n@fenced.md\n```\n\n    @indented.md\n\n~~~\n@tilde.md\n~~~\n@~/.claude/mine.md\n@my\\ file.md\n";
  assert.deepStrictEqual(await findImports(text), [
    "docs/a.md",
    "README",
    "list/b.md",
    "~/.claude/mine.md",
    "my file.md",
  ]);
  assert.deepStrictEqual(await findImports("no imports here"), []);
});
