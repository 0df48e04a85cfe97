import assert from "node:assert/strict";
import fc from "fast-check";
import { shellTokens, shellWord, singleQuoted } from "../../lib/shared/mod.ts";

Deno.test("shellWord leaves a plain word as written and quotes anything else; the shell reads back the same word", () => {
  assert.equal(shellWord("./run.sh"), "./run.sh");
  assert.equal(shellWord("a=b,c:d@e%f+g"), "a=b,c:d@e%f+g");
  assert.equal(shellWord("two words"), "'two words'");
  assert.equal(shellWord("it's"), "'it'\\''s'");
  assert.equal(shellWord("$HOME"), "'$HOME'");
  assert.equal(shellWord(""), "''");
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), (word) => {
      for (const quoted of [shellWord(word), singleQuoted(word)]) {
        const tokens = shellTokens(quoted);
        assert.deepStrictEqual(tokens.map((t) => t.kind === "word" ? t.text : t), [word], quoted);
      }
    }),
    { numRuns: 300 },
  );
});
