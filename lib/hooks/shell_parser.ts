/**
 * The Bash parser an `if` rule reads command lines with (#20 item 8): unbash, loaded on first use.
 *
 * Why this one, of the parsers on npm that run on Deno and Bun (measured on the 2-core machine,
 * bench/RESULTS.md section if_rule for the chosen one):
 * - unbash 6 (chosen): GNU Bash 5.3 syntax, plain TypeScript with no dependency, no WebAssembly,
 *   no native addon, so nothing to embed: Bun bundles it into dist/trellis like any module. A typed
 *   syntax tree with quote removal done per word part, `$(…)`, backticks, process substitutions and
 *   unquoted here-doc bodies parsed as nested scripts, and syntax errors listed per script (`fi`
 *   where no `if` is open is one). Released all through 2026 (6.0.4 in November); permission
 *   checks are a use it is written for. 100 KB minified: dist/trellis grows by 0.38 MB (126.87 →
 *   127.25 MB, with bytecode); importing it takes ~0.5 ms in dist/trellis (~3 ms under `deno
 *   run`), parsing a typical command line ~0.02 ms, judging a line with three wrappers and a
 *   `bash -lc` string ~0.04 ms (~3.5× shell-quote's tokenizing of it, which read `if` lines before).
 * - web-tree-sitter 0.27 + tree-sitter-bash 0.25 (tried first): maintained, a full tree, but
 *   1.57 MB of wasm to embed (dist/trellis +1.04 MB), ~30–40 ms to instantiate, slower (~0.1 ms)
 *   parses, and it reads `ls; fi` as a command named `fi` without an error. Claude Code uses its
 *   native addon, which cannot load from a Bun single-file binary at all; the wasm runtime's init
 *   has been reported to trap under Bun on linux/arm64.
 * - sh-syntax (mvdan/sh as TinyGo wasm, 750 KB): maintained, but its syntax tree stops at each
 *   statement's position (`Cmd` carries no words), so it cannot say which command runs; it also
 *   starts a fresh Go instance for every parse (~1.5 ms each).
 * - mvdan-sh (GopherJS): a full tree, but built with Go 1.17 and no longer released; 1.5 MB of
 *   JavaScript (270 KB gzipped) that costs ~95 ms to load.
 * - bash-parser: POSIX sh only (no `[[`, arrays, here-strings), last released in 2017 (its fork,
 *   @ericcornelissen/bash-parser, is archived), 17 dependencies.
 */
import type { ParsedScript, SyntaxNode } from "unbash";

export type { ParsedScript, SyntaxNode };

export interface BashParser {
  parse(source: string): ParsedScript;
  /** Calls `visit` for each direct child of `node` (nested scripts of substitutions included). */
  forEachChild(node: SyntaxNode, visit: (child: SyntaxNode) => void): void;
}

let loading: Promise<BashParser> | undefined;

/**
 * The parser, imported on first use (a command line with an `if` rule to judge), so a run without
 * one never loads it; a failed import is retried on the next call.
 */
export function loadBashParser(): Promise<BashParser> {
  return loading ??= import("unbash").then(
    ({ parse, forEachChild }) => ({ parse, forEachChild }),
    (error) => {
      loading = undefined;
      throw error;
    },
  );
}
