import assert from "node:assert/strict";
import { platform, runCommand } from "../../lib/platform/mod.ts";

/**
 * A real `git worktree` of a bare repository: `store/proj.git` (no protected name on the way: a
 * bare repository is not called `.git`) with the worktree at `ws`, whose `.git` is a file
 * (`gitdir: store/proj.git/worktrees/ws`, and its `commondir` names `proj.git`, where the hooks and
 * config every worktree uses live). Both made writable to the throwaway user.
 */
export async function bareWorktree(root: string, ws: string): Promise<{ store: string; bare: string }> {
  const store = `${root}/store`;
  const bare = `${store}/proj.git`;
  const git = (...args: string[]) =>
    runCommand(platform, {
      cmd: ["git", "-c", "core.hooksPath=/dev/null", ...args],
      env: { PATH: "/usr/bin:/bin" },
    });
  await platform.fs.mkdir(store);
  for (
    const args of [
      ["init", "-q", "--bare", bare],
      [
        "-C",
        bare,
        "-c",
        "user.email=t@t",
        "-c",
        "user.name=t",
        "commit-tree",
        "-m",
        "init",
        "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
      ],
    ]
  ) {
    const run = await git(...args);
    assert.equal(run.code, 0, run.stderr);
    if (args.includes("commit-tree")) {
      assert.equal((await git("-C", bare, "update-ref", "refs/heads/main", run.stdout.trim())).code, 0);
    }
  }
  await platform.fs.remove(ws, { recursive: true });
  const added = await git("-C", bare, "worktree", "add", "-q", ws, "main");
  assert.equal(added.code, 0, added.stderr);
  assert.match(
    await platform.fs.readTextFile(`${ws}/.git`),
    /^gitdir: .*\/store\/proj\.git\/worktrees\/ws\n$/,
  );
  assert.equal((await runCommand(platform, { cmd: ["chmod", "-R", "a+rwX", store, ws], env: {} })).code, 0);
  return { store, bare };
}
