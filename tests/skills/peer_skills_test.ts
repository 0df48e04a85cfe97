/**
 * Issue 14 item 9 (SK-1): a Codex user's `$CODEX_HOME/skills`, a Claude Code user's
 * `~/.claude/skills` and the skills and commands of the plugins Claude Code installed are found in
 * place, each with its origin; Codex's own bundled `.system` skills are not Trellis's.
 */
import assert from "node:assert/strict";
import { skillsInputFor } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { loadPlugins } from "../../lib/plugins/mod.ts";
import { createSkillsService, skillOrigin } from "../../lib/skills/mod.ts";
import { writePeerHome } from "../helpers/peer_home.ts";

const fs = platform.fs;

async function skills(overrides: string[] = [], extraEnv: Record<string, string> = {}) {
  const root = await fs.realPath(await fs.makeTempDir("trellis-peer-skills-"));
  const home = `${root}/home`;
  const project = `${root}/repo`;
  await fs.mkdir(`${project}/.git`);
  await fs.mkdir(`${home}/.trellis`);
  const peer = await writePeerHome(home, project);
  const env: Record<string, string> = {
    HOME: home,
    TRELLIS_HOME: `${home}/.trellis`,
    TRELLIS_SYSTEM_DIR: `${root}/etc`,
    ...extraEnv,
  };
  const loaded = await loadConfig(fs, { cwd: project, env: (n) => env[n], overrides });
  const { contributions } = await loadPlugins({ loaded, platform });
  const snapshot = await createSkillsService({ platform }).snapshot(
    skillsInputFor(platform.fs, loaded, contributions),
  );
  const kindOf = (root: string) => snapshot.roots.find((r) => r.path === root)!.kind;
  const rows = snapshot.skills.filter((s) => s.scope === "user").map((s) => [
    s.name,
    skillOrigin(kindOf(s.root), s.plugin),
    s.path,
  ]);
  return { peer, rows, snapshot };
}

Deno.test("skills: $CODEX_HOME/skills, ~/.claude/skills and Claude Code plugins' skills and commands load with their origin", async () => {
  const { peer, rows } = await skills();
  assert.deepStrictEqual(rows, [
    ["claude-review", "claude", `${peer.claudeDir}/skills/claude-review/SKILL.md`],
    ["codex-notes", "codex", `${peer.codexHome}/skills/codex-notes/SKILL.md`],
    ["notes-kit:notes-kit-skill", "claude", `${peer.pluginRoot}/skills/notes-kit-skill/SKILL.md`],
    ["notes-kit:summarize", "claude", `${peer.pluginRoot}/extra-commands/summarize.md`],
  ]);
});

Deno.test("skills: [compat] codex_skills = false drops the Codex root; the disabled Claude plugin never contributes", async () => {
  const { rows } = await skills(["compat.codex_skills=false"]);
  assert.deepStrictEqual(rows.map((r) => r[0]), [
    "claude-review",
    "notes-kit:notes-kit-skill",
    "notes-kit:summarize",
  ]);
});

Deno.test("skills: CODEX_HOME moves the Codex root", async () => {
  const root = await fs.realPath(await fs.makeTempDir("trellis-codex-home-"));
  await fs.mkdir(`${root}/skills/moved`);
  await fs.writeTextFile(`${root}/skills/moved/SKILL.md`, "---\nname: moved\ndescription: Moved.\n---\n");
  const { rows } = await skills([], { CODEX_HOME: root });
  assert.deepStrictEqual(rows.filter((r) => r[1] === "codex"), [[
    "moved",
    "codex",
    `${root}/skills/moved/SKILL.md`,
  ]]);
});
