import { parse as parseShell } from "shell-quote";

/**
 * A shell line read as bash reads it, by `shell-quote` — the one reader of shell syntax in Trellis
 * (the `untrusted` known-safe check, hook `if` rules). Quotes, backslashes and `$'…'` are removed
 * as bash removes them (`'-dele'te` and `-dele\te` are the word `-delete`).
 */
export type ShellToken =
  | {
    kind: "word";
    /** The word with its quoting removed; for a glob, the pattern as written. */
    text: string;
    /**
     * The shell turns it into other words before the program sees them: an unquoted glob (`*`, `?`),
     * a brace or bracket expression (`{a,b}`, `[ab]` — shell-quote keeps their quoting from no
     * one, so a quoted one counts too), or a `$` parameter (also inside double quotes). File names
     * included: a file named `-delete` makes `find *` delete.
     */
    expands: boolean;
  }
  /** `|`, `&&`, `;`, `>`, `(`, `<(`, `&` … */
  | { kind: "operator"; op: string }
  /** `# …` to the end of the line. */
  | { kind: "comment" };

// shell-quote calls back for each `$NAME`/`${NAME}`; this mark (no shell word holds a NUL) records it.
const PARAMETER = "\u0000";
const BRACKETS = /[{}[\]]/;

/**
 * A line of plain words only — letters, digits and `_ @ % + = : , . / -` between blanks: no quote,
 * escape, `$`, glob, brace, operator, `#` or `~` — reads as its blank-separated words, exactly as
 * shell-quote reads it. Hook commands such as `echo done` or `./hooks/check.sh --fast` take this
 * path: shell-quote builds its regular expressions on every call (~30 µs a line here), which made a
 * session with 90 hooks start at 2× one with none (#24 figure).
 */
const PLAIN_LINE = /^[A-Za-z0-9_@%+=:,./\t -]*$/;

/** A plain line's words (see PLAIN_LINE): one simple command, nothing to expand; null otherwise. */
export function plainWords(line: string): string[] | null {
  return PLAIN_LINE.test(line) ? line.split(/[ \t]+/).filter((w) => w !== "") : null;
}

/** `text` as one single-quoted shell word: sh, bash and zsh read `'…'` literally; a `'` is `'\\''`. */
export function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** `word` as written when it is plain (PLAIN_LINE's characters), else single-quoted: one word either way. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : singleQuoted(word);
}

export function shellTokens(line: string): ShellToken[] {
  const plain = plainWords(line);
  if (plain) return plain.map((text) => ({ kind: "word", text, expands: false }));
  const raw = parseShell(line, (name: string) => `${PARAMETER}${name}`) as (
    | string
    | { op: string; pattern?: string }
    | { comment: string }
  )[];
  return raw.map((token): ShellToken => {
    if (typeof token === "string") {
      return {
        kind: "word",
        text: token.replaceAll(PARAMETER, "$"),
        expands: token.includes(PARAMETER) || BRACKETS.test(token),
      };
    }
    if ("comment" in token) return { kind: "comment" };
    if (token.op === "glob") return { kind: "word", text: token.pattern ?? "", expands: true };
    return { kind: "operator", op: token.op };
  });
}
