import assert from "node:assert/strict";
import { PromptHistory } from "../../../lib/cli/interactive/history.ts";
import { platform } from "../../../lib/platform/mod.ts";

Deno.test("PromptHistory persists per project and walks back and forth, keeping the draft", async () => {
  const home = await Deno.makeTempDir();
  const first = await PromptHistory.open(platform.fs, home, "/projects/a");
  await first.add("one");
  await first.add("two");
  await first.add("two");
  await first.add("x".repeat(20_000));
  const again = await PromptHistory.open(platform.fs, home, "/projects/a");
  assert.deepEqual(again.entries, ["one", "two"], "repeats and pastes are not kept");
  assert.equal(again.previous("draft"), "two");
  assert.equal(again.previous("two"), "one");
  assert.equal(again.previous("one"), null);
  assert.equal(again.next(), "two");
  assert.equal(again.next(), "draft");
  const other = await PromptHistory.open(platform.fs, home, "/projects/b");
  assert.deepEqual(other.entries, []);
});
