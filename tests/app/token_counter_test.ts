import assert from "node:assert/strict";
import { countInPieces, ESTIMATE, loadTokenCounter } from "../../lib/app/token_counter.ts";
import { platform } from "../../lib/platform/mod.ts";

// The ledger's counts (#17 item 3): o200k_base for OpenAI families, a labelled estimate otherwise.

Deno.test("o200k_base counts a known string exactly (gpt-5, gpt-4o, gateway names)", async () => {
  for (const model of ["gpt-5", "gpt-4o-mini", "openai/gpt-5-codex"]) {
    const counter = await loadTokenCounter(model);
    assert.equal(counter.encoding, "o200k_base", model);
    assert.equal(counter.warning, undefined);
    // Hello | , | world | ! | The | quick | brown | fox | jumps | over | the | lazy | dog | .
    assert.equal(counter.count("Hello, world! The quick brown fox jumps over the lazy dog."), 14);
    assert.equal(counter.count("hello world"), 2);
    assert.equal(counter.count(""), 0);
  }
});

Deno.test("a model without a public tokenizer gets the estimate (characters / 4), without a warning", async () => {
  for (const model of ["claude-sonnet-4", "my-local-model", undefined]) {
    const counter = await loadTokenCounter(model);
    assert.equal(counter.encoding, "estimate");
    assert.equal(counter.warning, undefined);
    assert.equal(counter.count("x".repeat(10)), 3);
  }
});

Deno.test("bad input: a tokenizer module that cannot load falls back to the estimate with one warning naming the cause", async () => {
  const dir = await platform.fs.makeTempDir("trellis-tokenizer-");
  // A module that exists and throws while it loads, and one that does not exist: both real imports.
  const throwing = `${dir}/broken_tokenizer.mjs`;
  await platform.fs.writeTextFile(throwing, 'throw new Error("ranks file is corrupt");\n');
  const broken = await loadTokenCounter("gpt-5", () => import(`file://${throwing}`));
  assert.equal(broken.encoding, "estimate");
  assert.match(broken.warning!, /o200k_base tokenizer of gpt-5 failed to load \(.*ranks file is corrupt\)/);
  assert.equal(broken.count("abcdefgh"), 2);
  const missing = await loadTokenCounter("gpt-5", () => import(`file://${dir}/missing.mjs`));
  assert.equal(missing.encoding, "estimate");
  assert.match(missing.warning!, /failed to load \(.*missing\.mjs/);
  const noCount = `${dir}/no_count.mjs`;
  await platform.fs.writeTextFile(noCount, "export const encode = () => [];\n");
  assert.match(
    (await loadTokenCounter("gpt-5", () => import(`file://${noCount}`))).warning!,
    /no countTokens function/,
  );
});

Deno.test("counting in pieces gives the whole text's count when the text has word boundaries", async () => {
  const encoding = await import("gpt-tokenizer/encoding/o200k_base");
  // Numbers, commas, runs of spaces and indented lines: cutting at a space that is not between two
  // letters (inside "a   b", before "\n    ") would change the count here.
  const words = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "schema",
    "description",
    "the",
    "of",
    "record",
    "42",
    "x,",
  ];
  const seps = [" ", "   ", " ", "\n    ", " ", ", ", "  "];
  const text = Array.from({ length: 6000 }, (_, i) => words[(i * 7) % words.length] + seps[i % seps.length])
    .join("") + "end.";
  assert.ok(text.length > 40_000);
  assert.equal(countInPieces(text, encoding), encoding.countTokens(text));
});

Deno.test("bad input: a 1 MB run with no word boundary is counted, not left to the quadratic merge", async () => {
  const counter = await loadTokenCounter("gpt-5");
  const count = counter.count("x".repeat(1_000_000));
  // 'xxxxxxxx' is one token: 2,000-character pieces of 250 tokens each.
  assert.equal(count, 125_000);
  assert.equal(ESTIMATE.count("x".repeat(1_000_000)), 250_000);
});
