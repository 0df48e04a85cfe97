/** Commands that only read, whatever their arguments (the ones needing an argument check are below). */
const SAFE_PROGRAMS = new Set([
  "ls",
  "cat",
  "pwd",
  "echo",
  "head",
  "tail",
  "wc",
  "grep",
  "true",
  "false",
  "which",
  "whoami",
  "uname",
]);
const SAFE_GIT_SUBCOMMANDS = new Set(["status", "log", "diff", "show"]);
const UNSAFE_FIND_OPTIONS = new Set([
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-fls",
  "-fprint",
  "-fprint0",
  "-fprintf",
]);
const UNSAFE_RG_OPTIONS = ["--pre", "--hostname-bin", "--search-zip", "-z"];
// Redirection, substitution, background jobs and subshells can write or run anything.
const UNSAFE_SYNTAX = /[<>`&()\n\r]|\$\(|\$\{/;

/**
 * True when `command` only reads: a pipeline or `&&`/`||`/`;` sequence of known read-only programs
 * with no redirection or substitution. Conservative: anything it cannot judge is not safe.
 */
export function isKnownSafeCommand(command: string): boolean {
  const withoutAnd = command.replaceAll("&&", ";");
  if (UNSAFE_SYNTAX.test(withoutAnd)) return false;
  const segments = withoutAnd.split(/\|\||[|;]/).map((s) => s.trim());
  if (segments.some((s) => s === "")) return false;
  return segments.every((segment) => {
    const words = splitWords(segment);
    return words !== undefined && isSafeInvocation(words);
  });
}

function isSafeInvocation(words: string[]): boolean {
  const [program, ...args] = words;
  if (program === undefined || program.includes("=")) return false;
  if (SAFE_PROGRAMS.has(program)) return true;
  if (program === "find") return !args.some((a) => UNSAFE_FIND_OPTIONS.has(a));
  if (program === "rg") {
    return !args.some((a) => UNSAFE_RG_OPTIONS.some((o) => a === o || a.startsWith(`${o}=`)));
  }
  if (program === "git") {
    return SAFE_GIT_SUBCOMMANDS.has(args[0] ?? "") && !args.some((a) => a.startsWith("--output"));
  }
  return false;
}

/** Shell-like word splitting with quotes; undefined when the quoting is unbalanced. */
function splitWords(segment: string): string[] | undefined {
  const words: string[] = [];
  let current = "";
  let quote: string | undefined;
  let started = false;
  for (const c of segment) {
    if (quote) {
      if (c === quote) quote = undefined;
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
    } else if (/\s/.test(c)) {
      if (started) words.push(current);
      current = "";
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (quote) return undefined;
  if (started) words.push(current);
  return words;
}
