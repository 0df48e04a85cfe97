import { glyphs, palette } from "../../../lib/cli/interactive/style.ts";
import type { KeyEvent } from "../../../lib/cli/interactive/keys.ts";
import type { Question, Ui } from "../../../lib/cli/interactive/ui.ts";

/** A Ui that records what is printed and lets a test answer questions with keys. */
export class FakeUi implements Ui {
  readonly caps;
  readonly colors;
  readonly glyphs;
  printed: string[] = [];
  questions: Question[] = [];
  #waiters: (() => void)[] = [];

  constructor(options: { color?: boolean; unicode?: boolean; width?: number } = {}) {
    this.caps = { color: options.color ?? false, unicode: options.unicode ?? true };
    this.colors = palette(this.caps);
    this.glyphs = glyphs(this.caps);
    this.widthValue = options.width ?? 80;
  }

  widthValue: number;

  width(): number {
    return this.widthValue;
  }

  print(lines: string[]): void {
    this.printed.push(...lines);
  }

  ask(question: Question): Promise<void> {
    this.questions.push(question);
    for (const w of this.#waiters.splice(0)) w();
    return Promise.resolve();
  }

  refresh(): void {}

  /** Waits until a question is pending, then returns the current one. */
  async question(): Promise<Question> {
    while (!this.questions.some((q) => !q.settled)) await new Promise<void>((r) => this.#waiters.push(r));
    return this.questions.find((q) => !q.settled)!;
  }

  /** Types keys into the current question. */
  async answer(...keys: (string | KeyEvent)[]): Promise<void> {
    const q = await this.question();
    for (const k of keys) q.key(typeof k === "string" ? key(k) : k);
  }
}

export function key(
  text: string,
  mods: Partial<{ name: string; ctrl: boolean; meta: boolean }> = {},
): KeyEvent {
  const name = mods.name ?? (text === "\r" ? "return" : /^[a-z]$/.test(text) ? text : undefined);
  return { kind: "key", name, text, ctrl: mods.ctrl ?? false, meta: mods.meta ?? false, shift: false };
}
