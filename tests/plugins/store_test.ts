import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import {
  activeVersion,
  compareVersions,
  parsePluginId,
  pickActiveVersion,
  recoverStore,
  storeLayout,
} from "../../lib/plugins/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

Deno.test("pickActiveVersion() prefers local, then the highest by semver (PL-7)", async () => {
  assert.equal(await pickActiveVersion(["local", "2.0.0"]), "local");
  assert.equal(await pickActiveVersion(["1.9.0", "1.10.0"]), "1.10.0");
  assert.equal(await pickActiveVersion(["1.0.0-beta", "1.0.0", "weird"]), "1.0.0");
  assert.equal(await pickActiveVersion(["..", "."]), null);
  assert.equal(await compareVersions("2.0.0", "10.0.0") < 0, true);
});

Deno.test("parsePluginId() splits on the last @ and validates both segments (PL-5)", () => {
  assert.deepStrictEqual(parsePluginId("a.b@m"), { plugin: "a.b", marketplace: "m", key: "a.b@m" });
  for (const bad of ["a@", "@m", "a", "../x@m", "a@m/x", "a..b@m", ".a@m"]) {
    assert.equal(parsePluginId(bad), null, bad);
  }
});

Deno.test("activeVersion() resolves a swap interrupted between renames to the old copy; recoverStore() restores it", async () => {
  const { env } = await makeSandboxHome();
  const layout = storeLayout(env.TRELLIS_HOME);
  const id = parsePluginId("demo@test")!;
  const target = `${layout.cacheDir}/test/demo/local`;
  const backup = `${layout.backupDir}/demo-test-local.x`;
  await platform.fs.mkdir(`${layout.cacheDir}/test/demo`);
  await platform.fs.mkdir(backup);
  await platform.fs.writeTextFile(`${backup}/old.txt`, "old");
  await platform.fs.writeFileAtomic(
    `${layout.journalDir}/test~demo~local.json`,
    JSON.stringify({ target, backup }),
  );
  assert.deepStrictEqual(await activeVersion(platform.fs, layout, id), { version: "local", root: backup });
  await recoverStore(platform.fs, layout);
  assert.deepStrictEqual(await activeVersion(platform.fs, layout, id), { version: "local", root: target });
  assert.equal(await platform.fs.readTextFile(`${target}/old.txt`), "old");
  assert.deepStrictEqual(await platform.fs.readDir(layout.journalDir), []);
});
