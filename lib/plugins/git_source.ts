import * as path from "node:path";
import { type Platform, runGit } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";

/** Git access goes through the `git` binary: the user's credentials helpers and config just work. */

export function looksLikeGitUrl(value: string): boolean {
  return /^(https?|ssh|git|file):\/\//.test(value) || /^[\w.-]+@[\w.-]+:/.test(value) ||
    value.endsWith(".git");
}

/**
 * Codex's URL rules: `owner/repo` → GitHub https; https GitHub URLs get `.git`; `./` and `../` resolve
 * against the marketplace root; file://, absolute, ssh:// and git@host: are kept; anything else is null.
 */
export function normalizeGitUrl(url: string, root?: string): string | null {
  if (/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(url) && !url.startsWith(".")) {
    return `https://github.com/${url.replace(/\.git$/, "")}.git`;
  }
  if (/^https:\/\/github\.com\//.test(url)) return url.endsWith(".git") ? url : `${url}.git`;
  if (url.startsWith("./") || url.startsWith("../")) return root ? path.resolve(root, url) : null;
  if (/^(https?|ssh|git|file):\/\//.test(url) || url.startsWith("/") || /^[\w.-]+@[\w.-]+:/.test(url)) {
    return url;
  }
  return null;
}

/** Through runGit (#20 item 17): no ext:: URLs, hooks or repository-defined filters run. */
async function git(platform: Platform, args: string[], cwd?: string) {
  return await runGit(platform, args, { ...(cwd ? { cwd } : {}), timeoutMs: 300_000 });
}

/** Clones `url` into `dest` (which must not exist) and checks out `sha`, else `ref`; drops `.git`. */
export async function gitCheckout(
  platform: Platform,
  options: { url: string; dest: string; ref?: string; sha?: string; keepGitDir?: boolean },
): Promise<void> {
  const clone = await git(platform, ["clone", "--quiet", "--", options.url, options.dest]);
  if (clone.code !== 0) {
    throw new UsageError(
      `Cannot clone "${options.url}": ${lastLine(clone.stderr || clone.error || "git failed")}`,
      {
        source: options.url,
      },
    );
  }
  const revision = options.sha ?? options.ref;
  if (revision) {
    const checkout = await git(platform, ["checkout", "--quiet", revision, "--"], options.dest);
    if (checkout.code !== 0) {
      throw new UsageError(
        `Cannot check out "${revision}" of "${options.url}": ${lastLine(checkout.stderr)}`,
        {
          source: options.url,
        },
      );
    }
  }
  if (!options.keepGitDir) await platform.fs.remove(path.join(options.dest, ".git"), { recursive: true });
}

function lastLine(text: string): string {
  return text.trim().split("\n").filter(Boolean).at(-1) ?? "unknown error";
}
