import assert from "node:assert/strict";
import * as path from "node:path";
import { BASIC_FIXTURE, fs, makeTree, skillFile, snapshotOf, userRoot } from "./_helpers.ts";

Deno.test("loadSkillsSnapshot() loads every valid skill and reports each bad one when a root mixes both (SK-3, SK-5)", async () => {
  const snap = await snapshotOf([userRoot(BASIC_FIXTURE)]);
  const at = (rel: string) => path.join(BASIC_FIXTURE, rel, "SKILL.md");
  assert.deepStrictEqual(snap.skills.map((s) => [s.name, s.path]), [
    ["claude-style", at("claude-style")],
    ["deploy", at("deploy")],
    ["my tool", at("my tool")],
    ["pdf", at("pdf")],
    ["repair", at("repair")],
    ["sidecar", at("broken-yaml-sidecar")],
    ["six-deep", at("deep/l2/l3/l4/l5/l6")],
  ]);
  assert.deepStrictEqual(
    snap.errors.map((e) => [path.relative(BASIC_FIXTURE, e.path), e.message.split(":")[0]]),
    [
      ["bad-yaml/SKILL.md", "invalid YAML"],
      ["empty-description/SKILL.md", "missing field `description`"],
      ["long-name/SKILL.md", "invalid name"],
      ["no-frontmatter/SKILL.md", "missing YAML frontmatter delimited by ---"],
    ],
  );
  assert.deepStrictEqual(
    snap.errors.find((e) => e.path.includes("long-name"))?.message,
    "invalid name: exceeds maximum length of 64 characters",
  );
  assert.ok(snap.warnings.some((w) => w.includes("broken-yaml-sidecar/agents/openai.yaml")));
});

Deno.test("loadSkillsSnapshot() keeps metadata without the body and merges openai.yaml when present (SK-6, SK-7)", async () => {
  const snap = await snapshotOf([userRoot(BASIC_FIXTURE)]);
  const deploy = snap.skills.find((s) => s.name === "deploy")!;
  assert.deepStrictEqual(deploy, {
    name: "deploy",
    description: "Deploy the service.",
    interface: {
      displayName: "Deploy",
      shortDescription: "Ship it",
      iconSmall: path.join(BASIC_FIXTURE, "deploy/assets/icon.png"),
      brandColor: "#12AB34",
    },
    dependencies: {
      tools: [{ type: "mcp", value: "cloud", description: "Cloud API", url: "https://cloud.example/mcp" }],
    },
    policy: { allowImplicitInvocation: false, products: [] },
    path: path.join(BASIC_FIXTURE, "deploy/SKILL.md"),
    dir: path.join(BASIC_FIXTURE, "deploy"),
    scope: "user",
    root: BASIC_FIXTURE,
    authority: "local",
    extra: {},
  });
  const pdf = snap.skills.find((s) => s.name === "pdf")!;
  assert.deepStrictEqual([pdf.description, pdf.shortDescription], ["Fill and merge PDF forms.", "PDF forms"]);
  assert.ok(!JSON.stringify(snap.skills).includes("Use scripts/fill.py"));
  const claude = snap.skills.find((s) => s.name === "claude-style")!;
  assert.deepStrictEqual([claude.extra, claude.policy.allowImplicitInvocation], [{
    license: "MIT",
    allowedTools: ["Read", "Grep"],
    compatibility: "claude-code",
    metadata: { author: "someone" },
  }, false]);
});

Deno.test("loadSkillsSnapshot() follows directory symlinks once and ends symlink loops for user roots (SK-4)", async () => {
  const target = await makeTree({ "linked/SKILL.md": skillFile("linked") });
  const root = await makeTree({ "own/SKILL.md": skillFile("own") });
  await fs.symlink(path.join(target, "linked"), path.join(root, "alias-a"));
  await fs.symlink(path.join(target, "linked"), path.join(root, "alias-b"));
  await fs.symlink(root, path.join(root, "own", "loop"));
  await fs.mkdir(path.join(root, "file-link"));
  await fs.symlink(path.join(target, "linked", "SKILL.md"), path.join(root, "file-link", "SKILL.md"));
  const snap = await snapshotOf([userRoot(root)]);
  assert.deepStrictEqual(snap.skills.map((s) => [s.name, s.path]), [
    ["linked", path.join(target, "linked/SKILL.md")],
    ["own", path.join(root, "own/SKILL.md")],
  ]);
  assert.deepStrictEqual(snap.errors, []);
});

Deno.test("loadSkillsSnapshot() ignores directory symlinks under a system root (SK-4)", async () => {
  const target = await makeTree({ "linked/SKILL.md": skillFile("linked") });
  const root = await makeTree({ "own/SKILL.md": skillFile("own") });
  await fs.symlink(path.join(target, "linked"), path.join(root, "alias"));
  const snap = await snapshotOf([{ path: root, kind: "bundled", scope: "system" }]);
  assert.deepStrictEqual(snap.skills.map((s) => s.name), ["own"]);
});

Deno.test("loadSkillsSnapshot() lists a file reached through two roots once, keeping the first root (SK-1)", async () => {
  const root = await makeTree({ "a/SKILL.md": skillFile("a") });
  const link = path.join(await makeTree(), "root-link");
  await fs.symlink(root, link);
  const snap = await snapshotOf([
    { path: root, kind: "project_agents", scope: "repo" },
    userRoot(link),
    userRoot(path.join(root, "a")),
  ]);
  assert.deepStrictEqual(snap.skills.map((s) => [s.name, s.scope]), [["a", "repo"]]);
  assert.deepStrictEqual(snap.roots.map((r) => r.status), ["ok", "duplicate", "ok"]);
  assert.deepStrictEqual(snap.duplicates, [{
    path: path.join(root, "a/SKILL.md"),
    root: path.join(root, "a"),
    keptRoot: root,
  }]);
});

Deno.test("loadSkillsSnapshot() orders by scope rank, then name, then path and keeps same-named skills (SK-2)", async () => {
  const repo = await makeTree({ "z/SKILL.md": skillFile("zeta"), "x1/SKILL.md": skillFile("x") });
  const user = await makeTree({ "a/SKILL.md": skillFile("alpha"), "x2/SKILL.md": skillFile("x") });
  const admin = await makeTree({ "b/SKILL.md": skillFile("beta") });
  const snap = await snapshotOf([
    { path: admin, kind: "admin", scope: "admin" },
    userRoot(user),
    { path: repo, kind: "project_agents", scope: "repo" },
  ]);
  assert.deepStrictEqual(snap.skills.map((s) => `${s.scope}:${s.name}`), [
    "repo:x",
    "repo:zeta",
    "user:alpha",
    "user:x",
    "admin:beta",
  ]);
});

Deno.test("loadSkillsSnapshot() warns naming the root when the directory bound is reached (SK-3)", async () => {
  const root = await makeTree({ "a/SKILL.md": skillFile("first") });
  await Promise.all(Array.from({ length: 2_050 }, (_, i) => fs.mkdir(path.join(root, `d${i}`))));
  const snap = await snapshotOf([userRoot(root)]);
  assert.deepStrictEqual(snap.roots[0].status, "incomplete");
  assert.deepStrictEqual(snap.roots[0].dirsScanned, 2_000);
  assert.deepStrictEqual(snap.skills.map((s) => s.name), ["first"]);
  assert.ok(snap.warnings.some((w) => w.includes("traversal limit") && w.includes(root)));
  await fs.remove(root, { recursive: true });
});

Deno.test("loadSkillsSnapshot() survives binary garbage and a 50 MB SKILL.md, each an error for that file only", async () => {
  const root = await makeTree({ "ok/SKILL.md": skillFile("ok") });
  await fs.mkdir(path.join(root, "garbage"));
  await Deno.writeFile(path.join(root, "garbage/SKILL.md"), crypto.getRandomValues(new Uint8Array(4096)));
  await fs.mkdir(path.join(root, "huge"));
  const huge = "---\nname: huge\ndescription: " + "x".repeat(50 * 1024 * 1024);
  await fs.writeTextFile(path.join(root, "huge/SKILL.md"), huge);
  try {
    const snap = await snapshotOf([userRoot(root)]);
    assert.deepStrictEqual(snap.skills.map((s) => s.name), ["ok"]);
    assert.deepStrictEqual(snap.errors.map((e) => [path.relative(root, e.path), e.message]), [
      ["garbage/SKILL.md", "missing YAML frontmatter delimited by ---"],
      ["huge/SKILL.md", "missing YAML frontmatter delimited by ---"],
    ]);
  } finally {
    await fs.remove(root, { recursive: true });
  }
});

/**
 * Root reads a mode-000 directory anyway (CAP_DAC_OVERRIDE), and CI runs as root: the scan runs in a
 * child process whose capability sets lack the two DAC overrides, so the directory is unreadable
 * there too, whoever runs the suite (issue 16 item 4).
 */
async function scanWithoutDacOverride(root: string): Promise<{ skills: string[]; warnings: string[] }> {
  const probe = new URL("./_scan_probe.ts", import.meta.url).pathname;
  const deno = [Deno.execPath(), "run", "-A", probe, root];
  const drop = "-dac_override,-dac_read_search";
  const argv = Deno.uid() === 0 ? ["setpriv", `--inh-caps=${drop}`, `--bounding-set=${drop}`, ...deno] : deno;
  const out = await new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "piped" })
    .output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("loadSkillsSnapshot() warns naming an unreadable directory and loads the rest, even under root (SK-3)", async () => {
  const root = await makeTree({
    "ok/SKILL.md": skillFile("ok"),
    "locked/inner/SKILL.md": skillFile("locked"),
  });
  await fs.chmod(path.join(root, "locked"), 0o000);
  try {
    const seen = await scanWithoutDacOverride(root);
    assert.deepStrictEqual(seen, {
      skills: ["ok"],
      warnings: [`Cannot read skills directory "${root}/locked": EACCES`],
    });
  } finally {
    await fs.chmod(path.join(root, "locked"), 0o755);
    await fs.remove(root, { recursive: true });
  }
});

Deno.test("loadSkillsSnapshot() reports missing roots and roots that are files as statuses, not errors", async () => {
  const tree = await makeTree({ "file.txt": "x" });
  const snap = await snapshotOf([userRoot(path.join(tree, "absent")), userRoot(path.join(tree, "file.txt"))]);
  assert.deepStrictEqual(snap.roots.map((r) => r.status), ["missing", "not_a_directory"]);
  assert.deepStrictEqual([snap.skills, snap.errors, snap.warnings], [[], [], []]);
});

Deno.test("readableRoots() are real paths when the root and a skill folder are reached through symlinks (the session takes them as given)", async () => {
  const real = await makeTree({
    "a/SKILL.md": skillFile("alpha"),
    "elsewhere/b/SKILL.md": skillFile("beta"),
  });
  const links = await makeTree();
  await Deno.symlink(real, path.join(links, "root-link"));
  await Deno.symlink(path.join(real, "elsewhere", "b"), path.join(real, "b-link"));
  const snap = await snapshotOf([userRoot(path.join(links, "root-link"))]);
  const roots = snap.readableRoots().sort();
  assert.deepEqual(roots, [path.join(real, "a"), path.join(real, "elsewhere", "b")]);
  for (const dir of roots) assert.equal(await fs.realPath(dir), dir);
});
