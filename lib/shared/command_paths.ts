import { plainWords, shellTokens } from "./shell_words.ts";

/**
 * The words of a shell command that name a file it RUNS (#20 item 7): a trust or an approval given to
 * `sh ${CLAUDE_PLUGIN_ROOT}/run.sh`, `.claude/hooks/x.sh`, `./build.sh` or `python3 tool.py` is for the
 * files those words name, so their content joins what was trusted. Per simple command (split at
 * `;`, `&&`, `||`, `|`, `&`), after leading `A=b` assignments and wrappers (`env`, `exec`, `nohup`,
 * `time`, `command`, `sudo`, `nice`): the program when it is a path (`./build.sh`, `/abs/x`), and,
 * when the program is an interpreter (sh, bash, python3, node, …, `source`, `.`), its script — the
 * first word that is not an option — or the file its standard input is redirected from. Arguments a
 * program merely reads or writes (`touch approved.txt`, `tee -a log`) are not its code: an "always"
 * approval of `touch approved.txt` must still cover the second call once the file exists.
 * `$NAME`/`${NAME}` are replaced from `vars`, `~/` by `vars.HOME`; a word that still expands (another
 * variable, a glob) cannot be named ahead of the run and is left out. Paths are returned as written.
 */
export function commandPathWords(command: string, vars: Record<string, string> = {}): string[] {
  // One simple command of plain words (`echo done`, `./hooks/check.sh --fast`): no operator to split
  // at, nothing to expand — what the tokens below would give, without building them (per hook, at
  // every session start).
  const plain = plainWords(command);
  if (plain) return [...new Set(executed(plain, undefined))];
  const words: string[] = [];
  let segment: string[] = [];
  let stdinFrom: string | undefined;
  let skipNext: "skip" | "stdin" | undefined;
  const flush = () => {
    words.push(...executed(segment, stdinFrom));
    segment = [];
    stdinFrom = undefined;
  };
  for (const token of shellTokens(command)) {
    if (token.kind === "comment") break;
    if (token.kind === "operator") {
      if (SEPARATORS.has(token.op)) flush();
      else skipNext = token.op === "<" ? "stdin" : SKIPS_TARGET.has(token.op) ? "skip" : undefined;
      continue;
    }
    if (skipNext) {
      if (skipNext === "stdin") stdinFrom = token.text;
      skipNext = undefined;
      continue;
    }
    segment.push(token.text);
  }
  flush();
  const out: string[] = [];
  for (const word of words) {
    const expanded = expand(word, vars);
    if (expanded !== undefined && expanded !== "") out.push(expanded);
  }
  return [...new Set(out)];
}

const SEPARATORS = new Set(["&&", "||", ";", ";;", "|", "|&", "&", "(", ")"]);
const WRAPPERS = new Set(["env", "exec", "nohup", "time", "command", "builtin", "sudo", "nice", "stdbuf"]);
const INTERPRETERS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "python",
  "python3",
  "node",
  "deno",
  "bun",
  "ruby",
  "perl",
  "php",
  "lua",
  "tclsh",
  "source",
  ".",
]);
/** Interpreter options after which no script file follows (the code is inline, or a module name). */
const INLINE = new Set(["-c", "-e", "-m", "--eval", "-p", "--print"]);

/** The files one simple command runs: a path-like program, an interpreter's script or stdin file. */
function executed(words: string[], stdinFrom: string | undefined): string[] {
  let i = 0;
  while (i < words.length && (ASSIGNMENT.test(words[i]) || WRAPPERS.has(words[i]))) {
    i++;
    while (i < words.length && words[i].startsWith("-") && words[i - 1] !== "--") i++; // a wrapper's options
  }
  const program = words[i];
  if (program === undefined) return [];
  const out: string[] = [];
  if (program.includes("/")) out.push(program);
  const name = program.slice(program.lastIndexOf("/") + 1).replace(/[0-9.]+$/, "") || program;
  if (!INTERPRETERS.has(name) && !INTERPRETERS.has(program)) return out;
  for (let j = i + 1; j < words.length; j++) {
    const word = words[j];
    if (INLINE.has(word)) return out;
    if (word === "--") continue;
    if (word.startsWith("-")) continue;
    out.push(word);
    return out;
  }
  if (stdinFrom !== undefined) out.push(stdinFrom);
  return out;
}

// Output redirections (the command writes there), fd duplications and here-document/string operands.
const SKIPS_TARGET = new Set([">", ">>", ">|", ">&", "&>", "&>>", "<&", "<<", "<<-", "<<<"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function expand(word: string, vars: Record<string, string>): string | undefined {
  let unknown = false;
  let out = word.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_whole, name: string) => {
    const value = vars[name];
    if (value === undefined) unknown = true;
    return value ?? "";
  });
  if (out.startsWith("~/") || out === "~") {
    if (vars.HOME === undefined) return undefined;
    out = vars.HOME + out.slice(1);
  }
  if (unknown || /[*?[\]{}$]/.test(out)) return undefined;
  return out;
}
