import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

Deno.test("debug prompt --json shows the first request without calling a model or writing a session", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.mkdir(`${root}/ws`);
  const run = await runCliCaptured(["debug", "prompt", "--json", "hello there"], { env, cwd: `${root}/ws` });
  assert.equal(run.code, 0, run.stderr);
  const request = JSON.parse(run.stdout);
  assert.deepEqual(request.tools.map((t: { name: string }) => t.name), [
    "read_file",
    "list_dir",
    "glob",
    "grep",
    "write_file",
    "edit_file",
    "shell",
  ]);
  assert.deepEqual(request.input.at(-1), { type: "message", role: "user", content: "hello there" });
  assert.match(request.instructions, /You are Trellis/);
  assert.equal(await platform.fs.stat(`${env.TRELLIS_HOME}/sessions`), null);
});

Deno.test("profiles: -p selects [profiles.<name>]; an unknown profile exits 2 naming the known ones", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    '[profiles.fast]\nmodel = "small"\napproval_policy = "never"\n',
  );
  const ok = await runCliCaptured(["debug", "prompt", "--json", "-p", "fast"], { env, cwd: root });
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).model, "small");
  const bad = await runCliCaptured(["debug", "prompt", "-p", "slow"], { env, cwd: root });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /profile "slow".*known: fast/);
});
