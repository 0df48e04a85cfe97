import assert from "node:assert/strict";
import fc from "fast-check";
import { type CompiledMatcher, compileMatcher, matcherMatches } from "../../lib/hooks/mod.ts";

function compiled(raw: string | undefined): CompiledMatcher {
  const result = compileMatcher(raw);
  if (!result.ok) throw new Error(result.error);
  return result.matcher;
}

Deno.test("matcherMatches() follows the HK-1/HK-7 rules of acceptance candidate 11", () => {
  const cases: [string | undefined, string[], boolean][] = [
    ["Edit|Write", ["Edit"], true],
    ["Edit|Write", ["Bash"], false],
    ["Bash", ["BashOutput"], false],
    ["^Bash", ["BashOutput"], true],
    ["mcp__memory", ["mcp__memory__x"], false],
    ["mcp__memory__.*", ["mcp__memory__x"], true],
    ["*", ["anything"], true],
    ["", ["anything"], true],
    [undefined, ["anything"], true],
    ["Bash", ["shell", "Bash"], true],
  ];
  const results = cases.map(([raw, values]) => matcherMatches(compiled(raw), values));
  assert.deepStrictEqual(results, cases.map(([, , expected]) => expected));
});

Deno.test("compileMatcher() reports the regex engine's message when the regex is invalid", () => {
  assert.deepStrictEqual(compileMatcher("["), {
    ok: false,
    error: "Invalid regular expression: /[/: Unterminated character class",
  });
  assert.deepStrictEqual(compileMatcher("Bash("), {
    ok: false,
    error: "Invalid regular expression: /Bash(/: Unterminated group",
  });
});

Deno.test("matcherMatches() treats word-only matchers as exact alternatives when fuzzed (HK-7)", () => {
  const word = fc.stringMatching(/^[A-Za-z0-9_]{1,8}$/);
  fc.assert(fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), word, (names, candidate) => {
    const matches = matcherMatches(compiled(names.join("|")), [candidate]);
    assert.deepStrictEqual(matches, names.includes(candidate));
  }));
});
