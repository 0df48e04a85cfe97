import { terminalText } from "../../shared/mod.ts";
import type { UserAnswer, UserQuestion, UserQuestioner } from "../../app/mod.ts";
import { listQuestion, textQuestion } from "./questions.ts";
import { wrap } from "./markdown_render.ts";
import type { Question, Ui } from "./ui.ts";

const OWN_WORDS = Symbol("own words");

/**
 * request_user_input answered in place (#23 item 3): each question is committed with its choices'
 * descriptions, then picked from a list (↑↓, Enter) whose last entry lets the person type their
 * own answer. Esc on any question dismisses them all (the model is told).
 */
export function interactiveQuestioner(ui: Ui): UserQuestioner {
  let queue: Promise<unknown> = Promise.resolve();
  const askAll = async (questions: UserQuestion[], signal: AbortSignal): Promise<UserAnswer[] | null> => {
    const c = ui.colors;
    const safe = (text: string) => terminalText(text, { lineBreaks: "show" });
    const asked = <T>(question: (done: (value: T) => void) => Question) =>
      new Promise<T>((resolve) => {
        const q = question(resolve);
        signal.addEventListener("abort", () => q.cancel(), { once: true });
        void ui.ask(q);
      });
    const answers: UserAnswer[] = [];
    for (const question of questions) {
      ui.print([
        c.bold(c.yellow(`? ${safe(question.header || "The model asks")}`)),
        ...wrap(safe(question.question), ui.width() - 4).map((l) => `  ${l}`),
        ...question.options.map((o) =>
          `  ${c.bold(safe(o.label))}${o.description ? c.dim(` — ${safe(o.description)}`) : ""}`
        ),
      ]);
      const picked = await asked<string | typeof OWN_WORDS | null>((done) =>
        listQuestion(ui, {
          title: safe(question.question).slice(0, ui.width() - 2),
          items: [
            ...question.options.map((o) => ({
              label: safe(o.label),
              value: o.label as string | typeof OWN_WORDS,
            })),
            { label: "Something else (type it)", value: OWN_WORDS },
          ],
        }, done)
      );
      if (signal.aborted || picked === null) {
        ui.print([c.yellow(`  ${ui.glyphs.fail} dismissed`)]);
        return null;
      }
      const answer = picked === OWN_WORDS
        ? await asked<string | null>((done) =>
          textQuestion(ui, {
            label: "Your answer",
            validate: (text) => text.trim() === "" ? "type an answer, or press esc to dismiss" : null,
          }, done)
        )
        : picked;
      if (signal.aborted || answer === null) {
        ui.print([c.yellow(`  ${ui.glyphs.fail} dismissed`)]);
        return null;
      }
      ui.print([c.green(`  ${ui.glyphs.ok} ${safe(answer)}`)]);
      answers.push({ id: question.id, answer });
    }
    return answers;
  };
  return {
    ask(questions, signal) {
      const next = queue.then(() => askAll(questions, signal));
      queue = next.catch(() => {});
      return next;
    },
  };
}
