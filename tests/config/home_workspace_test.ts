/**
 * #20 item 5 (first half): started in $HOME or above it, the built-in sandbox default becomes
 * read-only with a warning; a mode the user chose is kept. HOME is a temp dir in every test.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

async function load(
  cwd: string,
  env: Record<string, string>,
  options: { overrides?: string[]; profile?: string } = {},
) {
  const loaded = await loadConfig(platform.fs, { cwd, env: (name) => env[name], ...options });
  // Shown when a session starts; never a load diagnostic every command would print.
  assert.deepEqual(loaded.diagnostics.filter((d) => /workspace/.test(d.message)), []);
  const warnings = (loaded.startWarnings ?? []).map((d) => d.message);
  return { mode: loaded.config.sandbox_mode, warnings, source: loaded.provenance.get("sandbox_mode") };
}

Deno.test("cwd = $HOME: the built-in sandbox_mode is read-only, with a warning naming the directory", async () => {
  const { env } = await makeSandboxHome();
  const got = await load(env.HOME, env);
  assert.equal(got.mode, "read-only");
  assert.equal(got.warnings.length, 1);
  assert.match(
    got.warnings[0],
    new RegExp(`^The workspace "${env.HOME}" is your home directory: sandbox_mode defaults to "read-only"`),
  );
  assert.match(got.warnings[0], /-s workspace-write or sandbox_mode in config/);
});

Deno.test("cwd = / (and a parent of $HOME): read-only too, the warning says it contains the home directory", async () => {
  const { root, env } = await makeSandboxHome();
  for (const cwd of ["/", root]) {
    const got = await load(cwd, env);
    assert.equal(got.mode, "read-only", cwd);
    assert.match(
      got.warnings.join("\n"),
      new RegExp(`"${cwd}" contains your home directory \\(${env.HOME}\\)`),
    );
  }
});

Deno.test("cwd = $HOME reached through a symlink, or HOME itself a symlink: still read-only", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.symlink(env.HOME, `${root}/home-link`);
  assert.equal((await load(`${root}/home-link`, env)).mode, "read-only");
  assert.equal((await load(env.HOME, { ...env, HOME: `${root}/home-link` })).mode, "read-only");
});

Deno.test("neighbours: cwd = $HOME/project and a sibling of $HOME keep workspace-write, no warning", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.mkdir(`${env.HOME}/project`);
  await platform.fs.mkdir(`${root}/elsewhere`);
  for (const cwd of [`${env.HOME}/project`, `${root}/elsewhere`]) {
    const got = await load(cwd, env);
    assert.deepEqual([got.mode, got.warnings], ["workspace-write", []], cwd);
  }
});

Deno.test("cwd = $HOME with a chosen mode: -s / -c, the user config, the selected profile are honoured (warned)", async () => {
  const { env } = await makeSandboxHome();
  const flag = await load(env.HOME, env, { overrides: ['sandbox_mode="workspace-write"'] });
  assert.deepEqual([flag.mode, flag.source], ["workspace-write", "-c"]);
  assert.match(flag.warnings.join("\n"), /sandbox_mode = "workspace-write" \(-c\) lets commands write/);

  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    'sandbox_mode = "danger-full-access"\n[profiles.home]\nsandbox_mode = "workspace-write"\n',
  );
  const user = await load(env.HOME, env);
  assert.deepEqual([user.mode, user.source], ["danger-full-access", `${env.TRELLIS_HOME}/config.toml`]);
  const profile = await load(env.HOME, env, { profile: "home" });
  assert.deepEqual([profile.mode, profile.source], ["workspace-write", "profile home"]);
  // A user who chose read-only is told nothing.
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, 'sandbox_mode = "read-only"\n');
  assert.deepEqual((await load(env.HOME, env)).warnings, []);
});

Deno.test("trellis -s workspace-write in $HOME keeps it; without -s config show says read-only, and no warning", async () => {
  const { env } = await makeSandboxHome();
  const plain = await runCliCaptured(["config", "show", "--json"], { env, cwd: env.HOME });
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(JSON.parse(plain.stdout).config.sandbox_mode, "read-only");
  // Only a session warns: a command that starts none (config show, completion) stays quiet.
  assert.equal(plain.stderr, "");
  const chosen = await runCliCaptured(["-s", "workspace-write", "config", "show", "--json"], {
    env,
    cwd: env.HOME,
  });
  assert.equal(chosen.code, 0, chosen.stderr);
  assert.equal(JSON.parse(chosen.stdout).config.sandbox_mode, "workspace-write");
});
