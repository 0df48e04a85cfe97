/**
 * The one place tests pass `--skip-git-repo-check` (#25 item 3): `exec` refuses to run outside a git
 * repository as `codex exec` does, and test workspaces are temp dirs git does not track. Every harness
 * that starts the CLI puts its argv through `execArgs`; a test of the refusal itself starts the
 * binary on its own.
 */
export const SKIP_GIT_REPO_CHECK = "--skip-git-repo-check";

/** Global options that take a value: their value is never the command name. */
const VALUED = new Set([
  "-c",
  "--config",
  "-p",
  "--profile",
  "-C",
  "--cd",
  "-m",
  "--model",
  "-s",
  "--sandbox",
  "-a",
  "--ask-for-approval",
]);

/** `argv` with `--skip-git-repo-check` right after the command when the command is `exec`. */
export function execArgs(argv: string[]): string[] {
  if (argv.includes(SKIP_GIT_REPO_CHECK)) return argv;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (VALUED.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith("-")) continue;
    return arg === "exec" ? [...argv.slice(0, i + 1), SKIP_GIT_REPO_CHECK, ...argv.slice(i + 1)] : argv;
  }
  return argv;
}
