import assert from "node:assert/strict";
import * as path from "node:path";
import { loadConfig } from "../../lib/config/mod.ts";
import { type Platform, platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { createSkillsService, skillsInputFromConfig } from "../../lib/skills/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { fs, inputFor, makeTree, skillFile, userRoot } from "./_helpers.ts";

async function sandboxProject(userToml = "", projectToml = "") {
  const { root, env } = await makeSandboxHome();
  const repo = path.join(root, "repo");
  const cwd = path.join(repo, "pkg");
  await fs.mkdir(path.join(repo, ".git"));
  await fs.mkdir(cwd);
  const trust = `[projects."${repo}"]\ntrust_level = "trusted"\n`;
  await fs.writeTextFile(path.join(env.TRELLIS_HOME, "config.toml"), `${userToml}\n${trust}`);
  if (projectToml) {
    await fs.mkdir(path.join(repo, ".trellis"));
    await fs.writeTextFile(path.join(repo, ".trellis/config.toml"), projectToml);
  }
  const load = (overrides: string[] = []) => loadConfig(fs, { cwd, env: (n) => env[n], overrides });
  return { root, env, repo, cwd, load };
}

Deno.test("skillsInputFromConfig() lists the SK-1 roots in precedence order with scopes", async () => {
  const { env, repo, cwd, load } = await sandboxProject('[skills]\nextra_roots = ["~/more", "rel"]\n');
  const input = skillsInputFromConfig(await load(), {
    pluginRoots: [{ path: "/plugins/demo/skills", pluginId: "demo@market", namespace: "demo" }],
  });
  const home = env.HOME;
  assert.deepStrictEqual(input.roots.map((r) => [r.path, r.scope]), [
    [`${cwd}/.trellis/skills`, "repo"],
    [`${repo}/.trellis/skills`, "repo"],
    [`${repo}/.agents/skills`, "repo"],
    [`${repo}/.claude/skills`, "repo"],
    [`${cwd}/.agents/skills`, "repo"],
    [`${cwd}/.claude/skills`, "repo"],
    [`${home}/.agents/skills`, "user"],
    [`${home}/.claude/skills`, "user"],
    [`${home}/.codex/skills`, "user"],
    [`${env.TRELLIS_HOME}/skills`, "user"],
    [`${env.TRELLIS_HOME}/skills/.system`, "system"],
    [`${env.TRELLIS_SYSTEM_DIR}/skills`, "admin"],
    ["/plugins/demo/skills", "user"],
    [`${home}/more`, "user"],
    [`${cwd}/rel`, "user"],
  ]);
  assert.deepStrictEqual(input.roots[12].plugin, {
    id: "demo@market",
    namespace: "demo",
    root: "/plugins/demo/skills",
  });
  assert.deepStrictEqual([input.watchThrottleMs, input.catalog], [10_000, { includeInstructions: true }]);
});

Deno.test("skillsInputFromConfig() drops Claude Code and bundled roots when switched off", async () => {
  const { load } = await sandboxProject(
    "[skills]\nclaude_code = false\nbundled.enabled = false\nwatch_throttle_ms = 50\n",
  );
  const input = skillsInputFromConfig(await load(), { pluginRoots: [] });
  assert.deepStrictEqual(input.roots.filter((r) => r.kind.endsWith("claude") || r.kind === "bundled"), []);
  assert.deepStrictEqual([input.bundledDir, input.watchThrottleMs], [null, 50]);
});

Deno.test("snapshot() applies disable rules from the user layer and -c only, never from the project (SK-8)", async () => {
  const rule = (name: string) => `[[skills.config]]\nname = "${name}"\nenabled = false\n`;
  const { repo, load } = await sandboxProject(rule("user-off"), rule("project-off"));
  for (const name of ["user-off", "project-off", "flag-off"]) {
    await fs.mkdir(path.join(repo, ".agents/skills", name));
    await fs.writeTextFile(path.join(repo, ".agents/skills", name, "SKILL.md"), skillFile(name));
  }
  const loaded = await load(['skills.config=[{name="flag-off", enabled=false}]']);
  const snapshot = await createSkillsService({ platform }).snapshot(
    skillsInputFromConfig(loaded, { pluginRoots: [] }),
  );
  const state = snapshot.skills.filter((s) => s.scope === "repo").map((s) => [s.name, snapshot.isEnabled(s)]);
  assert.deepStrictEqual(state, [["flag-off", false], ["project-off", true], ["user-off", false]]);
});

Deno.test("snapshot() materialises the bundled skill-creator as a System skill and removes it when disabled", async () => {
  const { env, load } = await sandboxProject();
  const service = createSkillsService({ platform });
  const snapshot = await service.snapshot(skillsInputFromConfig(await load(), { pluginRoots: [] }));
  const creator = snapshot.skills.find((s) => s.name === "skill-creator");
  assert.deepStrictEqual(
    [creator?.scope, creator?.path],
    ["system", `${env.TRELLIS_HOME}/skills/.system/skill-creator/SKILL.md`],
  );
  const off = await service.snapshot(
    skillsInputFromConfig(await load(["skills.bundled.enabled=false"]), { pluginRoots: [] }),
  );
  assert.deepStrictEqual(off.skills.filter((s) => s.scope === "system"), []);
  assert.deepStrictEqual(await fs.stat(`${env.TRELLIS_HOME}/skills/.system`), null);
});

Deno.test("snapshot() caches by cwd and config and keeps handed-out snapshots immutable after clearCache (SK-8)", async () => {
  const root = await makeTree({ "a/SKILL.md": skillFile("a") });
  const service = createSkillsService({ platform });
  const input = inputFor([userRoot(root)]);
  const first = await service.snapshot(input);
  assert.strictEqual(await service.snapshot({ ...input }), first);
  assert.notStrictEqual(await service.snapshot({ ...input, cwd: "/elsewhere" }), first);
  const ruled = await service.snapshot({ ...input, rules: [{ name: "a", enabled: false, source: "t" }] });
  assert.deepStrictEqual([ruled.enabledSkills().length, first.enabledSkills().length], [0, 1]);
  await fs.writeTextFile(path.join(root, "a/SKILL.md"), skillFile("a", "Changed."));
  assert.strictEqual(await service.snapshot(input), first);
  service.clearCache();
  const second = await service.snapshot(input);
  assert.deepStrictEqual([first.skills[0].description, second.skills[0].description], [
    "The a skill.",
    "Changed.",
  ]);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.skills));
});

Deno.test("watch() batches changes, clears the cache and emits skills.changed (SK-15)", async () => {
  const root = await makeTree({ "a/SKILL.md": skillFile("a") });
  const events: TrellisEventBody[] = [];
  const service = createSkillsService({ platform, events: (e) => events.push(e) });
  const input = inputFor([userRoot(root)]);
  const before = await service.snapshot(input);
  let resolveChange: (paths: string[]) => void = () => {};
  const changed = new Promise<string[]>((resolve) => (resolveChange = resolve));
  const handle = service.watch(before, { throttleMs: 50, onChange: resolveChange });
  try {
    assert.deepStrictEqual(handle.active, true);
    await fs.mkdir(path.join(root, "b"));
    await fs.writeTextFile(path.join(root, "b/SKILL.md"), skillFile("b"));
    const paths = await changed;
    assert.ok(paths.some((p) => p.startsWith(root)));
    assert.ok(events.some((e) => e.type === "skills.changed"));
    const after = await service.snapshot(input);
    assert.deepStrictEqual([before.skills.length, after.skills.length], [1, 2]);
  } finally {
    handle.close();
  }
});

Deno.test("watch() degrades to no watching with a warning when the native watcher cannot start (SK-15)", async () => {
  const root = await makeTree({ "a/SKILL.md": skillFile("a") });
  const events: TrellisEventBody[] = [];
  const broken: Platform = {
    ...platform,
    watch: () => {
      throw new Error("inotify limit reached");
    },
  };
  const service = createSkillsService({ platform: broken, events: (e) => events.push(e) });
  const handle = service.watch(await service.snapshot(inputFor([userRoot(root)])), {
    throttleMs: 50,
    onChange() {},
  });
  handle.close();
  assert.deepStrictEqual(handle.active, false);
  assert.deepStrictEqual(events, [{
    type: "warning",
    message: "Cannot watch skill roots for changes: inotify limit reached; skills reload on restart",
    subject: "skills",
  }]);
});
