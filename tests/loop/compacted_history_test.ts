import assert from "node:assert/strict";
import {
  applyCompaction,
  buildReplacementHistory,
  truncateMiddle,
} from "../../lib/loop/compacted_history.ts";
import { ContextMeter, estimateRequestTokens } from "../../lib/loop/context_meter.ts";
import { SUMMARY_PREFIX } from "../../lib/loop/compaction_prompt.ts";
import { elideOldToolOutputs } from "../../lib/loop/tool_output_elision.ts";
import { emptyUsage } from "../../lib/shared/mod.ts";
import type { ConversationItem } from "../../lib/shared/mod.ts";

const user = (content: string): ConversationItem => ({ type: "message", role: "user", content });
const dev = (content: string): ConversationItem => ({ type: "message", role: "developer", content });
const summary = (text: string) => user(`${SUMMARY_PREFIX}\n\n${text}`);

Deno.test("buildReplacementHistory() keeps the newest user messages within the budget, truncating the one that crosses it, then the summary", () => {
  const history: ConversationItem[] = [
    user("a".repeat(400)), // 100 tokens: does not fit whole
    { type: "message", role: "assistant", content: "done" },
    user("<skill>\n<name>x</name>"), // a skill body, not the user's words
    user('<hook_prompt hook_run_id="r">go on</hook_prompt>'),
    summary("an earlier summary"),
    user("b".repeat(200)), // 50 tokens
    user("c".repeat(40)), // 10 tokens
  ];
  const built = buildReplacementHistory({ history, summary: "S", budget: 80 });
  assert.deepEqual(built, [
    user(`${"a".repeat(40)}\n…80 tokens truncated…\n${"a".repeat(40)}`),
    user("b".repeat(200)),
    user("c".repeat(40)),
    summary("S"),
  ]);
});

Deno.test("buildReplacementHistory() puts context blocks before the last user message and the turn's skill bodies after it", () => {
  const history = [user("first"), user("second")];
  const built = buildReplacementHistory({
    history,
    summary: "S",
    budget: 100,
    beforeLastUser: [dev("<skills_instructions>…")],
    afterLastUser: [user("<skill>\nbody")],
  });
  assert.deepEqual(built, [
    user("first"),
    dev("<skills_instructions>…"),
    user("second"),
    user("<skill>\nbody"),
    summary("S"),
  ]);
  assert.deepEqual(buildReplacementHistory({ history: [], summary: "S", budget: 100 }), [summary("S")]);
});

Deno.test("truncateMiddle() keeps head and tail within the budget and says how much it cut", () => {
  assert.equal(truncateMiddle("short", 10), "short");
  assert.equal(truncateMiddle("0123456789abcdef", 2), "0123\n…2 tokens truncated…\ncdef");
});

function turns(n: number, outputChars = 1000): ConversationItem[] {
  return Array.from({ length: n }, (_, i) => i + 1).flatMap((i): ConversationItem[] => [
    user(`q${i}`),
    { type: "function_call", callId: `c${i}`, name: "read_file", arguments: "{}" },
    { type: "function_call_output", callId: `c${i}`, output: "x".repeat(outputChars), status: "success" },
    { type: "function_call", callId: `small${i}`, name: "ls", arguments: "{}" },
    { type: "function_call_output", callId: `small${i}`, output: "tiny", status: "success" },
  ]);
}

Deno.test("elideOldToolOutputs() elides large outputs before the last N user turns only, and nothing with N = 0", () => {
  const { record, savedTokens } = elideOldToolOutputs(turns(4), { keepTurns: 2, trigger: "auto" });
  assert.deepEqual(record.elided.map((e) => e.call_id), ["c1", "c2"]);
  assert.equal(
    record.elided[0].output,
    "[output elided: read_file returned 1000 characters here; they were removed to save context. Call the tool again if you need them.]",
  );
  assert.ok(savedTokens > 400, String(savedTokens));
  assert.deepEqual(elideOldToolOutputs(turns(4), { keepTurns: 0, trigger: "auto" }).record.elided, []);
  assert.deepEqual(elideOldToolOutputs(turns(2), { keepTurns: 2, trigger: "auto" }).record.elided, []);
  // Already elided outputs are not elided again.
  const once = applyCompaction(turns(4), record);
  assert.deepEqual(elideOldToolOutputs(once, { keepTurns: 2, trigger: "auto" }).record.elided, []);
});

Deno.test("applyCompaction() replaces the history (summary) or only the elided outputs, dropping their parts", () => {
  const history: ConversationItem[] = [
    user("q"),
    {
      type: "function_call_output",
      callId: "c",
      output: "big",
      status: "success",
      content: [{ type: "image", mimeType: "image/png", data: "AAAA" }],
    },
  ];
  assert.deepEqual(
    applyCompaction(history, {
      strategy: "elide_tool_outputs",
      trigger: "auto",
      elided: [{ call_id: "c", output: "gone" }],
    }),
    [user("q"), { type: "function_call_output", callId: "c", output: "gone", status: "success" }],
  );
  const replacement = [summary("S")];
  const applied = applyCompaction(history, {
    strategy: "summary",
    trigger: "manual",
    message: "S",
    replacement_history: replacement,
  });
  assert.deepEqual(applied, replacement);
  assert.notEqual(applied, replacement, "a copy: the record stays as written");
});

Deno.test("ContextMeter counts the model's last report plus items since, and estimates before any report", () => {
  const meter = new ContextMeter();
  const estimate = () =>
    estimateRequestTokens({ instructions: "x".repeat(40), input: [user("y".repeat(40))] });
  assert.equal(meter.tokens(estimate), 10 + 4 + 10);
  meter.sampled({ ...emptyUsage(), inputTokens: 1000, outputTokens: 50 });
  meter.add(user("z".repeat(400)));
  assert.equal(meter.tokens(estimate), 1050 + 104);
  meter.sampled(emptyUsage()); // a provider that reports nothing changes nothing
  assert.equal(meter.tokens(estimate), 1154);
  meter.reset();
  assert.equal(meter.tokens(estimate), 24);
});
