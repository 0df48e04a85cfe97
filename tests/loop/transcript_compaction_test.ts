import assert from "node:assert/strict";
import { SUMMARY_PREFIX, TranscriptStore } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { ConversationItem } from "../../lib/shared/mod.ts";

const user = (content: string): ConversationItem => ({ type: "message", role: "user", content });
const say = (content: string): ConversationItem => ({ type: "message", role: "assistant", content });
const summary = (text: string) => user(`${SUMMARY_PREFIX}\n\n${text}`);

async function store() {
  const dir = await platform.fs.makeTempDir("trellis-transcript-");
  return { dir, store: new TranscriptStore(platform.fs, dir) };
}

const meta = { id: "s1", created: "2025-01-01T00:00:00Z", cwd: "/w", model: "m" };

Deno.test("TranscriptStore.open() rebuilds the history from compactions where they were recorded (#15 item 6)", async () => {
  const { store: s } = await store();
  const t = await s.create({}, meta);
  await t.recordItem(user("one"));
  await t.recordItem({ type: "function_call", callId: "c1", name: "read_file", arguments: "{}" });
  await t.recordItem({ type: "function_call_output", callId: "c1", output: "long", status: "success" });
  await t.recordItem(say("first answer"));
  await t.recordTurn("s1-t1", "completed");
  await t.recordCompaction({
    strategy: "elide_tool_outputs",
    trigger: "auto",
    elided: [{ call_id: "c1", output: "[output elided]" }],
  });
  await t.recordItem(user("two"));
  await t.recordCompaction({
    strategy: "summary",
    trigger: "manual",
    message: "S",
    replacement_history: [user("one"), user("two"), summary("S")],
  });
  await t.recordTurn("s1-t2", "completed");
  await t.recordItem(user("three"));
  await t.recordTurn("s1-t3", "completed");
  const running = [...t.items];
  await t.close();
  assert.deepEqual(running, [user("one"), user("two"), summary("S"), user("three")]);

  const resumed = await s.open("s1");
  assert.deepEqual(resumed.items, running);
  // The turn before the summary is outside what a resume parses, and still numbers the next turn.
  assert.equal(resumed.recordedTurns, 3, "turn numbering counts turns before a compaction too");
});

Deno.test("TranscriptStore.open() of a transcript whose compaction line was cut short (kill -9) resumes the history from before it", async () => {
  const { dir, store: s } = await store();
  const t = await s.create({}, meta);
  for (const item of [user("one"), say("a1"), user("two"), say("a2")]) await t.recordItem(item);
  await t.close();
  const line = JSON.stringify({
    type: "compacted",
    strategy: "summary",
    trigger: "auto",
    message: "S",
    replacement_history: [user("two"), summary("S")],
  });
  const file = `${dir}/s1.jsonl`;
  await platform.fs.appendTextFile(file, line.slice(0, line.length - 20)); // no newline: cut mid-line

  const resumed = await s.open("s1");
  assert.deepEqual(resumed.items, [user("one"), say("a1"), user("two"), say("a2")]);
  // What the resumed session records next starts a line of its own and survives the next resume.
  await resumed.recordItem(user("three"));
  await resumed.close();
  const again = await s.open("s1");
  assert.deepEqual(again.items, [user("one"), say("a1"), user("two"), say("a2"), user("three")]);
});

Deno.test("TranscriptStore.open() skips a compaction line it cannot apply, as it skips a torn one", async () => {
  const { dir, store: s } = await store();
  const t = await s.create({}, meta);
  await t.recordItem(user("one"));
  await t.close();
  await platform.fs.appendTextFile(
    `${dir}/s1.jsonl`,
    `${JSON.stringify({ type: "compacted", strategy: "summary", trigger: "auto", message: "S" })}\n`,
  );
  assert.deepEqual((await s.open("s1")).items, [user("one")]);
});

Deno.test("TranscriptStore.open() falls back to the last complete summary when a later one was cut short", async () => {
  const { dir, store: s } = await store();
  const t = await s.create({}, meta);
  await t.recordItem(user("one"));
  await t.recordTurn("s1-t1", "completed");
  await t.recordCompaction({
    strategy: "summary",
    trigger: "auto",
    message: "S1",
    replacement_history: [user("one"), summary("S1")],
  });
  await t.recordItem(user("two"));
  await t.recordItem(say("a2"));
  const expected = [...t.items];
  await t.close();
  const torn = JSON.stringify({
    type: "compacted",
    strategy: "summary",
    trigger: "auto",
    message: "S2",
    replacement_history: [user("two"), summary("S2")],
  });
  await platform.fs.appendTextFile(`${dir}/s1.jsonl`, torn.slice(0, -5));
  const resumed = await s.open("s1");
  assert.deepEqual(resumed.items, expected);
  assert.deepEqual(resumed.items, [user("one"), summary("S1"), user("two"), say("a2")]);
  assert.equal(resumed.recordedTurns, 1);
});
