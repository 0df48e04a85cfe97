import { shellTokens } from "./shell_words.ts";

/**
 * The words of a shell command that may name a file it runs or reads (#20 item 7): a trust or an
 * approval given to `sh ${CLAUDE_PLUGIN_ROOT}/run.sh`, `.claude/hooks/x.sh` or `python3 tool.py` is for
 * the files those words name, so their content joins what was trusted. Every word counts (a program
 * path, an interpreter's script, an argument, `--opt=value`'s value, an `A=b` value, an input
 * redirection), except what a command writes or never opens: the target of an output redirection,
 * a file descriptor (`>&2`), a here-document's delimiter or a here-string. `$NAME`/`${NAME}` are
 * replaced from `vars`, `~/` by `vars.HOME`; a word that still expands (another variable, a glob)
 * cannot be named ahead of the run and is left out. Paths are returned as written, not resolved.
 */
export function commandPathWords(command: string, vars: Record<string, string> = {}): string[] {
  const words: string[] = [];
  let skipNext = false;
  for (const token of shellTokens(command)) {
    if (token.kind === "comment") break;
    if (token.kind === "operator") {
      skipNext = SKIPS_TARGET.has(token.op);
      continue;
    }
    if (skipNext) {
      skipNext = false;
      continue;
    }
    const word = candidate(token.text);
    if (word === undefined) continue;
    const expanded = expand(word, vars);
    if (expanded !== undefined && expanded !== "") words.push(expanded);
  }
  return [...new Set(words)];
}

// Output redirections (the command writes there), fd duplications and here-document/string operands.
const SKIPS_TARGET = new Set([">", ">>", ">|", ">&", "&>", "&>>", "<&", "<<", "<<-", "<<<"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The part of a word that could be a path: all of it, an option's `=value`, an assignment's value. */
function candidate(text: string): string | undefined {
  if (text.startsWith("-")) {
    const eq = text.indexOf("=");
    return eq > 0 ? text.slice(eq + 1) : undefined;
  }
  const assignment = ASSIGNMENT.exec(text);
  return assignment ? text.slice(assignment[0].length) : text;
}

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
