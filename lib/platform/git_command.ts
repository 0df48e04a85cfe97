import { childEnv } from "./child_env.ts";
import type { Platform } from "./platform.ts";
import { type CommandResult, runCommand } from "./run_command.ts";

/**
 * Every git Trellis runs itself (`/diff`, plugin and marketplace clones) goes through here (#20
 * item 17): a repository's own config must not run a program. An untrusted checkout's
 * `.git/config` (or a file it includes) can name `core.fsmonitor`, `diff.external`, a
 * `.gitattributes` textconv or external diff driver, or a clean/smudge/process filter — each a
 * command git runs during an ordinary `git diff`. `-c` on the command line wins over every config
 * file, so these are switched off there; the user's global and system filters (git-lfs) are left.
 */
export const GIT_SAFETY_CONFIG: readonly string[] = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  // `--no-ext-diff` covers the diffing subcommands; this covers any other that would honour it.
  "diff.external=",
  // `ext::<command>` URLs run a command; a marketplace file must not be able to name one.
  "protocol.ext.allow=never",
];

/** Subcommands that render diffs: they also get `--no-ext-diff --no-textconv`. */
const DIFFING = new Set(["diff", "log", "show"]);

/** Scopes the user writes; a filter from any other (local, worktree) is the repository's. */
const USER_SCOPES = new Set(["system", "global", "command"]);

export interface GitArgvOptions {
  /** More `-c key=value` (the caller's own, e.g. `core.quotepath=off`). */
  config?: string[];
  /** Filter drivers the repository defines (see repositoryFilterDrivers): switched off. */
  filterDrivers?: string[];
}

/** The argv of `git <args>` with the safety config, and the diff flags for diffing subcommands. */
export function gitArgv(args: string[], options: GitArgvOptions = {}): string[] {
  const config = [
    ...GIT_SAFETY_CONFIG,
    ...(options.filterDrivers ?? []).flatMap((name) =>
      ["clean=", "smudge=", "process=", "required=false"].map((key) => `filter.${name}.${key}`)
    ),
    ...(options.config ?? []),
  ];
  const [sub, ...rest] = args;
  const tail = sub !== undefined && DIFFING.has(sub)
    ? [sub, "--no-ext-diff", "--no-textconv", ...rest]
    : args;
  return ["git", "--no-pager", ...config.flatMap((c) => ["-c", c]), ...tail];
}

/** The names of the filter drivers the repository at `cwd` defines in its own config. */
export async function repositoryFilterDrivers(platform: Platform, cwd: string): Promise<string[]> {
  const listed = await runCommand(platform, {
    cmd: ["git", "--no-pager", "config", "--show-scope", "--name-only", "--get-regexp", "^filter\\."],
    cwd,
    env: gitEnv(platform),
    timeoutMs: 30_000,
  });
  const names = new Set<string>();
  for (const line of listed.stdout.split("\n")) {
    const [scope, key] = line.split("\t");
    if (!key || USER_SCOPES.has(scope)) continue;
    const name = /^filter\.(.+)\.[^.]+$/.exec(key)?.[1];
    if (name) names.add(name);
  }
  return [...names];
}

export interface RunGitOptions extends GitArgvOptions {
  cwd?: string;
  timeoutMs?: number;
  /** Variables set on top of the inherited environment. */
  env?: Record<string, string>;
}

/**
 * Runs git with the safety config; inside a repository (`cwd` given) its own filter drivers are
 * switched off too.
 */
export async function runGit(
  platform: Platform,
  args: string[],
  options: RunGitOptions = {},
): Promise<CommandResult> {
  const filterDrivers = options.cwd ? await repositoryFilterDrivers(platform, options.cwd) : [];
  return await runCommand(platform, {
    cmd: gitArgv(args, { ...options, filterDrivers: [...filterDrivers, ...(options.filterDrivers ?? [])] }),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: gitEnv(platform, options.env),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
}

/** The allow-listed environment (no `GIT_EXTERNAL_DIFF`, no `GIT_DIR`); never asks on a terminal. */
function gitEnv(platform: Platform, set: Record<string, string> = {}): Record<string, string> {
  return childEnv(platform.envAll(), { set: { GIT_TERMINAL_PROMPT: "0", ...set } });
}
