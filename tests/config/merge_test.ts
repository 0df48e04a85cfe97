import assert from "node:assert/strict";
import fc from "fast-check";
import { formatKeyPath, isTable } from "../../lib/config/mod.ts";
import { mergeInto } from "../../lib/config/merge.ts";

/** Every leaf's key path, as formatKeyPath writes it (what `config show` looks provenance up by). */
function leafPaths(table: Record<string, unknown>, prefix: string[] = []): string[] {
  return Object.entries(table).flatMap(([key, value]) =>
    isTable(value) ? leafPaths(value, [...prefix, key]) : [formatKeyPath([...prefix, key])]
  );
}

// Keys a config holds: bare ones, hook keys with `:` and `/`, dots, quotes, `.[`, spaces, empty.
const key = fc.oneof(
  fc.constantFrom(
    "model",
    "hooks",
    "state",
    "trusted_hash",
    "a-b_1",
    "",
    "x.y",
    'q"uote',
    "a.[0]",
    ". [",
    "[1]",
  ),
  fc.string({ maxLength: 6 }),
  fc.stringMatching(/^\/[a-z]{1,4}\/hooks\.json:PreToolUse:[0-9]:[0-9]$/),
);
const table: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  table: fc.dictionary(
    key.filter((k) => k !== "__proto__"),
    fc.oneof({ depthSize: "small" }, fc.string(), fc.integer(), fc.boolean(), tie("table")),
    { maxKeys: 4 },
  ),
})).table as fc.Arbitrary<Record<string, unknown>>;

Deno.test("mergeInto records each leaf under formatKeyPath's text of its path, the later layer's label winning", () => {
  fc.assert(
    fc.property(table, table, (first, second) => {
      const merged: Record<string, unknown> = {};
      const provenance = new Map<string, string>();
      mergeInto(merged, first, "first", provenance);
      mergeInto(merged, second, "second", provenance);
      const expected = new Map<string, string>();
      for (const p of leafPaths(first)) expected.set(p, "first");
      // A key that is a table in one layer and a value in the other: the value's path is set by it.
      for (const p of leafPaths(second)) expected.set(p, "second");
      for (const p of leafPaths(merged)) assert.ok(provenance.has(p), `no provenance for ${p}`);
      for (const [p, label] of provenance) {
        if (expected.has(p)) assert.equal(label, expected.get(p), p);
      }
    }),
    { numRuns: 400 },
  );
});

Deno.test("formatKeyPath: an index follows its key; a key holding `.[` is quoted whole, as written", () => {
  assert.equal(formatKeyPath(["mcp_servers", "docs", "args", 0]), "mcp_servers.docs.args[0]");
  assert.equal(formatKeyPath([0, "a"]), "[0].a");
  assert.equal(formatKeyPath(["a.[b", "c"]), '"a.[b".c');
  assert.equal(formatKeyPath([]), "");
});

Deno.test("mergeInto: a hook state key is quoted in its path; nested bare keys are dotted", () => {
  const provenance = new Map<string, string>();
  mergeInto(
    {},
    {
      model: "gpt-5",
      hooks: { state: { "/h/hooks.json:PreToolUse:0:1": { trusted_hash: "sha256:ab" } } },
      "a.[b": { c: 1 },
    },
    "user",
    provenance,
  );
  assert.deepEqual([...provenance], [
    ["model", "user"],
    ['hooks.state."/h/hooks.json:PreToolUse:0:1".trusted_hash', "user"],
    ['"a.[b".c', "user"],
  ]);
});
