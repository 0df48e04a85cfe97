// deno-lint-ignore-file no-control-regex
import assert from "node:assert/strict";
import type { TerminalIo } from "../../../lib/platform/mod.ts";
import { fit, type LiveRegion, Screen } from "../../../lib/cli/interactive/screen.ts";
import { asciiOnly } from "../../../lib/cli/interactive/style.ts";

function fakeTerminal(size = { columns: 40, rows: 10 }) {
  const writes: string[] = [];
  const terminal: TerminalIo = {
    setRawMode() {},
    size: () => size,
    onResize: () => () => {},
    onInput: () => () => {},
    write: (text) => void writes.push(text),
    drain: () => Promise.resolve(),
  };
  return { terminal, writes, size };
}

Deno.test("Screen writes committed lines once and redraws only the live region", () => {
  const { terminal, writes } = fakeTerminal();
  let live: LiveRegion = { rows: ["status", "", "› hi"], cursor: { row: 2, column: 4 } };
  const screen = new Screen(terminal, () => live);
  screen.commit(["first", "second"]);
  screen.draw();
  assert.match(writes[0], /\x1b\[Jfirst\r\nsecond\r\nstatus\r\n\r\n› hi\r\x1b\[4C/);
  assert.doesNotMatch(writes[0], /\x1b\[\d+A\x1b\[J/, "the first frame starts where the cursor is");
  live = { rows: ["", "› hi!"], cursor: { row: 1, column: 5 } };
  screen.draw();
  // Back up to the live region's first row (the cursor was on its third), clear, redraw.
  assert.match(writes[1], /\r\x1b\[2A\x1b\[J\r?\n?› ?/);
  assert.doesNotMatch(writes[1], /first|second/, "committed text is never written again");
  assert.match(writes[1], /› hi!\r\x1b\[5C/);
});

Deno.test("Screen keeps the live region below the screen height and rows within the width", () => {
  const { terminal, writes } = fakeTerminal({ columns: 20, rows: 5 });
  const rows = Array.from({ length: 8 }, (_, i) => `row ${i} ${"x".repeat(30)}`);
  const screen = new Screen(terminal, () => ({ rows }));
  screen.draw();
  const drawn = writes[0].replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").split("\r\n").map((r) =>
    r.replace(/\r/g, "")
  );
  assert.equal(drawn.length, 4, "at most rows - 1");
  assert.ok(drawn.every((r) => r.length <= 19));
  assert.equal(drawn[0].startsWith("row 4"), true, "the bottom rows are kept");
});

Deno.test("Screen.resized() counts the rows the terminal re-wrapped above the cursor", () => {
  const { terminal, writes, size } = fakeTerminal({ columns: 40, rows: 10 });
  const screen = new Screen(
    terminal,
    () => ({ rows: ["a".repeat(30), "b".repeat(30), "› "], cursor: { row: 2, column: 2 } }),
  );
  screen.draw();
  size.columns = 20;
  screen.resized();
  assert.match(writes[1], /\x1b\[4A\x1b\[J/, "two 30-column rows take two 20-column rows each");
});

Deno.test("fit() cuts by display width and keeps escape sequences whole", () => {
  assert.equal(fit("abcdef", 4), "abcd\x1b[0m");
  assert.equal(fit("\x1b[1mab\x1b[0mcd", 3), "\x1b[1mab\x1b[0mc\x1b[0m");
  assert.equal(fit("日本語", 4), "日本\x1b[0m");
  assert.equal(fit("short", 10), "short");
});

Deno.test("Screen in ASCII mode writes nothing outside ASCII", () => {
  const { terminal, writes } = fakeTerminal();
  const screen = new Screen(terminal, () => ({ rows: ["› ok ✓"] }), { ascii: true });
  screen.commit(["café"]);
  screen.draw();
  assert.doesNotMatch(writes[0], /[^\x00-\x7f]/);
  assert.match(writes[0], /caf\?/);
});

Deno.test("asciiOnly: the shared sanitizer's control pictures print as caret notation on an ASCII terminal (#15 item 3)", () => {
  assert.equal(
    asciiOnly("a␛[2J b␍ c␡ café ✓ \x1b[1mbold\x1b[0m"),
    "a^[[2J b^M c^? caf? ? \x1b[1mbold\x1b[0m",
  );
  assert.equal(asciiOnly("0s · 12 in… —"), "0s | 12 in... -");
});
