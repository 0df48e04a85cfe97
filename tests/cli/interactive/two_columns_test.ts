import assert from "node:assert/strict";
import { twoColumns } from "../../../lib/cli/interactive/two_columns.ts";
import { FakeUi } from "./_fake_ui.ts";

// #21 item 6: /help wraps to the width with its second column aligned; /skills cuts with an ellipsis.
Deno.test("twoColumns wraps each text under itself, aligned after the widest name, within the width", () => {
  const ui = new FakeUi({ width: 50 });
  const lines = twoColumns(ui, [
    { name: "/help", text: "list the slash commands" },
    { name: "/compact [TEXT]", text: "compact the conversation now, keeping what you name" },
  ], { mode: "wrap" });
  for (const line of lines) assert.ok(line.length <= 49, `too wide: ${JSON.stringify(line)}`);
  const column = "  /compact [TEXT]  ".length;
  assert.equal(lines[0], "  /help".padEnd(column) + "list the slash commands");
  assert.equal(lines.length, 3, "the long text wrapped once");
  for (const line of lines.slice(2)) {
    assert.match(line, new RegExp(`^ {${column}}\\S`), "continuations aligned");
  }
});

Deno.test("twoColumns in cut mode ends a long text with an ellipsis, a short one untouched", () => {
  const ui = new FakeUi({ width: 30 });
  const [long, short] = twoColumns(ui, [
    { name: "$a", text: "x".repeat(100) },
    { name: "$b", text: "short" },
  ], { mode: "cut" });
  assert.equal(long.length, 29);
  assert.ok(long.endsWith("…"));
  assert.equal(short, "  $b  short");
});
