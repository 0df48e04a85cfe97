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

/** A shell word: its text with quotes removed, and whether the shell would expand it first. */
interface Word {
  text: string;
  /**
   * Holds an unquoted glob (`*`, `?`, `[`), brace (`{`), backslash or `$`: the shell turns it into
   * other words before the program sees them — file names included, so a file named `-delete` makes
   * `find *` delete. What the program would receive is unknown here, so no option check can pass it.
   */
  expands: boolean;
}

function isSafeInvocation(words: Word[]): boolean {
  const [program, ...args] = words;
  if (program === undefined || program.expands || program.text.includes("=")) return false;
  if (SAFE_PROGRAMS.has(program.text)) return true; // no option of theirs writes or runs anything
  if (args.some((a) => a.expands)) return false;
  const texts = args.map((a) => a.text);
  if (program.text === "find") return !texts.some((a) => UNSAFE_FIND_OPTIONS.has(a));
  if (program.text === "rg") {
    return !texts.some((a) => UNSAFE_RG_OPTIONS.some((o) => a === o || a.startsWith(`${o}=`)));
  }
  if (program.text === "git") {
    return SAFE_GIT_SUBCOMMANDS.has(texts[0] ?? "") && !texts.some((a) => a.startsWith("--output"));
  }
  return false;
}

const EXPANDING = new Set(["*", "?", "[", "{", "\\", "$"]);

/** Shell-like word splitting with quotes; undefined when the quoting is unbalanced. */
function splitWords(segment: string): Word[] | undefined {
  const words: Word[] = [];
  let current: Word = { text: "", expands: false };
  let quote: string | undefined;
  let started = false;
  for (const c of segment) {
    if (quote) {
      if (c === quote) quote = undefined;
      else {
        current.text += c;
        if (quote === '"' && (c === "$" || c === "\\")) current.expands = true;
      }
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
    } else if (/\s/.test(c)) {
      if (started) words.push(current);
      current = { text: "", expands: false };
      started = false;
    } else {
      current.text += c;
      if (EXPANDING.has(c)) current.expands = true;
      started = true;
    }
  }
  if (quote) return undefined;
  if (started) words.push(current);
  return words;
}
