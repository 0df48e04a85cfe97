import type { BashParser, SyntaxNode } from "./shell_parser.ts";
import { innerCommands, programName, UNKNOWN } from "./command_wrappers.ts";

/**
 * One simple command a command line may run, as its words after quote removal (leading
 * `VAR=value` assignments and redirections dropped). A word holds `UNKNOWN` where its text is only
 * known at run time (`$CMD`, `"$(echo rm)"`, `*.txt`); `dynamic` keeps those words as written, for
 * the warning. `unjudged` marks a stand-in for commands that cannot be read at all (its one word is
 * `UNKNOWN`, so it could be any command).
 */
export interface CommandSegment {
  words: string[];
  dynamic: string[];
  unjudged?: string;
}

/** How many shells deep `bash -c "sh -c '…'"` is followed before the rest counts as unreadable. */
export const MAX_SHELL_DEPTH = 6;
/** A bound on the work one command line can cause (each `-c` string is one more parse). */
const MAX_PARSES = 64;

/**
 * Every simple command a shell line runs (#20 item 8), read with a real Bash parser: lists,
 * pipelines, `{ …; }`, subshells, `if`/`while`/`for`/`case` bodies, function bodies, `$(…)`,
 * backticks, process substitutions and unquoted here-doc bodies; then, for each, the commands it
 * runs in turn: `sudo rm` → `rm`, `bash -c "rm x"` → `rm x` (command_wrappers.ts), and `/bin/rm` is
 * also judged as `rm`. A `command` given as words (an argv) is read as one simple command.
 */
export function commandSegments(command: string | readonly string[], parser: BashParser): CommandSegment[] {
  const state = { parses: 0 };
  const segments: CommandSegment[] = [];
  if (typeof command === "string") readLine(command, 0, parser, state, segments);
  else if (command.length > 0) expand({ words: [...command], dynamic: [] }, 0, parser, state, segments);
  return segments;
}

function unjudged(reason: string): CommandSegment {
  return { words: [UNKNOWN], dynamic: [], unjudged: reason };
}

function readLine(
  line: string,
  depth: number,
  parser: BashParser,
  state: { parses: number },
  out: CommandSegment[],
): void {
  if (depth > MAX_SHELL_DEPTH) {
    out.push(unjudged(`shells nested deeper than ${MAX_SHELL_DEPTH}`));
    return;
  }
  if (++state.parses > MAX_PARSES) {
    out.push(unjudged(`more than ${MAX_PARSES} nested command lines`));
    return;
  }
  let found: CommandSegment[];
  try {
    found = parser.read(line, (root) => {
      const commands: CommandSegment[] = [];
      if (root.hasError) commands.push(unjudged(`syntax error ${errorPlace(root, line)}`));
      collect(root, commands);
      return commands;
    });
  } catch (error) {
    found = [unjudged(`the parser failed: ${(error as Error).message}`)];
  }
  for (const segment of found) expand(segment, depth, parser, state, out);
}

/** How many wrappers in a row (`sudo env nice …`) are looked through. */
const MAX_WRAPPERS = 16;

/** Adds `segment`, its `rm` form for `/bin/rm`, and what it runs (recursively, bounded). */
function expand(
  segment: CommandSegment,
  depth: number,
  parser: BashParser,
  state: { parses: number },
  out: CommandSegment[],
  wrappers = 0,
): void {
  out.push(segment);
  const [name] = segment.words;
  if (segment.unjudged !== undefined || name === undefined || name.includes(UNKNOWN)) return;
  const program = programName(name);
  if (program !== name && program !== "") {
    out.push({ ...segment, words: [program, ...segment.words.slice(1)] });
  }
  const inner = innerCommands(segment.words);
  if (inner.length > 0 && wrappers >= MAX_WRAPPERS) {
    out.push(unjudged(`more than ${MAX_WRAPPERS} wrappers in a row`));
    return;
  }
  for (const run of inner) {
    if (run.kind === "unjudged") out.push(unjudged(run.reason));
    else if (run.kind === "script") readLine(run.text, depth + 1, parser, state, out);
    else expand({ words: run.words, dynamic: segment.dynamic }, depth, parser, state, out, wrappers + 1);
  }
}

const COMMAND_NODES = new Set(["command", "declaration_command", "unset_command"]);

/** Every command node under `node`, depth first in source order. */
function collect(node: SyntaxNode, out: CommandSegment[]): void {
  if (COMMAND_NODES.has(node.type)) {
    const segment = simpleCommand(node);
    if (segment) out.push(segment);
  }
  for (const child of node.children) if (child) collect(child, out);
}

/** Words Bash reads as syntax where a command starts, which tree-sitter-bash takes as command names. */
const RESERVED = new Set(["then", "else", "elif", "fi", "do", "done", "esac", "in", "}", "]]"]);

function simpleCommand(node: SyntaxNode): CommandSegment | undefined {
  const parts: SyntaxNode[] = [];
  if (node.type === "command") {
    const name = node.childForFieldName("name");
    if (!name) return undefined;
    if (RESERVED.has(name.text)) {
      const { row, column } = name.startPosition;
      return unjudged(
        `syntax error at line ${row + 1}, column ${column + 1} (unexpected ${JSON.stringify(name.text)})`,
      );
    }
    parts.push(name);
    for (const arg of node.childrenForFieldName("argument")) if (arg) parts.push(arg);
  } else {
    // `export X=$(…)`, `local -r y`, `unset -f f`: the keyword, then its operands.
    const [keyword, ...rest] = node.children.filter((c): c is SyntaxNode => c !== null);
    if (!keyword) return undefined;
    parts.push(keyword, ...rest.filter((c) => c.isNamed && !c.type.endsWith("redirect")));
  }
  const words = parts.map(wordValue);
  const dynamic = parts.filter((_, i) => words[i].includes(UNKNOWN)).map((p) => p.text);
  return { words, dynamic };
}

/** A word's value after quote removal, `UNKNOWN` for what only the running shell knows. */
function wordValue(node: SyntaxNode): string {
  switch (node.type) {
    case "command_name":
      return node.children[0] ? wordValue(node.children[0]) : UNKNOWN;
    case "word":
      return unquotedWord(node.text);
    case "number":
    case "variable_name":
    case "keyword":
    case "export":
    case "declare":
    case "local":
    case "readonly":
    case "typeset":
    case "unset":
    case "unsetenv":
      return node.text;
    case "raw_string":
      return node.text.slice(1, -1);
    case "string":
    case "translated_string":
      return node.children.map((c) => c ? stringPart(c) : "").join("");
    case "ansi_c_string":
      return ansiC(node.text.slice(2, -1));
    case "concatenation": {
      const value = node.children.map((c) => c ? wordValue(c) : "").join("");
      // `{a,b}` and `{1..3}` are brace expansions: several words, none known here.
      return /^[^'"]*\{[^}]*(,|\.\.)/.test(node.text) ? UNKNOWN : value;
    }
    case "variable_assignment":
      return node.text.includes("$") || node.text.includes("`") ? UNKNOWN : node.text;
    default:
      // Expansions, substitutions, arithmetic, brace expressions, and anything this reader does not know.
      return UNKNOWN;
  }
}

function stringPart(node: SyntaxNode): string {
  if (node.type === "string_content") {
    return node.text.replace(/\\([$`"\\\n])/g, (_, c) => c === "\n" ? "" : c);
  }
  if (!node.isNamed) return node.type === '"' || node.type === '$"' ? "" : node.text;
  return node.type === "string" ? wordValue(node) : UNKNOWN;
}

/** An unquoted word: backslash escapes removed; an unescaped glob character could match anything. */
function unquotedWord(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      if (text[i + 1] !== "\n") out += text[i + 1] ?? "";
      i++;
    } else if (c === "*" || c === "?") {
      out += UNKNOWN;
    } else if (c === "[" && text.indexOf("]", i + 1) > i) {
      out += UNKNOWN;
      i = text.indexOf("]", i + 1);
    } else {
      out += c;
    }
  }
  return /\{[^}]*(,|\.\.)[^}]*\}/.test(out) ? UNKNOWN : out;
}

const ANSI_C: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** `$'…'`: `\x72m` is `rm`; an escape this does not decode makes the word unknown. */
function ansiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_, escape: string) => {
      const kind = escape[0];
      if (kind === "x" || kind === "u" || kind === "U") {
        return String.fromCodePoint(parseInt(escape.slice(1), 16));
      }
      if (/[0-7]/.test(kind)) return String.fromCharCode(parseInt(escape, 8) & 0xff);
      return ANSI_C[escape] ?? UNKNOWN;
    },
  );
}

function errorPlace(root: SyntaxNode, line: string): string {
  const bad = firstError(root);
  if (!bad) return "";
  const { row, column } = bad.startPosition;
  const near = bad.isMissing
    ? `missing ${JSON.stringify(bad.type)}`
    : `near ${JSON.stringify(bad.text.trim().slice(0, 20))}`;
  return `at ${line.includes("\n") ? `line ${row + 1}, ` : ""}column ${column + 1} (${near})`;
}

function firstError(node: SyntaxNode): SyntaxNode | undefined {
  if (node.isError || node.isMissing) return node;
  if (!node.hasError) return undefined;
  for (const child of node.children) {
    const found = child ? firstError(child) : undefined;
    if (found) return found;
  }
  return undefined;
}
