import assert from "node:assert/strict";
import { closestWord } from "../../../lib/shared/mod.ts";

const COMMANDS = ["status", "skills", "model", "mcp", "diff", "help", "hooks"];

Deno.test("closestWord: one edit away (swap, drop, add, change) names the command", () => {
  assert.equal(closestWord("stauts", COMMANDS), "status");
  assert.equal(closestWord("statu", COMMANDS), "status");
  assert.equal(closestWord("statuss", COMMANDS), "status");
  assert.equal(closestWord("diff", COMMANDS), undefined, "the word itself is no suggestion");
  assert.equal(closestWord("dif", COMMANDS), "diff");
});

Deno.test("closestWord: two edits away, or two candidates one edit away, is no suggestion", () => {
  assert.equal(closestWord("sutats", COMMANDS), undefined);
  assert.equal(closestWord("zzzz", COMMANDS), undefined);
  assert.equal(closestWord("ab", ["ac", "ad"]), undefined);
});
