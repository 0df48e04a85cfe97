import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

/** A user config past the cache's threshold: 60 hook trust tables, as `hooks trust` writes them. */
function bigConfig(model: string, extra = ""): string {
  const states = Array.from(
    { length: 60 },
    (_, i) =>
      `[hooks.state."/home/u/.trellis/hooks.json:pre_tool_use:${i}:0"]\ntrusted_hash = "sha256:${i}"\n`,
  );
  return `model = "${model}"\n${extra}${states.join("")}`;
}

async function setUp() {
  const { root, env } = await makeSandboxHome();
  const config = `${env.TRELLIS_HOME}/config.toml`;
  const cacheDir = `${env.TRELLIS_HOME}/cache/toml`;
  const load = () => loadConfig(platform.fs, { cwd: root, env: (n) => env[n] });
  const cacheFiles = async () => {
    try {
      return (await Array.fromAsync(Deno.readDir(cacheDir))).map((e) => `${cacheDir}/${e.name}`);
    } catch {
      return [];
    }
  };
  return { config, load, cacheFiles };
}

Deno.test("config TOML: a parsed config.toml is cached, and an edit of its bytes is read, never the cached table", async () => {
  const { config, load, cacheFiles } = await setUp();
  await platform.fs.writeTextFile(config, bigConfig("first"));
  const parsed = await load();
  assert.equal(parsed.config.model, "first");
  const [cacheFile, ...more] = await cacheFiles();
  assert.deepStrictEqual(more, []);
  const entry = JSON.parse(await platform.fs.readTextFile(cacheFile));
  assert.equal(entry.file, config);
  // The cached table is what the next start reads: a changed cached value shows through…
  entry.table.model = "from-the-cache";
  await platform.fs.writeTextFile(cacheFile, JSON.stringify(entry));
  const cached = await load();
  assert.equal(cached.config.model, "from-the-cache");
  assert.deepStrictEqual(cached.config.hooks?.state, parsed.config.hooks?.state);
  // …but one changed byte of the file is parsed again (and the cache written for the new text).
  await platform.fs.writeTextFile(config, bigConfig("second"));
  assert.equal((await load()).config.model, "second");
  assert.equal(JSON.parse(await platform.fs.readTextFile(cacheFile)).table.model, "second");
});

Deno.test("config TOML: a cache entry of another file, a torn entry, and one of another schema are not used", async () => {
  const { config, load, cacheFiles } = await setUp();
  await platform.fs.writeTextFile(config, bigConfig("real"));
  await load();
  const [cacheFile] = await cacheFiles();
  const entry = JSON.parse(await platform.fs.readTextFile(cacheFile));
  const poisoned = { ...entry, table: { ...entry.table, model: "poisoned" } };
  for (const bad of [{ ...poisoned, file: `${config}.other` }, { ...poisoned, schema: 2 }]) {
    await platform.fs.writeTextFile(cacheFile, JSON.stringify(bad));
    assert.equal((await load()).config.model, "real");
  }
  await platform.fs.writeTextFile(cacheFile, JSON.stringify(poisoned).slice(0, 200));
  assert.equal((await load()).config.model, "real");
});

Deno.test("config TOML: values JSON cannot carry (a date-time, inf, -0.0) keep the file parsed each time, exactly", async () => {
  const { config, load, cacheFiles } = await setUp();
  for (
    const extra of [
      '[projects."/p"]\nsince = 1979-05-27T07:32:00Z\n',
      "[otel]\nx = inf\n",
      "[otel]\nx = -0.0\n",
    ]
  ) {
    await platform.fs.writeTextFile(config, bigConfig("m", extra));
    await load().catch(() => {}); // an unknown key is a warning; a wrong type may be an error: either way parsed
    assert.deepStrictEqual(await cacheFiles(), [], extra);
  }
  // A small file is not worth a cache read.
  await platform.fs.writeTextFile(config, 'model = "small"\n');
  assert.equal((await load()).config.model, "small");
  assert.deepStrictEqual(await cacheFiles(), []);
});

Deno.test("config TOML: keys named as Object.prototype's members load the same from the cache as parsed", async () => {
  const { config, load, cacheFiles } = await setUp();
  const extra =
    '[mcp_servers.constructor]\ncommand = "srv"\n[mcp_servers.toString]\nurl = "http://127.0.0.1:1/mcp"\n' +
    '[hooks.state."hasOwnProperty"]\ntrusted_hash = "sha256:x"\n[profiles.valueOf]\nmodel = "p"\n';
  await platform.fs.writeTextFile(config, bigConfig("m", extra));
  const parsed = await load();
  assert.equal((await cacheFiles()).length, 1);
  const cached = await load();
  const shape = (l: typeof parsed) =>
    JSON.stringify({ config: l.config, layers: l.layers, diagnostics: l.diagnostics });
  assert.equal(shape(cached), shape(parsed));
  assert.deepStrictEqual(Object.keys(cached.config.mcp_servers ?? {}), ["constructor", "toString"]);
  assert.deepStrictEqual(cached.config.hooks?.state?.hasOwnProperty, { trusted_hash: "sha256:x" });
});
