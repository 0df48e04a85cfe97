import assert from "node:assert/strict";
import { closestWord } from "../../lib/shared/mod.ts";

const COMMANDS = ["exec", "mcp", "config", "doctor", "hooks", "plugin", "resume", "import"];

Deno.test("closestWord() suggests a command one edit or one swap away (#21 item 11)", () => {
  assert.deepStrictEqual(closestWord("exce", COMMANDS), "exec"); // neighbours swapped
  assert.deepStrictEqual(closestWord("mpc", COMMANDS), "mcp");
  assert.deepStrictEqual(closestWord("doctr", COMMANDS), "doctor"); // one deleted
  assert.deepStrictEqual(closestWord("hookss", COMMANDS), "hooks"); // one inserted
  assert.deepStrictEqual(closestWord("plugon", COMMANDS), "plugin"); // one substituted
});

Deno.test("closestWord() stays quiet for ordinary words, exact names, short words and ties", () => {
  assert.deepStrictEqual(closestWord("confirm", COMMANDS), undefined); // two edits from config
  assert.deepStrictEqual(closestWord("exit", COMMANDS), undefined); // two edits from exec
  assert.deepStrictEqual(closestWord("exec", COMMANDS), undefined);
  assert.deepStrictEqual(closestWord("mc", ["mc", "mcp"]), undefined);
  assert.deepStrictEqual(closestWord("ab", ["abc"]), undefined);
  assert.deepStrictEqual(closestWord("cat", ["bat", "cap"]), undefined); // two equally close
  assert.deepStrictEqual(closestWord("xecs", ["exec"]), undefined); // a swap plus a change
});
