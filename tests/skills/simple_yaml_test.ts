import assert from "node:assert/strict";
import fc from "fast-check";
import { parse as parseYaml } from "yaml";
import { parseSimpleYaml } from "../../lib/shared/simple_yaml.ts";

Deno.test("parseSimpleYaml() reads flat keys and one nested level, and declines everything else", () => {
  assert.deepStrictEqual(
    parseSimpleYaml("name: pdf\ndescription: Fill forms.\nmetadata:\n  short-description: PDF"),
    {
      name: "pdf",
      description: "Fill forms.",
      metadata: { "short-description": "PDF" },
    },
  );
  for (
    const declined of ["a: b: c", "a: 'q'", "a: 1", "a: true", "a: [x]", "a: x #c", "a: |\n  x", "a: x\na: y"]
  ) {
    assert.deepStrictEqual(parseSimpleYaml(declined), null, declined);
  }
});

Deno.test("parseSimpleYaml() agrees with the yaml package whenever it answers (property)", () => {
  const token = fc.constantFrom(
    "a",
    "B",
    "x1",
    "-",
    "_",
    ":",
    " ",
    "  ",
    "#",
    "'",
    '"',
    "true",
    "null",
    "1",
    "[",
    "{",
    "|",
    ">",
    "\t",
    "&",
    "*",
    "!",
    "é",
  );
  const text = fc.array(token, { maxLength: 8 }).map((t) => t.join(""));
  const line = fc.tuple(
    fc.constantFrom("", "", "  ", "    "),
    fc.constantFrom("name", "description", "metadata", "k-1"),
    text,
  )
    .map(([indent, key, value]) => `${indent}${key}:${value ? ` ${value}` : ""}`);
  fc.assert(
    fc.property(fc.array(line, { maxLength: 6 }), (lines) => {
      const yaml = lines.join("\n");
      const fast = parseSimpleYaml(yaml);
      if (fast === null) return;
      let slow: unknown;
      try {
        slow = parseYaml(yaml, { logLevel: "error" }) ?? {};
      } catch {
        assert.fail(`yaml rejects what the fast path accepted: ${JSON.stringify(yaml)}`);
      }
      assert.deepStrictEqual(fast, slow, JSON.stringify(yaml));
    }),
    { numRuns: 2000 },
  );
});
