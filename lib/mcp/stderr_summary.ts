/**
 * Issue #21 item 14: the line of a dead server's stderr that says why. Its last line is usually a
 * stack frame or `Node.js v20.18.0`; the reason is the first line that reads as an error — Node's
 * `Error: …`, npm's `npm ERR!`, Python's exception after its `Traceback` frames — else the last line
 * that is not a frame.
 */

const ERROR_LINE =
  /(^|[\s:])([A-Z][A-Za-z]*(Error|Exception)\b|Error\b|error(\[[^\]]*\])?:|ERR!?\b|FATAL|[Ff]atal:|panic:|panicked at)/;
const TRACEBACK = /^Traceback \(most recent call last\)/;
/** `    at f (file:1:2)`, Python's `  File "x", line 3`, Go's `\tmain.go:12 +0x1d`, a caret line. */
const FRAME = /^\s+(at\s|File "|\S+:\d+)|^\s*\^+\s*$|^Node\.js v\d/;

export function stderrReason(text: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trimEnd()).filter((l) => l.trim() !== "");
  for (let i = 0; i < lines.length; i++) {
    if (!TRACEBACK.test(lines[i])) continue;
    // Python names the exception after the frames: the first unindented line that follows.
    const exception = lines.slice(i + 1).find((l) => !/^\s/.test(l));
    if (exception) return exception;
  }
  // An unindented error line first: Node prints the failing source line (indented) above its error.
  const error = lines.find((l) => !/^\s/.test(l) && ERROR_LINE.test(l)) ??
    lines.find((l) => ERROR_LINE.test(l) && !FRAME.test(l));
  if (error) return error.trim();
  return lines.findLast((l) => !FRAME.test(l))?.trim() ?? lines.at(-1)?.trim();
}
