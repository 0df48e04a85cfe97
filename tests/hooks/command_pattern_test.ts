import assert from "node:assert/strict";
import { compileCommandRule, globMatches } from "../../lib/hooks/command_pattern.ts";
import { UNKNOWN } from "../../lib/hooks/command_wrappers.ts";

/** [certain, possible] for a rule against a command whose `?` stands for text known at run time. */
const judge = (specifier: string, command: string) => {
  const globs = compileCommandRule(specifier);
  const text = command.replaceAll("?", UNKNOWN);
  return (["certain", "possible"] as const).map((mode) => globs.some((g) => globMatches(g, text, mode)));
};

Deno.test("globMatches(): certain when the rule holds whatever the unknown text is, possible when some value would do", () => {
  const cases: [string, string, boolean[]][] = [
    ["rm:*", "rm x", [true, true]],
    ["rm:*", "rm ?", [true, true]],
    ["rm:*", "? x", [false, true]],
    ["rm:*", "r? x", [false, true]],
    ["rm:*", "rmdir x", [false, false]],
    ["rm:*", "ls ?", [false, false]],
    ["rm -rf:*", "rm ?", [false, true]],
    ["rm -rf:*", "rm -f ?", [false, false]],
    ["git *", "git ?", [true, true]],
    ["git *", "gi", [false, false]],
    ["* --version", "node ?", [false, true]],
    ["* --version", "node --version", [true, true]],
    ["npm test", "npm test", [true, true]],
    ["npm test", "npm  test", [false, false]],
    ["npm   test", "npm test", [true, true]],
    ["npm test", "npm ?", [false, true]],
  ];
  assert.deepStrictEqual(cases.map(([s, c]) => [s, c, judge(s, c)]), cases);
});
