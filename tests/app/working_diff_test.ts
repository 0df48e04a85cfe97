/**
 * #20 item 17: `/diff` (workingTreeDiff) and every git Trellis runs itself (runGit) in an untrusted
 * checkout run none of the programs the repository's own config names — core.fsmonitor,
 * diff.external, a .gitattributes textconv or external diff driver, a clean/process filter — and
 * the diff it shows is still the real one. Real git, real files.
 */
import assert from "node:assert/strict";
import { workingTreeDiff } from "../../lib/app/mod.ts";
import { platform, runGit } from "../../lib/platform/mod.ts";
import { sh } from "../plugins/_helpers.ts";

/** A repository with one committed file changed, one untracked file, and hostile local config. */
async function hostileRepo(): Promise<{ repo: string; markers: string }> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-git-"));
  const repo = `${root}/repo`;
  const markers = `${root}/markers`;
  await platform.fs.mkdir(repo);
  await platform.fs.mkdir(markers);
  const git = (...args: string[]) => sh(["git", "-c", "core.hooksPath=/dev/null", ...args], repo);
  await git("init", "-q");
  await platform.fs.writeTextFile(`${repo}/a.txt`, "hi\n");
  await platform.fs.writeTextFile(`${repo}/.gitattributes`, "*.txt filter=evil diff=evil\n");
  await git("add", ".");
  await git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init");
  const mark = (name: string, then: string) => `touch ${markers}/${name}; ${then}`;
  for (
    const [key, value] of [
      ["core.fsmonitor", mark("fsmonitor", "false")],
      ["diff.external", mark("external", "true")],
      ["diff.evil.textconv", mark("textconv", "cat")],
      ["diff.evil.command", mark("diff-command", "true")],
      ["filter.evil.clean", mark("clean", "cat")],
      ["filter.evil.process", mark("process", "false")],
    ]
  ) {
    await git("config", key, value);
  }
  await platform.fs.writeTextFile(`${repo}/a.txt`, "hi\nthere\n");
  await platform.fs.writeTextFile(`${repo}/new.txt`, "new\n");
  return { repo, markers };
}

const ran = async (markers: string) => (await platform.fs.readDir(markers)).map((e) => e.name).sort();

// Fails when the safety config is dropped from gitArgv (plain `git diff` here runs the fsmonitor and
// the process filter: checked below, so the setup really is hostile) or when the repository's
// filter drivers are not switched off (the process filter runs).
Deno.test("#20 item 17: /diff in a hostile checkout runs none of its fsmonitor, external diff, textconv or filters", async () => {
  const { repo, markers } = await hostileRepo();
  const result = await workingTreeDiff(platform, repo);
  assert.deepStrictEqual(await ran(markers), []);
  // The neighbour: the diff is still the real one, untracked files listed.
  assert.ok(result.ok);
  assert.match(result.diff, /^--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1 \+1,2 @@\n hi\n\+there\n$/m);
  assert.deepStrictEqual(result.untracked, ["new.txt"]);
  // The setup is hostile: the same diff through a bare git runs the repository's programs.
  await sh(["git", "diff", "HEAD", "--"], repo).catch(() => "");
  assert.ok(
    (await ran(markers)).length > 0,
    "plain git diff ran none of the markers: the test proves nothing",
  );
});

Deno.test("#20 item 17: runGit keeps the user's own command-line config and refuses ext:: URLs", async () => {
  const { repo, markers } = await hostileRepo();
  const quoted = await runGit(platform, ["config", "--get", "core.quotepath"], {
    cwd: repo,
    config: ["core.quotepath=off"],
  });
  assert.deepStrictEqual(quoted.stdout.trim(), "off");
  // Even where the user's own git config allows ext:: (git's default is "never" already), a URL a
  // marketplace file names does not run a command. Fails without protocol.ext.allow=never.
  const home = `${repo}/../home`;
  await platform.fs.mkdir(home);
  await platform.fs.writeTextFile(`${home}/.gitconfig`, '[protocol "ext"]\n\tallow = always\n');
  const ext = await runGit(platform, [
    "clone",
    "--quiet",
    "--",
    `ext::sh -c touch% ${markers}/ext`,
    `${repo}/x`,
  ], {
    env: { HOME: home },
  });
  assert.notStrictEqual(ext.code, 0);
  assert.match(ext.stderr, /transport 'ext' not allowed/);
  assert.deepStrictEqual(await ran(markers), []);
});

Deno.test("#20 item 17 neighbour: outside a repository /diff says so, naming git's reason", async () => {
  const dir = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-nogit-"));
  const result = await workingTreeDiff(platform, dir);
  assert.ok(!result.ok);
  assert.match(result.error, /not a git repository/);
});
