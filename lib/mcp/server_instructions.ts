/**
 * Issue #21 item 13: the `instructions` a server sends in its initialize result, as the model reads
 * them — in a section of the instructions next to that server's tools, the way Claude Code adds
 * "MCP Server Instructions" to its system prompt. Each server's text is capped: a server cannot
 * fill the context with a manual.
 */

/** Characters of one server's instructions the model gets; the rest is cut with a marker. */
export const MAX_SERVER_INSTRUCTIONS_CHARS = 2048;

export interface ServerInstructions {
  server: string;
  /** Already capped (see `capInstructions`). */
  text: string;
}

/** The text as sent: trimmed, and past the cap cut at a character with a marker saying so. */
export function capInstructions(text: string, max = MAX_SERVER_INSTRUCTIONS_CHARS): string {
  const trimmed = text.trim();
  const chars = [...trimmed];
  if (chars.length <= max) return trimmed;
  return `${chars.slice(0, max).join("")}… [${
    chars.length - max
  } more characters cut: server instructions are ` +
    `capped at ${max}]`;
}

export const SERVER_INSTRUCTIONS_HEADING = "# MCP Server Instructions";

/** The section appended to a step's instructions; empty when no server sent any. */
export function serverInstructionsSection(entries: readonly ServerInstructions[]): string {
  if (entries.length === 0) return "";
  return [
    SERVER_INSTRUCTIONS_HEADING,
    "",
    "The following MCP servers have provided instructions for how to use their tools and resources:",
    ...entries.flatMap((e) => ["", `## ${e.server}`, e.text]),
  ].join("\n");
}
