import { splitQuotedWords } from "../shared/mod.ts";

/**
 * Claude Code's argument placeholders in a command body: `$ARGUMENTS` (the whole rest of the line),
 * `$ARGUMENTS[N]` (0-based) and `$1`, `$2`… (1-based), positional arguments split like a shell line
 * (quotes group words). A body with no placeholder gets the arguments appended as
 * `ARGUMENTS: …`, as Claude Code does, so nothing the user typed is lost. Pure.
 */
const PLACEHOLDER = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)/g;

export function expandCommandBody(body: string, args: string): string {
  // `"a b"` and `'a b'` are one word each, without their quotes.
  const positional = splitQuotedWords(args);
  let used = false;
  const expanded = body.replace(PLACEHOLDER, (_match, index?: string, position?: string) => {
    used = true;
    if (index !== undefined) return positional[Number(index)] ?? "";
    if (position !== undefined) return positional[Number(position) - 1] ?? "";
    return args;
  });
  if (used || args === "") return expanded;
  return `${expanded.replace(/\n*$/, "")}\n\nARGUMENTS: ${args}\n`;
}
