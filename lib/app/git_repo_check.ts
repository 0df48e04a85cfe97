import * as nodePath from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { TrellisError } from "../shared/mod.ts";

/**
 * Codex 0.171's own sentence (`codex exec` outside a git repository, exit 1): scripts that wrap
 * `codex exec` match on it, so Trellis says it the same way (#25 item 3).
 */
export const NOT_IN_GIT_REPO = "Not inside a trusted directory and --skip-git-repo-check was not specified.";

/**
 * `exec` refuses to run outside a git repository unless `--skip-git-repo-check` is given, as
 * `codex exec` does: an agent let loose on a directory git does not track leaves edits nobody can
 * review or undo. Any ancestor holding `.git` (a directory, or a worktree's/submodule's file) counts;
 * trusting the project does not lift it (Codex 0.171 refuses a trusted directory too).
 */
export function checkGitRepo(fs: FileSystem, cwd: string): void {
  let dir = cwd;
  while (true) {
    // Blocking: a few lstat calls, once per exec, before the session is built.
    if (fs.sync.lstat(nodePath.join(dir, ".git"))) return;
    const parent = nodePath.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new TrellisError("git_repo_check", NOT_IN_GIT_REPO, { cwd }, { exitCode: 1 });
}
