import assert from "node:assert/strict";
import { loadBashParser } from "../../lib/hooks/shell_parser.ts";

Deno.test("loadBashParser() loads unbash once per process, and lists a script's syntax errors", async () => {
  const parser = await loadBashParser();
  assert.equal(await loadBashParser(), parser);
  assert.deepStrictEqual(parser.parse("ls && { rm x; }").errors, undefined);
  assert.deepStrictEqual(parser.parse("if true; then rm").errors, [{
    message: "expected 'fi' to close 'if'",
    pos: 16,
  }]);
});
