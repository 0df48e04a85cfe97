import type { BashParser, ParsedScript, SyntaxNode } from "./shell_parser.ts";
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
  /** Its standard input when the line gives it (`<<EOF` or `<<<`): a shell reads its commands there. */
  stdin?: string;
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
    found = [];
    collect(parser, parser.parse(line), line, found);
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
  const inner = innerCommands(segment.words, segment.stdin);
  if (inner.length > 0 && wrappers >= MAX_WRAPPERS) {
    out.push(unjudged(`more than ${MAX_WRAPPERS} wrappers in a row`));
    return;
  }
  for (const run of inner) {
    if (run.kind === "unjudged") out.push(unjudged(run.reason));
    else if (run.kind === "script") readLine(run.text, depth + 1, parser, state, out);
    else {
      const next = { words: run.words, dynamic: segment.dynamic, ...stdinOf(segment) };
      expand(next, depth, parser, state, out, wrappers + 1);
    }
  }
}

/**
 * Every simple command under `node`, depth first in source order: the walk goes into compound
 * commands, function bodies, and the scripts unbash parses inside `$(…)`, backticks, `<(…)` and
 * unquoted here-doc bodies; each script's syntax errors become one unreadable stand-in.
 */
function collect(parser: BashParser, node: SyntaxNode, line: string, out: CommandSegment[]): void {
  if (node.type === "Script") {
    const [error] = (node as ParsedScript).errors ?? [];
    if (error) out.push(unjudged(`syntax error ${place(line, error.pos)}: ${error.message}`));
  } else if (node.type === "Command" && node.name) {
    const words = [node.name, ...node.args];
    const values = words.map(argumentValue);
    const stdin = node.redirects.map(stdinText).findLast((text) => text !== undefined);
    out.push({
      words: values,
      dynamic: words.filter((_, i) => values[i].includes(UNKNOWN)).map((w) => w.text),
      ...(stdin !== undefined ? { stdin } : {}),
    });
  }
  parser.forEachChild(node, (child) => collect(parser, child, line, out));
}

type Argument = Extract<SyntaxNode, { type: "Command" }>["args"][number];
type Word = Extract<SyntaxNode, { type: "Word" }>;
type WordPart = NonNullable<Word["parts"]>[number];

/** `export X=1`: an assignment operand, as written once its value is known. */
function argumentValue(arg: Argument): string {
  if (arg.type === "Word") return wordValue(arg);
  return arg.value.type === "Word" ? `${arg.name}${arg.append ? "+=" : "="}${wordValue(arg.value)}` : UNKNOWN;
}

/** A word's value after quote removal, `UNKNOWN` for what only the running shell knows. */
function wordValue(word: Word): string {
  return word.parts ? word.parts.map(partValue).join("") : word.value;
}

function partValue(part: WordPart): string {
  switch (part.type) {
    case "Literal":
    case "SingleQuoted":
    case "AnsiCQuoted":
      return part.value;
    case "DoubleQuoted":
    case "LocaleString":
      return part.parts.map((p) => p.type === "Literal" ? p.value : UNKNOWN).join("");
    default:
      // Expansions, substitutions, globs, brace expansions: known only when the command runs.
      return UNKNOWN;
  }
}

function stdinOf(segment: CommandSegment): { stdin?: string } {
  return segment.stdin !== undefined ? { stdin: segment.stdin } : {};
}

type Redirection = Extract<SyntaxNode, { type: "Command" }>["redirects"][number];

/** What a here-doc or here-string feeds the command (`UNKNOWN` where it expands); else undefined. */
function stdinText(redirect: Redirection): string | undefined {
  if (
    redirect.descriptor !== undefined &&
    !(redirect.descriptor.type === "FileDescriptor" && redirect.descriptor.value === 0)
  ) {
    return undefined;
  }
  if (redirect.type === "HereString") return redirect.target ? wordValue(redirect.target) + "\n" : undefined;
  if (redirect.type !== "HereDoc") return undefined;
  const { body } = redirect;
  if (redirect.delimiter?.quoted || !body.parts) return body.text;
  return body.parts.map(partValue).join("");
}

function place(line: string, offset: number): string {
  const before = line.slice(0, offset);
  const row = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return row > 1 ? `at line ${row}, column ${column}` : `at column ${column}`;
}
