import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";

/** Model-visible hook text above this many approximate tokens is spilled to a file (HK-15). */
export const HOOK_TEXT_TOKEN_BUDGET = 2500;

const BYTES_PER_TOKEN = 4;

export function approxTokens(text: string): number {
  return Math.ceil(new TextEncoder().encode(text).length / BYTES_PER_TOKEN);
}

export interface SpillOptions {
  fs: FileSystem;
  /** `$TRELLIS_HOME`; files go to `<home>/hook_outputs/<thread>/<uuid>.txt`. */
  home: string;
  threadId: string;
  maxTokens?: number;
}

/**
 * Codex's output spill: a text over budget is saved in full and replaced by a head/tail preview
 * plus the saved path, the footer counted in the budget. If the write fails, plain truncation.
 */
export async function spillHookText(text: string, options: SpillOptions): Promise<string> {
  const maxTokens = options.maxTokens ?? HOOK_TEXT_TOKEN_BUDGET;
  if (approxTokens(text) <= maxTokens) return text;
  const file = path.join(options.home, "hook_outputs", options.threadId, `${crypto.randomUUID()}.txt`);
  let footer = "";
  try {
    await options.fs.writeFileAtomic(file, text);
    footer = `\n\nFull hook output saved to: ${file}`;
  } catch {
    // fall back to truncation alone
  }
  return truncateMiddle(text, maxTokens * BYTES_PER_TOKEN - footer.length) + footer;
}

/** `Warning: truncated output …` header, then the head and tail around a "…N tokens truncated…" marker. */
export function truncateMiddle(text: string, maxChars: number): string {
  const lines = text.split("\n").length;
  const header = `Warning: truncated output (original token count: ${approxTokens(text)})\n` +
    `Total output lines: ${lines}\n\n`;
  const room = Math.max(0, maxChars - header.length - 40);
  const headLength = Math.ceil(room / 2);
  const tailLength = Math.floor(room / 2);
  const middle = text.slice(headLength, text.length - tailLength);
  return `${header}${text.slice(0, headLength)}…${approxTokens(middle)} tokens truncated…` +
    text.slice(text.length - tailLength);
}
