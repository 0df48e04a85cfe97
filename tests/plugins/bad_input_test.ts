import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { installPlugin, loadMarketplaces, loadPlugins, storeLayout } from "../../lib/plugins/mod.ts";
import { pluginSandbox, sh, writeJson } from "./_helpers.ts";

Deno.test("plugin install refuses a manifest name that differs from the marketplace entry (PL-8)", async () => {
  const box = await pluginSandbox();
  const run = await box.cli("plugin", "install", "misnamed@test");
  assert.equal(run.code, 2);
  assert.equal(
    run.stderr,
    'error: Cannot install "misnamed@test": plugin manifest name `other` does not match marketplace plugin name `misnamed`\n',
  );
  assert.equal(await platform.fs.stat(`${box.env.TRELLIS_HOME}/plugins/cache/test/misnamed`), null);
});

Deno.test("plugin install refuses an invalid version segment (PL-8)", async () => {
  const box = await pluginSandbox();
  const run = await box.cli("plugin", "install", "badversion@test");
  assert.equal(run.code, 2);
  assert.equal(run.stderr, 'error: Cannot install "badversion@test": invalid version segment "1/2"\n');
});

Deno.test("plugin install enforces install policy and product restriction (PL-6)", async () => {
  const box = await pluginSandbox();
  const hidden = await box.cli("plugin", "install", "hidden@test");
  assert.equal(
    hidden.stderr,
    'error: Cannot install "hidden@test": plugin `hidden` is not available for install in marketplace `test`\n',
  );
  const other = await box.cli("plugin", "install", "other-product@test");
  assert.equal(other.code, 2);
  assert.match(other.stderr, /not available for install/);
});

Deno.test("a marketplace source ./../x is skipped with a warning, never read", async () => {
  const box = await pluginSandbox();
  const { marketplaces, diagnostics } = await loadMarketplaces(
    platform.fs,
    await box.config(),
    storeLayout(box.env.TRELLIS_HOME),
  );
  assert.deepStrictEqual(marketplaces[0].entries.map((e) => e.name), [
    "demo",
    "claude-demo",
    "misnamed",
    "badversion",
    "hidden",
    "other-product",
  ]);
  // Codex's policy fields, read as written: `authentication` ON_USE where the entry says so, else ON_INSTALL.
  assert.deepStrictEqual(
    marketplaces[0].entries.filter((e) => ["demo", "hidden"].includes(e.name)).map((e) => e.authentication),
    ["ON_INSTALL", "ON_USE"],
  );
  assert.match(
    diagnostics[0].message,
    /plugins\[5\]: skipped: source "\.\/\.\.\/outside": path must not contain `\.\.`/,
  );
  const run = await box.cli("plugin", "install", "escape@test");
  assert.equal(
    run.stderr,
    'error: Cannot install "escape@test": marketplace "test" does not list "escape"\n',
  );
});

Deno.test("a symlink in the bundle pointing out of it is not installed nor followed", async () => {
  const box = await pluginSandbox();
  const secret = `${box.root}/secret.txt`;
  await platform.fs.writeTextFile(secret, "secret");
  await platform.fs.symlink(secret, `${box.market}/plugins/demo/skills/hello/leak.txt`);
  await platform.fs.symlink(box.root, `${box.market}/plugins/demo/skills/outside`);
  const run = await box.cli("plugin", "install", "demo@test");
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /warning: demo@test: skipped skills\/hello\/leak\.txt: symlinks and special files are not installed/,
  );
  assert.match(run.stderr, /warning: demo@test: skipped skills\/outside:/);
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0`;
  assert.equal(await platform.fs.lstat(`${root}/skills/hello/leak.txt`), null);
  assert.equal(await platform.fs.lstat(`${root}/skills/outside`), null);
});

Deno.test("loadPlugins() ignores manifest paths that resolve outside the plugin root via a symlink (PL-2)", async () => {
  const box = await pluginSandbox();
  await box.cli("plugin", "install", "demo@test");
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0`;
  const elsewhere = `${box.root}/elsewhere`;
  await platform.fs.mkdir(`${elsewhere}/skills`);
  await writeJson(`${elsewhere}/hooks.json`, { hooks: { Stop: [] } });
  await platform.fs.remove(`${root}/skills`, { recursive: true });
  await platform.fs.symlink(`${elsewhere}/skills`, `${root}/skills`);
  await platform.fs.remove(`${root}/hooks/hooks.json`);
  await platform.fs.symlink(`${elsewhere}/hooks.json`, `${root}/hooks/hooks.json`);
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.contributions.skillRoots, []);
  assert.deepStrictEqual(result.contributions.hookSources, []);
  assert.deepStrictEqual(result.diagnostics.map((d) => d.message), [
    "demo@test: ignoring ./skills: it resolves outside the plugin root",
    "demo@test: ignoring ./hooks/hooks.json: it resolves outside the plugin root",
  ]);
});

Deno.test("a plugin.json's own warnings name the plugin they are about (#16 item 8)", async () => {
  const box = await pluginSandbox();
  await box.cli("plugin", "install", "demo@test");
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0`;
  const manifest = JSON.parse(await platform.fs.readTextFile(`${root}/.codex-plugin/plugin.json`));
  await writeJson(`${root}/.codex-plugin/plugin.json`, {
    ...manifest,
    interface: { ...manifest.interface, brandColor: "red" },
  });
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.diagnostics.map((d) => [d.message, d.subject]), [
    ["demo@test: ignoring interface.brandColor: expected #RRGGBB", "demo@test"],
  ]);
  const run = await box.cli("plugin", "list");
  assert.match(run.stderr, /^warning: demo@test: ignoring interface\.brandColor: expected #RRGGBB$/m);
});

Deno.test("plugin marketplace add reports invalid marketplace JSON as a clear error", async () => {
  const box = await pluginSandbox({ addMarket: false });
  await platform.fs.writeTextFile(`${box.market}/.agents/plugins/marketplace.json`, "{ not json");
  const run = await box.cli("plugin", "marketplace", "add", box.market);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /^error: Cannot parse marketplace ".*marketplace\.json": /);
  assert.doesNotMatch(run.stderr, /at .*\.ts/);
});

Deno.test("a configured marketplace that turns invalid is skipped with an error diagnostic", async () => {
  const box = await pluginSandbox();
  await platform.fs.writeTextFile(`${box.market}/.agents/plugins/marketplace.json`, "[");
  const list = await box.cli("plugin", "marketplace", "list");
  assert.equal(list.code, 0);
  assert.match(list.stderr, /error: Cannot parse marketplace/);
  assert.equal(list.stdout, "No marketplaces configured.\n");
});

Deno.test("plugin marketplace add clones a git marketplace and installs a git-sourced plugin (PL-6)", async () => {
  const box = await pluginSandbox({ addMarket: false });
  const repo = await gitRepo(box.root, "work", async (dir) => {
    await sh(["cp", "-a", `${box.market}/.`, dir]);
    await writeJson(`${dir}/.agents/plugins/marketplace.json`, {
      name: "gitmarket",
      plugins: [{ name: "demo", source: { source: "git-subdir", url: "./", path: "plugins/demo" } }],
    });
  });
  const add = await box.cli("plugin", "marketplace", "add", `file://${repo}`);
  assert.equal(add.code, 0, add.stderr);
  assert.match(add.stdout, /Added marketplace gitmarket \(git: file:\/\/.*\) with 1 plugin/);
  const install = await box.cli("plugin", "install", "demo@gitmarket");
  assert.equal(install.code, 0, install.stderr);
  assert.ok(
    await platform.fs.stat(
      `${box.env.TRELLIS_HOME}/plugins/cache/gitmarket/demo/1.0.0/skills/hello/SKILL.md`,
    ),
  );
  assert.equal(
    await platform.fs.stat(`${box.env.TRELLIS_HOME}/plugins/cache/gitmarket/demo/1.0.0/.git`),
    null,
  );
  assert.equal((await box.cli("plugin", "marketplace", "update")).code, 0);
  assert.equal((await box.cli("plugin", "marketplace", "remove", "gitmarket")).code, 0);
  assert.equal(await platform.fs.stat(`${box.env.TRELLIS_HOME}/plugins/marketplaces/gitmarket`), null);
});

Deno.test("a git source that does not exist is a clear error and leaves the store untouched", async () => {
  const box = await pluginSandbox({ addMarket: false });
  const add = await box.cli("plugin", "marketplace", "add", `file://${box.root}/missing.git`);
  assert.equal(add.code, 2);
  assert.match(add.stderr, /^error: Cannot clone "file:\/\/.*missing\.git": /);
  await writeJson(`${box.market}/.agents/plugins/marketplace.json`, {
    name: "test",
    plugins: [{ name: "demo", source: { source: "url", url: `${box.root}/nope.git` } }],
  });
  await box.cli("plugin", "marketplace", "add", box.market);
  const install = await box.cli("plugin", "install", "demo@test");
  assert.equal(install.code, 2);
  assert.match(install.stderr, /^error: Cannot clone ".*nope\.git": /);
  assert.deepStrictEqual(await platform.fs.readDir(`${box.env.TRELLIS_HOME}/plugins/.staging`), []);
  assert.equal(await platform.fs.stat(`${box.env.TRELLIS_HOME}/plugins/cache/test`), null);
});

Deno.test("an npm package over the size limit is refused before unpacking", async () => {
  const box = await pluginSandbox({ addMarket: false });
  const pkg = `${box.root}/npm-demo`;
  await sh(["cp", "-a", `${box.market}/plugins/demo`, pkg]);
  await writeJson(`${pkg}/package.json`, { name: "npm-demo", version: "1.0.0" });
  const noise = Array.from({ length: 4 }, () => crypto.getRandomValues(new Uint8Array(60_000)));
  await platform.fs.writeTextFile(
    `${pkg}/big.txt`,
    noise.map((b) => btoa(String.fromCharCode(...b))).join(""),
  );
  await writeJson(`${box.market}/.agents/plugins/marketplace.json`, {
    name: "test",
    plugins: [{ name: "demo", source: { source: "npm", package: pkg } }],
  });
  await box.cli("plugin", "marketplace", "add", box.market);
  const loaded = await box.config();
  const { marketplaces } = await loadMarketplaces(platform.fs, loaded, storeLayout(box.env.TRELLIS_HOME));
  const options = {
    platform,
    layout: storeLayout(box.env.TRELLIS_HOME),
    marketplace: marketplaces[0],
    entry: marketplaces[0].entries[0],
  };
  // npm pack mostly waits, so the three packs run side by side.
  const [archive, unpacked, ok] = await Promise.allSettled([
    installPlugin({ ...options, npmLimits: { maxArchiveBytes: 10_000, maxUnpackedBytes: 1e9 } }),
    installPlugin({ ...options, npmLimits: { maxArchiveBytes: 1e9, maxUnpackedBytes: 100_000 } }),
    installPlugin(options),
  ]);
  assert.match(
    String(archive.status === "rejected" && archive.reason.message),
    /Cannot fetch npm package ".*npm-demo": archive is \d+ bytes, over the 10000-byte limit/,
  );
  assert.match(
    String(unpacked.status === "rejected" && unpacked.reason.message),
    /unpacked size is over the 100000-byte limit/,
  );
  assert.equal(ok.status, "fulfilled");
  const installed = (ok as PromiseFulfilledResult<Awaited<ReturnType<typeof installPlugin>>>).value;
  assert.deepStrictEqual([installed.id, installed.version, installed.changed], ["demo@test", "1.0.0", true]);
});

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

Deno.test("a manifest skills path that names a file is ignored with a warning naming it; a folder beside it still loads (PL-3)", async () => {
  const box = await pluginSandbox();
  await box.cli("plugin", "install", "demo@test");
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0`;
  await platform.fs.writeTextFile(`${root}/notes.md`, "# not a folder of skills\n");
  await platform.fs.mkdir(`${root}/more/extra`);
  await platform.fs.writeTextFile(
    `${root}/more/extra/SKILL.md`,
    "---\nname: extra\ndescription: x\n---\nbody\n",
  );
  const manifest = JSON.parse(await platform.fs.readTextFile(`${root}/.codex-plugin/plugin.json`));
  await writeJson(`${root}/.codex-plugin/plugin.json`, { ...manifest, skills: ["./notes.md", "./more"] });
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.contributions.skillRoots.map((r) => r.path).sort(), [
    `${root}/more`,
    `${root}/skills`,
  ]);
  assert.deepStrictEqual(result.diagnostics.map((d) => [d.message, d.subject]), [
    [
      "demo@test: ignoring skills path ./notes.md: not a directory (it names a folder of skills)",
      "demo@test",
    ],
  ]);
});
