import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

// `trellis -C DIR <command>`: the directory before the command word is where config edits land.
// Before: `project trust` trusted the process's directory and `mcp add --scope project` wrote there.

async function twoDirs(): Promise<
  { env: Record<string, string>; proj: string; other: string; home: string }
> {
  const { root, env } = await makeSandboxHome();
  const proj = `${root}/proj`;
  const other = `${root}/other`;
  await platform.fs.mkdir(`${proj}/.git`);
  await platform.fs.mkdir(`${other}/.git`);
  return { env, proj, other, home: env.TRELLIS_HOME };
}

Deno.test("trellis -C DIR project trust trusts DIR, not the process's directory", async () => {
  const { env, proj, other, home } = await twoDirs();
  const run = await runCliCaptured(["-C", proj, "project", "trust"], { env, cwd: other });
  assert.equal(run.code, 0, run.stderr);
  const config = await platform.fs.readTextFile(`${home}/config.toml`);
  assert.match(config, new RegExp(`\\[projects\\."${proj}"\\]`));
  assert.doesNotMatch(config, /other/);
});

Deno.test("trellis -C DIR mcp add --scope project writes DIR/.trellis/config.toml", async () => {
  const { env, proj, other } = await twoDirs();
  const run = await runCliCaptured(["-C", proj, "mcp", "add", "--scope", "project", "foo", "--", "echo"], {
    env,
    cwd: other,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(await platform.fs.readTextFile(`${proj}/.trellis/config.toml`), /\[mcp_servers\.foo\]/);
  assert.equal(await platform.fs.stat(`${other}/.trellis/config.toml`), null);
});

Deno.test("trellis -C MISSING project trust is a usage error naming --cd, nothing written", async () => {
  const { env, other, home } = await twoDirs();
  const run = await runCliCaptured(["-C", `${other}/nope`, "project", "trust"], { env, cwd: other });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /Cannot use --cd ".*nope": no such directory/);
  assert.equal(await platform.fs.stat(`${home}/config.toml`), null);
});
