import type { Token, TokensList } from "marked";
import { memo } from "../shared/mod.ts";

/**
 * `@path` imports in a CLAUDE.md, as Claude Code finds them: a `@` at the start of the text or after
 * whitespace, then the path up to the next unescaped whitespace (`\ ` keeps a space), never inside
 * a code span or a code block. The Markdown is tokenized by `marked` — the lexer Claude Code uses
 * for the same job — so fences (``` and ~~~), indented code and multi-backtick spans are all known;
 * it is loaded only for a file that contains `@` at all.
 */
const IMPORT = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;

const loadLexer = memo(() => import("marked").then((m) => m.Lexer));

export async function findImports(markdown: string): Promise<string[]> {
  if (!markdown.includes("@")) return [];
  const Lexer = await loadLexer();
  const found: string[] = [];
  walk(Lexer.lex(markdown), found);
  return [...new Set(found)];
}

function walk(tokens: TokensList | Token[], found: string[]): void {
  for (const token of tokens) {
    if (token.type === "code" || token.type === "codespan" || token.type === "html") continue;
    const nested = token as { tokens?: Token[]; items?: Token[] };
    if (nested.tokens && nested.tokens.length > 0) walk(nested.tokens, found);
    else if (nested.items) walk(nested.items, found);
    else if (typeof (token as { text?: unknown }).text === "string") {
      for (const m of (token as { text: string }).text.matchAll(IMPORT)) {
        found.push(m[1].replaceAll("\\ ", " "));
      }
    }
  }
}
