/**
 * The Bash parser an `if` rule reads command lines with (#20 item 8): tree-sitter's runtime
 * (web-tree-sitter) with the tree-sitter-bash grammar, both WebAssembly, both inlined gzipped in
 * `_bash_parser_wasm.generated.ts` (scripts/gen_bash_parser_wasm.ts) so dist/trellis stays one file.
 *
 * Why this one, of the parsers on npm that run on Deno and Bun (measured on the 2-core machine):
 * - web-tree-sitter 0.27 + tree-sitter-bash 0.25 (chosen): both maintained by the tree-sitter
 *   project, the grammar is the one Claude Code reads Bash commands with, a full syntax tree
 *   (compound commands, substitutions, here-doc bodies, function bodies), errors marked in the tree.
 *   1.57 MB of wasm, 260 KB gzipped (~350 KB in the binary as base64); loading ~45 ms once per
 *   process, on the first `if` rule judged against a command (nothing else pays it); a parse of a
 *   typical command line ~0.1 ms.
 * - sh-syntax (mvdan/sh as TinyGo wasm, 750 KB): maintained, but its syntax tree stops at each
 *   statement's position (`Cmd` carries no words), so it cannot say which command runs; it also
 *   starts a fresh Go instance for every parse (~1.5 ms each).
 * - mvdan-sh (GopherJS): a full tree, but built with Go 1.17 and no longer released; 1.5 MB of
 *   JavaScript (270 KB gzipped) that costs ~95 ms to load, ~0.15 ms a parse.
 * - bash-parser: POSIX sh only (no `[[`, arrays, here-strings), last released in 2017 (a fork,
 *   @ericcornelissen/bash-parser, keeps it alive), 17 dependencies.
 *
 * tree-sitter recovers from syntax errors; the caller reads `hasError` and judges such a line
 * as unreadable rather than trust the recovered tree.
 */
import {
  BASH_GRAMMAR_WASM_GZIP_BASE64,
  TREE_SITTER_WASM_GZIP_BASE64,
} from "./_bash_parser_wasm.generated.ts";

/** The part of a tree-sitter node the command reader uses: valid only inside `BashParser.read`. */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly isMissing: boolean;
  readonly isError: boolean;
  readonly hasError: boolean;
  readonly startPosition: { row: number; column: number };
  readonly children: (SyntaxNode | null)[];
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): (SyntaxNode | null)[];
}

export interface BashParser {
  /** Parses `source` and hands its root to `read`; the tree is freed when `read` returns. */
  read<T>(source: string, read: (root: SyntaxNode) => T): T;
}

let loading: Promise<BashParser> | undefined;

/** The parser, instantiated once per process (a failed load is retried on the next call). */
export function loadBashParser(): Promise<BashParser> {
  return loading ??= instantiate().catch((error) => {
    loading = undefined;
    throw error;
  });
}

async function instantiate(): Promise<BashParser> {
  const { Parser, Language } = await import("web-tree-sitter");
  const [runtime, grammar] = await Promise.all([
    gunzip(fromBase64(TREE_SITTER_WASM_GZIP_BASE64)),
    gunzip(fromBase64(BASH_GRAMMAR_WASM_GZIP_BASE64)),
  ]);
  // `wasmBinary` keeps Emscripten from looking for web-tree-sitter.wasm beside the script.
  await Parser.init({ wasmBinary: runtime } as Parameters<typeof Parser.init>[0]);
  const parser = new Parser();
  parser.setLanguage(await Language.load(grammar));
  return {
    read(source, read) {
      const tree = parser.parse(source);
      if (!tree) throw new Error("the Bash parser returned no tree");
      try {
        return read(tree.rootNode as unknown as SyntaxNode);
      } finally {
        tree.delete();
      }
    },
  };
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BufferSource]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
