import { type ShellToken, shellTokens } from "../shared/mod.ts";

/** Operators that start a new simple command: lists, pipes, subshells and command substitution. */
const SEPARATORS = new Set(["&&", "||", ";", ";;", "|", "|&", "&", "(", ")", "<(", ">("]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The simple commands a shell line runs, each as its words joined by one space, leading `VAR=value`
 * assignments dropped: `FOO=1 git push && (cd x; make)` → `git push`, `cd x`, `make`. Commands
 * inside `$(…)` and backticks count too, as Claude Code's `if: "Bash(…)"` matching counts them.
 * Quoting is read by shell-quote (lib/shared/shell_words.ts); `$VAR` stays as written.
 */
export function commandSegments(command: string): string[] {
  // Backticks are command substitution: read them as a separator (a quoted backtick is rare in a rule's target).
  let tokens: ShellToken[];
  try {
    tokens = shellTokens(command.replaceAll("`", " ; "));
  } catch {
    return [command.trim()];
  }
  const segments: string[][] = [[]];
  let redirectTarget = false;
  for (const token of tokens) {
    if (token.kind === "word" && redirectTarget) {
      redirectTarget = false; // `> out.txt`: the file is not a word of the command
    } else if (token.kind === "word") {
      segments[segments.length - 1].push(token.text);
    } else if (token.kind === "operator" && SEPARATORS.has(token.op)) {
      segments.push([]);
    } else if (token.kind === "operator") {
      redirectTarget = true;
    }
    // comments end nothing and add no word
  }
  return segments.map(dropAssignments).filter((words) => words.length > 0).map((words) => words.join(" "));
}

function dropAssignments(words: string[]): string[] {
  // `$(` reads as a lone "$" before the "(" operator.
  const kept = words[words.length - 1] === "$" ? words.slice(0, -1) : [...words];
  while (kept.length > 0 && ASSIGNMENT.test(kept[0])) kept.shift();
  return kept;
}
