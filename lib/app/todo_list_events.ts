/**
 * The plan tools' `plan.updated` events as Codex's `todo_list` item (#23 item 3, codex-rs/exec's
 * JSONL processor): the first update of a turn starts the item, each later one updates it (same
 * id), and the turn's end completes it just before `turn.completed` / `turn.failed`. A new turn
 * starts a new item.
 */
import type { EventSink, ThreadItem, TrellisEventBody } from "../shared/mod.ts";

type TodoList = ThreadItem & { type: "todo_list" };

export function withTodoListItems(sink: EventSink): EventSink {
  let current: TodoList | null = null;
  let count = 0;
  return (event: TrellisEventBody) => {
    if (event.type === "plan.updated") {
      const item: TodoList = {
        id: current?.id ?? `todo_list_${++count}`,
        type: "todo_list",
        items: event.plan.map((s) => ({
          text: s.step,
          completed: s.status === "completed",
          status: s.status,
        })),
        ...(event.explanation ? { explanation: event.explanation } : {}),
      };
      sink({ type: current ? "item.updated" : "item.started", item });
      current = item;
      return;
    }
    if ((event.type === "turn.completed" || event.type === "turn.failed") && current) {
      sink({ type: "item.completed", item: current });
      current = null;
    }
    sink(event);
  };
}
