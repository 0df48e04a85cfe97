import assert from "node:assert/strict";
import { closestWord } from "../../../lib/cli/interactive/closest_word.ts";

const COMMANDS = ["status", "skills", "model", "mcp", "diff", "help", "hooks"];

Deno.test("closestWord: one edit away (swap, drop, add, change) names the command", () => {
  assert.equal(closestWord("stauts", COMMANDS), "status");
  assert.equal(closestWord("statu", COMMANDS), "status");
  assert.equal(closestWord("statuss", COMMANDS), "status");
  assert.equal(closestWord("diff", COMMANDS), null, "the word itself is no suggestion");
  assert.equal(closestWord("dif", COMMANDS), "diff");
});

Deno.test("closestWord: two edits away, or two candidates one edit away, is no suggestion", () => {
  assert.equal(closestWord("sutats", COMMANDS), null);
  assert.equal(closestWord("zzzz", COMMANDS), null);
  assert.equal(closestWord("ab", ["ac", "ad"]), null);
});
