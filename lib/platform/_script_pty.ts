import { shellWord } from "../shared/mod.ts";

/**
 * A pseudo-terminal for a runtime that cannot open one (Deno): util-linux `script` runs the argv on
 * a PTY of its own and relays it over pipes. `-e` gives the child's exit code, `-f` flushes each
 * write, `-q` keeps script's own banner out, `/dev/null` is the typescript file it would keep.
 */
export function scriptArgv(argv: readonly string[]): string[] {
  return ["script", "-qefc", quoteArgv(argv), "/dev/null"];
}

/** The argv as one POSIX shell string, for `script -c`. */
function quoteArgv(argv: readonly string[]): string {
  return argv.map(shellWord).join(" ");
}
