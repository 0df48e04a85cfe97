import assert from "node:assert/strict";
import { readChoiceKey, terminalLineReader } from "../../lib/cli/terminal_answers.ts";
import type { TerminalIo } from "../../lib/platform/mod.ts";

/** A terminal whose input the test types; it records raw mode as the reader sets it. */
function terminal() {
  const handlers = new Set<(text: string) => void>();
  const raw: boolean[] = [];
  const io: TerminalIo = {
    setRawMode: (on) => void raw.push(on),
    size: () => ({ columns: 80, rows: 24 }),
    onResize: () => () => {},
    onInput(handler) {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },
    write: () => {},
    drain: () => Promise.resolve(),
  };
  const type = (text: string) => {
    for (const handler of [...handlers]) handler(text);
  };
  return { io, raw, type, listening: () => handlers.size };
}

const KEYS = ["y", "a", "n", "x"];

Deno.test("readChoiceKey() answers with the first choice key typed, in raw mode, and ignores the rest (#21 item 6)", async () => {
  const t = terminal();
  const answer = readChoiceKey(t.io, KEYS, { escape: "n", interrupt: "x" });
  t.type("m"); // `maybe` picks nothing by a letter that is no choice …
  t.type("Y"); // … a choice key answers at once, whatever its case
  t.type("es\r");
  assert.equal(await answer, "y");
  assert.deepStrictEqual(t.raw, [true, false]);
  assert.equal(t.listening(), 0);
});

Deno.test("readChoiceKey(): Esc says no, Ctrl-C stops the turn, Ctrl-D is no answer (#21 item 6)", async () => {
  for (const [typed, expected] of [["\x1b[A\x1b", "n"], ["\x03", "x"], ["\x04", null]] as const) {
    const t = terminal();
    const answer = readChoiceKey(t.io, KEYS, { escape: "n", interrupt: "x" });
    t.type(typed);
    assert.equal(await answer, expected, JSON.stringify(typed));
    assert.deepStrictEqual(t.raw, [true, false]);
  }
});

Deno.test("terminalLineReader() gives typed lines in any chunking, then null at the end of input", async () => {
  const t = terminal();
  const read = terminalLineReader(t.io);
  const first = read();
  t.type("Par");
  t.type("is\r\nLy");
  assert.equal(await first, "Paris");
  const second = read();
  t.type("on\n");
  assert.equal(await second, "Lyon");
  const end = read();
  t.type("\x04");
  assert.equal(await end, null);
  assert.deepStrictEqual(t.raw, []); // lines are read in cooked mode
});
