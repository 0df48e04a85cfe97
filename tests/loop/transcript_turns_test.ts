import assert from "node:assert/strict";
import { transcriptTurns } from "../../lib/loop/mod.ts";

// #25 item 2: turns as `/rewind` and `trellis rewind --to N` count them, from a transcript's lines.
const line = (v: unknown) => JSON.stringify(v) + "\n";
const user = (content: string) => line({ type: "item", item: { type: "message", role: "user", content } });
const dev = (content: string) =>
  line({ type: "item", item: { type: "message", role: "developer", content } });
const turn = (n: number) => line({ type: "turn", turn_id: `s-t${n}`, status: "completed" });
const header = line({ type: "session_meta", meta: { id: "s" } });

Deno.test("transcript turns: numbered from 1 by their turn lines; a torn line and a compaction do not shift them", () => {
  const text = header + user("a") + turn(1) + '{"type":"item","ite\n' + user("b") +
    line({ type: "compacted", strategy: "summary", trigger: "auto", message: "s", replacement_history: [] }) +
    turn(2) + user("c") + turn(3);
  const turns = transcriptTurns(text);
  assert.deepEqual(turns.map((t) => [t.turn, t.userMessages, t.ended]), [
    [1, ["a"], true],
    [2, ["b"], true],
    [3, ["c"], true],
  ]);
  // Cutting at a turn's start leaves exactly the turns before it.
  assert.deepEqual(transcriptTurns(text.slice(0, turns[2].start)).map((t) => t.turn), [1, 2]);
  assert.equal(text.slice(0, turns[0].start), header);
});

Deno.test("transcript turns: a crash after a prompt is a turn; a resume's context with no prompt is none", () => {
  assert.deepEqual(transcriptTurns(header + user("a") + turn(1) + user("b")).map((t) => [t.turn, t.ended]), [
    [1, true],
    [2, false],
  ]);
  assert.deepEqual(transcriptTurns(header + user("a") + turn(1) + dev("hook context")).map((t) => t.turn), [
    1,
  ]);
  assert.deepEqual(transcriptTurns(""), []);
});
