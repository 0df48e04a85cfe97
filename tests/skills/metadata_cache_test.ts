import assert from "node:assert/strict";
import * as path from "node:path";
import { fs, makeTree, skillFile, snapshotOf, userRoot } from "./_helpers.ts";

const HOUR_AGO = new Date(Date.now() - 3_600_000);

/** Backdates every file so it counts as settled (a file written within the clock's tick is not cached). */
async function settle(root: string, rels: string[]): Promise<void> {
  for (const rel of rels) await Deno.utime(path.join(root, rel), HOUR_AGO, HOUR_AGO);
}

async function cachedTree() {
  const root = await makeTree({
    "a/SKILL.md": skillFile("alpha", "Alpha does one."),
    "b/SKILL.md": skillFile("beta", "Beta does two."),
  });
  await settle(root, ["a/SKILL.md", "b/SKILL.md"]);
  const home = await makeTree();
  const cacheFile = path.join(home, "cache", "skills_metadata.json");
  const load = () => snapshotOf([userRoot(root)], { cacheFile });
  return { root, cacheFile, load };
}

const descriptions = (snap: Awaited<ReturnType<typeof snapshotOf>>) =>
  Object.fromEntries(snap.skills.map((s) => [s.name, s.description]));

Deno.test("skill metadata cache: an unchanged tree is answered from the cache (same path, size, mtime, inode)", async () => {
  const { root, cacheFile, load } = await cachedTree();
  assert.deepEqual(descriptions(await load()), { alpha: "Alpha does one.", beta: "Beta does two." });
  assert.deepEqual((await Deno.stat(cacheFile)).mode! & 0o777, 0o600);
  // Same bytes count, same inode, mtime put back: the cache cannot tell, so it answers — which shows
  // the file was not read again.
  const file = path.join(root, "a", "SKILL.md");
  await Deno.writeTextFile(file, skillFile("alpha", "Alpha does ONE."));
  await settle(root, ["a/SKILL.md"]);
  assert.deepEqual(descriptions(await load()).alpha, "Alpha does one.");
  // Without the cache the same tree reads the new bytes.
  assert.deepEqual(descriptions(await snapshotOf([userRoot(root)])).alpha, "Alpha does ONE.");
});

Deno.test("skill metadata cache: a changed SKILL.md is read again on the next load", async () => {
  const { root, load } = await cachedTree();
  await load();
  await Deno.writeTextFile(path.join(root, "a", "SKILL.md"), skillFile("alpha", "Alpha now does three."));
  assert.deepEqual(descriptions(await load()).alpha, "Alpha now does three.");
  // Same size, mtime put back, but a new inode (an editor's save by rename): read again too.
  const file = path.join(root, "b", "SKILL.md");
  await Deno.writeTextFile(`${file}.new`, skillFile("beta", "Beta does TWO."));
  await Deno.rename(`${file}.new`, file);
  await settle(root, ["b/SKILL.md"]);
  assert.deepEqual(descriptions(await load()).beta, "Beta does TWO.");
});

Deno.test("skill metadata cache: an added SKILL.md or skill folder is seen on the next load", async () => {
  const { root, load } = await cachedTree();
  await load();
  await fs.mkdir(path.join(root, "c"));
  await Deno.writeTextFile(path.join(root, "c", "SKILL.md"), skillFile("gamma"));
  await Deno.writeTextFile(path.join(root, "SKILL.md"), skillFile("top"));
  assert.deepEqual(Object.keys(descriptions(await load())).sort(), ["alpha", "beta", "gamma", "top"]);
});

Deno.test("skill metadata cache: a removed SKILL.md or skill folder is gone on the next load", async () => {
  const { root, load } = await cachedTree();
  await load();
  await Deno.remove(path.join(root, "a", "SKILL.md"));
  assert.deepEqual(Object.keys(descriptions(await load())), ["beta"]);
  await Deno.remove(path.join(root, "b"), { recursive: true });
  assert.deepEqual((await load()).skills, []);
});

Deno.test("skill metadata cache: a corrupt or other-version cache file is ignored, never an error", async () => {
  for (const text of ["{not json", JSON.stringify({ version: 999, entries: {} }), "[]", "null"]) {
    const { cacheFile, load } = await cachedTree();
    await fs.mkdir(path.dirname(cacheFile));
    await Deno.writeTextFile(cacheFile, text);
    const snap = await load();
    assert.deepEqual(descriptions(snap), { alpha: "Alpha does one.", beta: "Beta does two." });
    assert.deepEqual(snap.warnings, []);
    assert.deepEqual(snap.errors, []);
  }
  // An entry of the right version but the wrong shape is passed over, and the file read instead.
  const { root, cacheFile, load } = await cachedTree();
  await fs.mkdir(path.dirname(cacheFile));
  const info = await Deno.stat(path.join(root, "a", "SKILL.md"));
  await Deno.writeTextFile(
    cacheFile,
    JSON.stringify({
      version: 1,
      entries: {
        [`${path.join(root, "a", "SKILL.md")}\0`]: {
          stat: `${info.mtime!.getTime()}:${info.size}:${info.ino}`,
          value: { fields: { description: 5 }, warnings: "x" },
        },
      },
    }),
  );
  assert.deepEqual(descriptions(await load()).alpha, "Alpha does one.");
});

Deno.test("skill metadata cache: a file modified just now is not cached (its next change may keep the mtime)", async () => {
  const root = await makeTree({ "a/SKILL.md": skillFile("alpha", "Alpha does one.") });
  const home = await makeTree();
  const cacheFile = path.join(home, "cache", "skills_metadata.json");
  await snapshotOf([userRoot(root)], { cacheFile });
  const cached = await Deno.readTextFile(cacheFile).catch(() => null);
  assert.deepEqual(cached === null || !cached.includes("Alpha does one."), true);
});
