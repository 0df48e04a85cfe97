import { isTypedPrompt } from "../../app/mod.ts";
import { type ConversationItem, terminalText } from "../../shared/mod.ts";
import type { EventView } from "./event_view.ts";
import { wrap } from "./markdown_render.ts";
import type { Ui } from "./ui.ts";

/** Messages shown again when a session resumes (the last ones; the rest is in the transcript). */
const REPLAYED = 10;
const PROMPT_LINES = 3;

/**
 * The end of a resumed conversation, so the person sees where it stands: the last prompts they
 * typed (a few lines each; never the injected AGENTS.md/CLAUDE.md message) and answers (rendered as
 * they were, a partial one too), and the calls that were aborted or denied, as Codex replays them.
 */
export function replayLines(ui: Ui, items: readonly ConversationItem[], view: EventView): string[] {
  const names = new Map<string, string>();
  for (const item of items) if (item.type === "function_call") names.set(item.callId, item.name);
  const shown = items.filter((item) =>
    (item.type === "message" &&
      (item.role === "assistant" || (item.role === "user" && isTypedPrompt(item.content)))) ||
    (item.type === "function_call_output" && (item.status === "aborted" || item.status === "denied"))
  ).slice(-REPLAYED);
  const out: string[] = [
    ui.colors.dim(`${ui.glyphs.rule.repeat(3)} the conversation so far (last ${shown.length} messages)`),
  ];
  const collect: string[] = [];
  for (const item of shown) {
    if (item.type === "function_call_output") {
      const name = terminalText(names.get(item.callId) ?? "call", { lineBreaks: "show" });
      out.push(ui.colors.yellow(`${ui.glyphs.fail} ${name} · ${item.status}`), "");
      continue;
    }
    if (item.type !== "message") continue;
    if (item.role === "user") {
      const lines = wrap(terminalText(item.content, { tabWidth: 2 }), ui.width() - 3);
      out.push(
        ...lines.slice(0, PROMPT_LINES).map((l, i) =>
          ui.colors.bold(`${i === 0 ? ui.glyphs.prompt : "  "}${l}`)
        ),
      );
      if (lines.length > PROMPT_LINES) {
        out.push(ui.colors.dim(`  ${ui.glyphs.ellipsis} ${lines.length - PROMPT_LINES} more lines`));
      }
      out.push("");
    } else {
      collect.length = 0;
      view.renderStatic(item.content, (lines) => collect.push(...lines));
      out.push(...collect, "");
    }
  }
  out.push(ui.colors.dim(`${ui.glyphs.rule.repeat(3)} continue below`), "");
  return out;
}
