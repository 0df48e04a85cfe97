import { type ShellToken, shellTokens } from "../shared/mod.ts";

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
/** rg's short flags that take no value, so `-iz` is `-i -z` (and `-z` may hide in any such cluster). */
const RG_SHORT_FLAG_CLUSTER = /^-[A-Za-z]{2,}$/;
// Substitution and multi-line text are refused before the words are read: shell-quote reads a backtick
// as a letter and a newline as a blank, where bash runs a command for each.
const UNSAFE_TEXT = /[`\n\r]|\$\(/;
/** The operators that join simple commands without running or redirecting anything themselves. */
const SEQUENCE_OPERATORS = new Set(["|", "||", "&&", ";"]);

/**
 * True when `command` only reads: a pipeline or `&&`/`||`/`;` sequence of known read-only programs
 * with no redirection, substitution or background job. Conservative: anything it cannot judge is
 * not safe. The words are read by shell-quote (lib/shared/shell_words.ts), as bash reads them.
 */
export function isKnownSafeCommand(command: string): boolean {
  if (UNSAFE_TEXT.test(command)) return false;
  const segments: ShellWord[][] = [[]];
  for (const token of shellTokens(command)) {
    if (token.kind === "comment") return false; // `a#b` vs `a #b`: not worth judging
    if (token.kind === "operator") {
      if (!SEQUENCE_OPERATORS.has(token.op)) return false; // redirection, subshell, `&`, `;;`
      segments.push([]);
    } else segments[segments.length - 1].push(token);
  }
  return segments.every((words) => words.length > 0 && isSafeInvocation(words));
}

type ShellWord = Extract<ShellToken, { kind: "word" }>;

function isSafeInvocation(words: ShellWord[]): boolean {
  const [program, ...args] = words;
  if (program === undefined || program.expands || program.text.includes("=")) return false;
  if (SAFE_PROGRAMS.has(program.text)) return true; // no option of theirs writes or runs anything
  if (args.some((a) => a.expands)) return false;
  const texts = args.map((a) => a.text);
  if (program.text === "find") return !texts.some((a) => UNSAFE_FIND_OPTIONS.has(a));
  if (program.text === "rg") return !texts.some(isUnsafeRgOption);
  if (program.text === "git") {
    return SAFE_GIT_SUBCOMMANDS.has(texts[0] ?? "") && !texts.some((a) => a.startsWith("--output"));
  }
  return false;
}

/** `--pre=x`, `-z`, and a short-flag cluster holding `z` (`-iz` searches compressed files too). */
function isUnsafeRgOption(arg: string): boolean {
  if (UNSAFE_RG_OPTIONS.some((o) => arg === o || arg.startsWith(`${o}=`))) return true;
  return RG_SHORT_FLAG_CLUSTER.test(arg) && arg.includes("z");
}
