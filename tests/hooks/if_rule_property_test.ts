import assert from "node:assert/strict";
import fc from "fast-check";
import { judgeIfRule, parseIfRule } from "../../lib/hooks/mod.ts";

// Whatever a command line is, putting it behind a wrapper, into a `-c` string or into a compound
// command never hides an rm from an `if: "Bash(rm:*)"` guard (#20 item 8).

const rule = (() => {
  const parsed = parseIfRule("Bash(rm:*)");
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.rule;
})();
const fires = async (command: string) =>
  (await judgeIfRule(rule, { names: ["Bash"], input: { command }, cwd: "/", home: "/" })).matches;

/** Single quotes around anything, as a person (or a model) writes them. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

const word = fc.constantFrom("x", "-rf", "'a b'", '"c"', "$HOME", "*.o", "rm", "--");
const simple = fc.tuple(
  fc.constantFrom("rm", "/bin/rm", "ls", "echo", "grep", "rmdir"),
  fc.array(word, { maxLength: 3 }),
)
  .map(([name, args]) => [name, ...args].join(" "));
const line: fc.Arbitrary<string> = fc.letrec<{ line: string }>((tie) => ({
  line: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    simple,
    fc.tuple(tie("line"), fc.constantFrom(" && ", " || ", "; ", " | "), tie("line")).map(([a, op, b]) =>
      a + op + b
    ),
    tie("line").map((l) => `{ ${l}; }`),
    tie("line").map((l) => `(${l})`),
    tie("line").map((l) => `if true; then ${l}; fi`),
    tie("line").map((l) => `echo "$( ${l} )"`), // spaced: `$((` would be arithmetic
  ),
})).line;
const wrap = fc.constantFrom(
  (l: string) => `bash -c ${quote(l)}`,
  (l: string) => `sh -ec ${quote(l)}`,
  (l: string) => `sudo -u root bash -lc ${quote(l)}`,
  (l: string) => `env FOO=1 sh -c ${quote(l)}`,
  (l: string) => `timeout 5 bash -c ${quote(l)}`,
  (l: string) => `{ ${l}; }`,
  (l: string) => `for f in a; do ${l}; done`,
  (l: string) => `x=$( ${l} )`,
);

Deno.test("an rm stays visible to Bash(rm:*) through any wrapper, -c string or compound command", async () => {
  await fc.assert(
    fc.asyncProperty(line, wrap, async (l, w) => {
      if (await fires(l)) assert.equal(await fires(w(l)), true, `${l}  →  ${w(l)}`);
    }),
    { numRuns: 300 },
  );
});

Deno.test("a wrapper adds no rm: a line without one stays without one behind these wrappers", async () => {
  await fc.assert(
    fc.asyncProperty(line, wrap, async (l, w) => {
      if (!(await fires(l))) assert.equal(await fires(w(l)), false, `${l}  →  ${w(l)}`);
    }),
    { numRuns: 300 },
  );
});
