import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { pluginSandbox, sh, writeJson } from "./_helpers.ts";

/**
 * #20 item 9: a marketplace name registered from one source is never taken over by another one
 * unasked — the next `plugin update` would install whatever the newcomer lists.
 */

/** A second copy of the fixture marketplace (same name "test") whose demo plugin says 9.9.9. */
async function rivalMarket(root: string): Promise<string> {
  const rival = `${root}/rival`;
  await sh(["cp", "-a", `${root}/market`, rival]);
  const manifest = `${rival}/plugins/demo/.codex-plugin/plugin.json`;
  await writeJson(manifest, { ...JSON.parse(await platform.fs.readTextFile(manifest)), version: "9.9.9" });
  return rival;
}

async function gitRepo(root: string, name: string, fill: (dir: string) => Promise<void>): Promise<string> {
  const work = `${root}/${name}`;
  const bare = `${root}/${name}.git`;
  await platform.fs.mkdir(work);
  await fill(work);
  const git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"];
  await sh([...git, "init", "-q"], work);
  await sh([...git, "add", "-A"], work);
  await sh([...git, "commit", "-q", "-m", "init"], work);
  await sh(["git", "clone", "-q", "--bare", work, bare]);
  return bare;
}

const userConfig = (box: { env: Record<string, string> }) => `${box.env.TRELLIS_HOME}/config.toml`;

Deno.test("marketplace add refuses a name registered from another source: both named, nothing written", async () => {
  const box = await pluginSandbox();
  assert.equal((await box.cli("plugin", "install", "demo@test")).code, 0);
  const rival = await rivalMarket(box.root);
  const before = await platform.fs.readTextFile(userConfig(box));
  const add = await box.cli("plugin", "marketplace", "add", rival);
  assert.equal(add.code, 2);
  assert.equal(
    add.stderr,
    `error: Cannot add marketplace "test" from local ${rival}: that name is already registered from ` +
      `local ${box.market}; pass --replace to switch it (its installed plugins then update from the new ` +
      `source), or remove it first: trellis plugin marketplace remove test\n`,
  );
  assert.equal(add.stdout, "");
  assert.equal(await platform.fs.readTextFile(userConfig(box)), before);
  const update = await box.cli("plugin", "update", "demo@test");
  assert.equal(update.code, 0, update.stderr);
  assert.match(update.stdout, /demo@test is up to date \(1\.0\.0/);
});

Deno.test("marketplace add of the same source again is idempotent", async () => {
  const box = await pluginSandbox();
  const before = await platform.fs.readTextFile(userConfig(box));
  const again = await box.cli(
    "plugin",
    "marketplace",
    "add",
    `${box.market}/.agents/plugins/marketplace.json`,
  );
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^Added marketplace test \(local: .*\/market\) with 6 plugin\(s\)\n$/);
  assert.equal(await platform.fs.readTextFile(userConfig(box)), before);
});

Deno.test("marketplace add --replace switches the source and names the plugins that follow it", async () => {
  const box = await pluginSandbox();
  assert.equal((await box.cli("plugin", "install", "demo@test")).code, 0);
  const rival = await rivalMarket(box.root);
  const add = await box.cli("plugin", "marketplace", "add", rival, "--replace");
  assert.equal(add.code, 0, add.stderr);
  assert.equal(
    add.stdout,
    `Replaced marketplace test: local ${box.market} → local ${rival}; ` +
      `installed plugins that now update from the new source: demo@test\n` +
      `Added marketplace test (local: ${rival}) with 6 plugin(s)\n`,
  );
  const update = await box.cli("plugin", "update", "demo@test");
  assert.equal(update.code, 0, update.stderr);
  assert.match(update.stdout, /Updated demo@test: 1\.0\.0 → 9\.9\.9/);
});

Deno.test("a git marketplace whose manifest name collides is refused before its clone replaces anything", async () => {
  const box = await pluginSandbox({ addMarket: false });
  const market = (name: string) => async (dir: string) => {
    await sh(["cp", "-a", `${box.market}/.`, dir]);
    const file = `${dir}/.agents/plugins/marketplace.json`;
    await writeJson(file, { ...JSON.parse(await platform.fs.readTextFile(file)), name });
  };
  const first = await gitRepo(box.root, "first", market("gitmarket"));
  const second = await gitRepo(box.root, "second", market("gitmarket"));
  assert.equal((await box.cli("plugin", "marketplace", "add", `file://${first}`)).code, 0);
  const clone = `${box.env.TRELLIS_HOME}/plugins/marketplaces/gitmarket`;
  const head = await sh(["git", "-C", clone, "remote", "get-url", "origin"]);
  const before = await platform.fs.readTextFile(userConfig(box));

  const add = await box.cli("plugin", "marketplace", "add", `file://${second}`);
  assert.equal(add.code, 2);
  assert.match(
    add.stderr,
    /^error: Cannot add marketplace "gitmarket" from git file:\/\/.*\/second\.git: that name is already registered from git file:\/\/.*\/first\.git; pass --replace/,
  );
  assert.equal(await platform.fs.readTextFile(userConfig(box)), before);
  assert.equal(await sh(["git", "-C", clone, "remote", "get-url", "origin"]), head);
  // The neighbour: a local marketplace naming itself "gitmarket" is refused the same way.
  const local = await box.cli("plugin", "marketplace", "add", `${box.root}/second`);
  assert.equal(local.code, 2);
  assert.match(local.stderr, /already registered from git file:\/\/.*\/first\.git/);
  assert.ok(await platform.fs.stat(clone));

  const replace = await box.cli("plugin", "marketplace", "add", `${box.root}/second`, "--replace");
  assert.equal(replace.code, 0, replace.stderr);
  assert.match(
    replace.stdout,
    /^Replaced marketplace gitmarket: git file:\/\/.*first\.git → local .*\/second; no installed plugins come from it\n/,
  );
  // The old clone does not linger under the name the local root now owns.
  assert.equal(await platform.fs.stat(clone), null);
});
