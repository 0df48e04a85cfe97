import assert from "node:assert/strict";
import { loadBashParser } from "../../lib/hooks/shell_parser.ts";
import {
  BASH_GRAMMAR_WASM_SHA256,
  TREE_SITTER_WASM_SHA256,
} from "../../lib/hooks/_bash_parser_wasm.generated.ts";

const sha256 = async (file: string) => {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await Deno.readFile(file)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
};

Deno.test("the inlined parser wasm is the installed packages' (run `deno task gen` after an upgrade)", async () => {
  const modules = new URL("../../node_modules/", import.meta.url).pathname;
  assert.deepStrictEqual(
    [
      await sha256(`${modules}web-tree-sitter/web-tree-sitter.wasm`),
      await sha256(`${modules}tree-sitter-bash/tree-sitter-bash.wasm`),
    ],
    [TREE_SITTER_WASM_SHA256, BASH_GRAMMAR_WASM_SHA256],
  );
});

Deno.test("loadBashParser() parses from the inlined wasm, once per process, and marks syntax errors", async () => {
  const parser = await loadBashParser();
  assert.equal(await loadBashParser(), parser);
  const read = (line: string) =>
    parser.read(line, (root) => [root.type, root.hasError, root.children.length]);
  assert.deepStrictEqual(read("ls && { rm x; }"), ["program", false, 1]);
  assert.deepStrictEqual(read("if true; then rm"), ["program", true, 1]);
});
