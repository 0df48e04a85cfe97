import assert from "node:assert/strict";
import { EventView } from "../../../lib/cli/interactive/event_view.ts";
import { loadMarkdownLibraries } from "../../../lib/cli/interactive/markdown_libraries.ts";
import { replayLines } from "../../../lib/cli/interactive/replay.ts";
import { noTtyApprover, runTurn, TranscriptStore } from "../../../lib/loop/mod.ts";
import { platform } from "../../../lib/platform/mod.ts";
import { catalogOf, hooksWith } from "../../loop/_fakes.ts";
import { FakeUi } from "./_fake_ui.ts";

/** One turn into a real transcript whose answer is interrupted after `streamed`, then reopened. */
async function interruptedSession(streamed: string) {
  const dir = await platform.fs.makeTempDir("trellis-replay-");
  const store = new TranscriptStore(platform.fs, dir);
  const transcript = await store.create({}, {
    id: "s1",
    created: "2026-12-01T00:00:00Z",
    cwd: "/w",
    model: "m",
  });
  const controller = new AbortController();
  const model = {
    stream(_request: unknown, signal: AbortSignal) {
      return (async function* () {
        if (streamed) yield { type: "text_delta" as const, delta: streamed };
        controller.abort(); // Esc while the answer streams
        if (!signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve));
        throw new Error("the request was aborted");
      })();
    },
  };
  const result = await runTurn({
    turnId: "t1",
    model,
    modelName: "m",
    instructions: "",
    history: [],
    prompt: "explain the build",
    injected: [],
    captureTools: catalogOf([]),
    hooks: hooksWith({}),
    hookContext: { sessionId: "s1", cwd: "/w", model: "m", permissionMode: "default", transcriptPath: null },
    approver: noTtyApprover,
    approvalPolicy: "on-request",
    events: () => {},
    record: (item) => transcript.recordItem(item),
    maxSteps: 3,
    signal: controller.signal,
    cwd: "/w",
  });
  assert.equal(result.status, "aborted");
  await transcript.close();
  const resumed = await store.open("s1");
  await resumed.close();
  await platform.fs.remove(dir, { recursive: true });
  const ui = new FakeUi();
  const view = new EventView(ui, () => undefined);
  view.libraries = await loadMarkdownLibraries(ui.colors, false);
  return replayLines(ui, resumed.items, view);
}

Deno.test("the replay of a resumed session shows an answer interrupted mid-stream (#21 item 3)", async () => {
  const lines = await interruptedSession("The build has **two** stages: first");
  assert.deepStrictEqual(lines.slice(1, -2), [
    "› explain the build",
    "",
    "The build has two stages: first",
    "",
  ]);
});

Deno.test("the replay shows only the prompt when the turn was interrupted before any text (#21 item 3)", async () => {
  const lines = await interruptedSession("");
  assert.deepStrictEqual(lines.slice(1, -2), ["› explain the build", ""]);
});
