/**
 * #23 item 3 in the interactive mode: request_user_input answered in place (a choice, own words,
 * Esc dismissing), and the plan block — redrawn in the live region at each update, committed to the
 * scrollback when the turn ends.
 */
import assert from "node:assert/strict";
import { interactiveQuestioner } from "../../../lib/cli/interactive/user_input_form.ts";
import { EventView } from "../../../lib/cli/interactive/event_view.ts";
import { liveRegion } from "../../../lib/cli/interactive/live_view.ts";
import { LineBuffer } from "../../../lib/cli/interactive/line_buffer.ts";
import { FakeUi, key } from "./_fake_ui.ts";

const QUESTIONS = [
  {
    id: "db",
    header: "Database",
    question: "Which database should the service use?",
    options: [
      { label: "Postgres", description: "The team runs it already" },
      { label: "SQLite", description: "One file, no server" },
    ],
  },
  {
    id: "name",
    header: "Name",
    question: "What is the service called?",
    options: [{ label: "ledger", description: "The working name" }],
  },
];

const settle = () => new Promise((r) => setTimeout(r, 0));

Deno.test("request_user_input in the interactive mode: ↓ Enter picks a choice; 'Something else' takes typed words", async () => {
  const ui = new FakeUi();
  const answers = interactiveQuestioner(ui).ask(QUESTIONS, new AbortController().signal);
  await ui.answer(key("", { name: "down" }), key("\r", { name: "return" }));
  await settle();
  // Second question: the last entry lets the person type.
  await ui.answer(key("", { name: "down" }), key("\r", { name: "return" }));
  await settle();
  const q = await ui.question();
  for (const ch of "billing") q.key(key(ch));
  q.key(key("\r", { name: "return" }));
  assert.deepEqual(await answers, [{ id: "db", answer: "SQLite" }, { id: "name", answer: "billing" }]);
  const printed = ui.printed.join("\n");
  assert.match(
    printed,
    /\? Database\n {2}Which database should the service use\?\n {2}Postgres — The team runs it already/,
  );
  assert.match(printed, /✓ SQLite/);
  assert.match(printed, /✓ billing/);
});

Deno.test("request_user_input: Esc dismisses every question (null), and says so", async () => {
  const ui = new FakeUi();
  const answers = interactiveQuestioner(ui).ask(QUESTIONS, new AbortController().signal);
  await ui.answer(key("\x1b", { name: "escape" }));
  assert.equal(await answers, null);
  assert.match(ui.printed.join("\n"), /dismissed/);
});

Deno.test("the plan shows in the live region, redrawn in place at each update, and is committed when the turn ends", () => {
  const ui = new FakeUi();
  const view = new EventView(ui, () => undefined);
  const state = () =>
    liveRegion(ui, {
      busy: { label: "Working", started: performance.now() },
      view,
      editor: new LineBuffer(),
      question: null,
      queued: [],
      hint: [],
      footer: "",
      spinnerFrame: 0,
    }).rows.join("\n");
  const item = (completed: boolean[]) => ({
    id: "todo_list_1",
    type: "todo_list",
    items: [
      {
        text: "Read the config",
        completed: completed[0],
        status: completed[0] ? "completed" : "in_progress",
      },
      { text: "Fix the typo", completed: completed[1], status: completed[0] ? "in_progress" : "pending" },
    ],
  });
  view.handle({ type: "item.started", item: item([false, false]) });
  assert.match(state(), /Plan \(0\/2 done\)\n {2}\[>\] Read the config\n {2}\[ \] Fix the typo/);
  assert.deepEqual(ui.printed, []);
  view.handle({ type: "item.updated", item: item([true, false]) });
  const live = state();
  assert.match(live, /Plan \(1\/2 done\)\n {2}\[x\] Read the config\n {2}\[>\] Fix the typo/);
  assert.equal(live.match(/Plan \(/g)?.length, 1, "one block, updated in place");
  view.handle({ type: "item.completed", item: item([true, true]) });
  assert.doesNotMatch(state(), /Plan \(/);
  assert.match(
    ui.printed.join("\n"),
    /Plan \(2\/2 done\)\n {2}\[x\] Read the config\n {2}\[x\] Fix the typo/,
  );
});
