import { parse as parseJsonc, type ParseError, printParseErrorCode } from "jsonc-parser";

/**
 * JSON as users' settings files hold it (`.mcp.json`, `~/.claude.json`, `settings.json`,
 * `plugin.json`), with a parse error a person can act on: `line 3, column 14: expected a comma`
 * (issue #21 item 11). `JSON.parse` does the work; only when it fails does jsonc-parser (Microsoft's,
 * the one VS Code uses) run over the text in strict mode to find where — Bun's own message names no
 * position, and V8's only an offset.
 */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: jsonErrorAt(text) ?? (error as Error).message };
  }
}

/**
 * JSON with comments and trailing commas, as Gemini CLI reads its `settings.json` (#24 item 3): the
 * value, or the first problem as "line L, column C: <what>".
 */
export function parseJsoncText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, {
    disallowComments: false,
    allowTrailingComma: true,
    allowEmptyContent: false,
  });
  const first = errors[0];
  return first ? { ok: false, message: describeAt(text, first) } : { ok: true, value };
}

/** "line L, column C: <what>" for the first problem strict JSON finds in `text`; undefined if none. */
export function jsonErrorAt(text: string): string | undefined {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  return first ? describeAt(text, first) : undefined;
}

function describeAt(text: string, first: ParseError): string {
  const before = text.slice(0, first.offset);
  const line = before.split("\n").length;
  const column = first.offset - before.lastIndexOf("\n");
  return `line ${line}, column ${column}: ${describe(printParseErrorCode(first.error))}`;
}

const WORDS: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: "expected a colon",
  CommaExpected: "expected a comma",
  CloseBraceExpected: "expected }",
  CloseBracketExpected: "expected ]",
  EndOfFileExpected: "unexpected text after the value",
  InvalidCommentToken: "comments are not allowed in JSON",
  UnexpectedEndOfComment: "unexpected end of comment",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unexpected end of number",
  InvalidUnicode: "invalid \\u escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "invalid character in a string",
};

function describe(code: string): string {
  return WORDS[code] ?? code;
}
