import assert from "node:assert/strict";
import { sampleStep } from "../../lib/loop/sampling.ts";
import type { ModelStreamEvent, TrellisEventBody } from "../../lib/shared/mod.ts";
import { emptyUsage } from "../../lib/shared/mod.ts";

function modelSaying(events: ModelStreamEvent[]) {
  return {
    stream: async function* () {
      for (const event of events) yield event;
    },
  };
}

const request = { model: "m", instructions: "", input: [], tools: [], parallelToolCalls: true };

Deno.test("sampleStep() emits each piece of the answer once as a delta, and the whole text once at the end (#13)", async () => {
  const events: TrellisEventBody[] = [];
  let n = 0;
  const answer = "Hello there";
  const usage = { ...emptyUsage(), outputTokens: 2 };
  const step = await sampleStep(
    modelSaying([
      { type: "text_delta", delta: "Hello " },
      { type: "text_delta", delta: "there" },
      { type: "item_done", item: { type: "message", role: "assistant", content: answer } },
      { type: "completed", usage },
    ]),
    request,
    {
      signal: new AbortController().signal,
      events: (e) => void events.push(e),
      nextItemId: () => `item_${n++}`,
    },
  );
  assert.deepEqual(events, [
    { type: "item.started", item: { id: "item_0", type: "agent_message", text: "" } },
    { type: "item.agent_message.delta", item_id: "item_0", delta: "Hello " },
    { type: "item.agent_message.delta", item_id: "item_0", delta: "there" },
    { type: "item.completed", item: { id: "item_0", type: "agent_message", text: answer } },
  ]);
  assert.deepEqual(step, { items: [{ type: "message", role: "assistant", content: answer }], usage });
});
