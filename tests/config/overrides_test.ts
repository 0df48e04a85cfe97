import assert from "node:assert/strict";
import fc from "fast-check";
import { parse as parseToml } from "smol-toml";
import { parseOverride } from "../../lib/config/mod.ts";

/** Codex's rule, stated directly: the value parsed as TOML, else the string itself. */
function reference(raw: string): unknown {
  const value = raw.trim();
  try {
    return (parseToml(`v = ${value}`) as { v: unknown }).v;
  } catch {
    return value;
  }
}

const SAMPLES = [
  "gpt-5",
  "o3",
  "true",
  "false",
  "inf",
  "nan",
  "true # a comment",
  "trueish",
  "inf2",
  "True",
  "1",
  "-1.5",
  "+inf",
  "2024-01-01",
  '"quoted"',
  "'literal'",
  "[1, 2]",
  "{ a = 1 }",
  "a b",
  "x#y",
  "true\nx = 1",
  "",
];

Deno.test("-c values: TOML when they parse, else the string (a bare word skips the parser)", () => {
  for (const raw of SAMPLES) {
    assert.deepEqual(parseOverride(`k=${raw}`).k, reference(raw), JSON.stringify(raw));
  }
});

Deno.test("-c values: the fast path agrees with parsing on arbitrary strings", () => {
  const word = fc.constantFrom("true", "false", "inf", "nan", "gpt", "t", "x");
  const value = fc.oneof(
    fc.string(),
    fc.tuple(word, fc.string()).map(([w, rest]) => w + rest),
  );
  fc.assert(
    fc.property(value, (raw) => {
      assert.deepEqual(parseOverride(`k=${raw}`).k, reference(raw));
    }),
    { numRuns: 2000 },
  );
});

// #16 item 7: `-c` keys are TOML dotted keys read by smol-toml; unquoted keys TOML refuses split at
// dots as Codex splits them.
Deno.test("parseOverride() reads the key as a TOML dotted key: quotes, escapes and literal strings keep their dots", () => {
  assert.deepEqual(parseOverride(`projects."/a.b".trust_level=trusted`), {
    projects: { "/a.b": { trust_level: "trusted" } },
  });
  assert.deepEqual(parseOverride(`a."b\\"c.d".e=1`), { a: { 'b"c.d': { e: 1 } } });
  assert.deepEqual(parseOverride(`a.'x\\y'.z=1`), { a: { "x\\y": { z: 1 } } });
  assert.deepEqual(parseOverride(`mcp_servers . docs . enabled = false`), {
    mcp_servers: { docs: { enabled: false } },
  });
  assert.deepEqual(parseOverride(`plugins.demo@test.enabled=false`), {
    plugins: { "demo@test": { enabled: false } },
  });
  for (const bad of [`a..b=1`, `"a.b=1`, `.a=1`, `a."b=1`]) {
    assert.throws(() => parseOverride(bad), /Cannot parse config key/, bad);
  }
});
