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

Deno.test("trellis -C LINK project trust records the real path; the next -C LINK run loads as trusted (#26 item 1)", async () => {
  const { env, proj, other, home } = await twoDirs();
  await platform.fs.mkdir(`${proj}/.trellis`);
  await platform.fs.writeTextFile(`${proj}/.trellis/config.toml`, 'model = "from-the-project"\n');
  const link = `${other}/link`;
  await platform.fs.symlink(proj, link);
  const show = async () => {
    const run = await runCliCaptured(["-C", link, "config", "show", "--json"], { env, cwd: other });
    assert.equal(run.code, 0, run.stderr);
    return { ...JSON.parse(run.stdout), stderr: run.stderr };
  };
  const before = await show();
  assert.deepEqual(before.project, { root: proj, trusted: false });
  const trust = await runCliCaptured(["-C", link, "project", "trust"], { env, cwd: other });
  assert.equal(trust.code, 0, trust.stderr);
  // Trust records the layer files' content too (#20 item 2): the new one is listed.
  assert.equal(
    trust.stdout,
    `Trusted ${proj} (${home}/config.toml)\nLayer files since the last trust:\n  new:     .trellis/config.toml\n`,
  );
  assert.doesNotMatch(await platform.fs.readTextFile(`${home}/config.toml`), /link/);
  const after = await show();
  assert.deepEqual(after.project, { root: proj, trusted: true });
  assert.equal(after.config.model, "from-the-project", "the project layer loads through the link");
  assert.doesNotMatch(after.stderr, /not trusted/);
});

Deno.test("trellis -C LINK into a subdirectory of a trusted project loads as trusted; a link to another project does not", async () => {
  const { env, proj, other } = await twoDirs();
  await platform.fs.mkdir(`${proj}/sub`);
  const trust = await runCliCaptured(["-C", proj, "project", "trust"], { env, cwd: other });
  assert.equal(trust.code, 0, trust.stderr);
  await platform.fs.symlink(`${proj}/sub`, `${other}/to-sub`);
  await platform.fs.symlink(other, `${proj}/to-other`);
  const trusted = async (dir: string) => {
    const run = await runCliCaptured(["-C", dir, "config", "show", "--json"], { env, cwd: other });
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout).project;
  };
  assert.deepEqual(await trusted(`${other}/to-sub`), { root: proj, trusted: true });
  // A link inside the trusted project that leads out of it is the other project, untrusted.
  assert.deepEqual(await trusted(`${proj}/to-other`), { root: other, trusted: false });
});
