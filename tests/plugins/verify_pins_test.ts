import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { pluginSandbox } from "./_helpers.ts";

/**
 * #20 item 18: `plugin verify` notices what changes how a plugin runs without changing a byte —
 * an exec bit set or cleared, a symlink planted — and not what does not (a file's times).
 */

async function installed() {
  const box = await pluginSandbox();
  const run = await box.cli("plugin", "install", "demo@test");
  assert.equal(run.code, 0, run.stderr);
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0`;
  const ok = await box.cli("plugin", "verify", "demo@test");
  assert.deepStrictEqual([ok.code, ok.stdout], [0, "demo@test: ok\n"]);
  return { box, root };
}

const MODIFIED = /^demo@test: modified \(expected sha256:[0-9a-f]{64}, found sha256:[0-9a-f]{64}\)\n$/;

// Fails when the digest stops covering the executable bit (content_digest's `x`/`-` column).
Deno.test("#20 item 18: plugin verify reports a file whose exec bit was set, or cleared, as modified", async () => {
  for (const [file, mode] of [["hooks/hooks.json", 0o700], ["hooks/check.sh", 0o600]] as const) {
    const { box, root } = await installed();
    await platform.fs.chmod(`${root}/${file}`, mode);
    const run = await box.cli("plugin", "verify", "demo@test");
    assert.deepStrictEqual(run.code, 1, file);
    assert.match(run.stdout, MODIFIED, file);
  }
});

// Fails when verify stops counting entries that are neither files nor directories (digestTree's
// `skipped`) as tampering: the digest alone does not change for a planted link.
Deno.test("#20 item 18: plugin verify reports a planted symlink by name, even beside unchanged content", async () => {
  const { box, root } = await installed();
  await platform.fs.symlink("/etc/passwd", `${root}/hooks/notes.txt`);
  const run = await box.cli("plugin", "verify", "demo@test");
  assert.deepStrictEqual(run.code, 1);
  assert.match(
    run.stdout,
    /^demo@test: modified \(expected sha256:([0-9a-f]{64}), found sha256:\1\); unexpected entries: hooks\/notes\.txt\n$/,
  );
});

Deno.test("#20 item 18 neighbour: plugin verify stays ok when only a file's times change", async () => {
  const { box, root } = await installed();
  await Deno.utime(`${root}/hooks/check.sh`, 0, 0);
  const run = await box.cli("plugin", "verify", "demo@test");
  assert.deepStrictEqual([run.code, run.stdout], [0, "demo@test: ok\n"]);
});
