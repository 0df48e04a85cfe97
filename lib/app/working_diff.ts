import { type Platform, runGit } from "../platform/mod.ts";

export type WorkingDiff =
  | { ok: true; diff: string; untracked: string[] }
  | { ok: false; error: string };

/**
 * What `/diff` shows: the working tree against HEAD (against the index in a repository without a
 * commit yet) and the untracked files. Through runGit, so an untrusted checkout's fsmonitor,
 * external diff, textconv and filter programs never run (#20 item 17).
 */
export async function workingTreeDiff(platform: Platform, cwd: string): Promise<WorkingDiff> {
  const git = (args: string[]) => runGit(platform, args, { cwd, config: ["core.quotepath=off"] });
  const inside = await git(["rev-parse", "--show-toplevel"]);
  if (inside.code !== 0) return { ok: false, error: (inside.stderr || inside.error || "").trim() };
  let tracked = await git(["diff", "--no-color", "HEAD", "--"]);
  if (tracked.code !== 0) {
    tracked = await git(["diff", "--no-color", "--"]);
    if (tracked.code !== 0) return { ok: false, error: (tracked.stderr || tracked.error || "").trim() };
  }
  const untracked = await git(["ls-files", "--others", "--exclude-standard"]);
  return { ok: true, diff: tracked.stdout, untracked: untracked.stdout.split("\n").filter(Boolean) };
}
