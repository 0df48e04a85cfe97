import { terminalText } from "../../shared/mod.ts";
import stringWidth from "string-width";
import { layoutEditor } from "./editor_view.ts";
import type { KeyEvent } from "./keys.ts";
import { LineBuffer } from "./line_buffer.ts";
import type { LiveRegion } from "./screen.ts";
import type { Question, Ui } from "./ui.ts";

export interface Choice<T> {
  /** The key that picks it (a lower-case letter). */
  key: string;
  label: string;
  value: T;
}

/**
 * One key picks an answer: `[y] yes  [a] always …  [n] no`. Esc picks `onEscape`; Ctrl-C picks
 * `onInterrupt` when there is one (the app stops the turn otherwise). The question consumes every key
 * typed while it is open (#21 item 1): a choice's key answers at once, and the rest of its word
 * typed after it (`es⏎` of `yes⏎`) is left in `trailing` for the app to swallow; any other text is
 * collected as a word and answered with Enter — a choice's key or word (`yes`, `no`, `always`)
 * picks it, anything else (`maybe`) is refused in place. Nothing typed here reaches the prompt, and
 * a typed-ahead word never picks a choice by its middle letter.
 */
export function choiceQuestion<T>(
  ui: Ui,
  options: {
    title: string;
    choices: Choice<T>[];
    onEscape: T;
    onInterrupt?: T;
    /** The choices were printed whole just above: the question shows their keys only. */
    keysOnly?: boolean;
  },
  done: (value: T) => void,
): Question {
  const c = ui.colors;
  let settled = false;
  let typed = "";
  let refused: string | null = null;
  let trailing = "";
  const settle = (value: T) => {
    if (settled) return;
    settled = true;
    done(value);
  };
  const byWord = (word: string) =>
    options.choices.find((ch) => ch.key === word || answerWords(ch).includes(word));
  const keys = options.choices.map((ch) => ch.key).join(", ");
  return {
    view(width) {
      if (options.keysOnly) {
        const rows = [
          `${c.bold(options.title)} ${c.bold(c.cyan(`[${options.choices.map((ch) => ch.key).join("/")}]`))} ${
            c.dim("(the choices above)")
          }`,
        ];
        if (typed) rows.push(`  ${ui.glyphs.prompt}${terminalText(typed, { lineBreaks: "show" })}`);
        else if (refused !== null) {
          rows.push(
            c.red(`  "${terminalText(refused, { lineBreaks: "show" })}" is not an answer: press ${keys}`),
          );
        }
        return { rows };
      }
      const items = options.choices.map((choice) => `${c.bold(c.cyan(`[${choice.key}]`))} ${choice.label}`);
      const rows = [c.bold(options.title)];
      let row = " ";
      for (const item of items) {
        if (stringWidth(row + "  " + item) > width - 1 && row.trim()) {
          rows.push(row);
          row = " ";
        }
        row += " " + item;
      }
      rows.push(row);
      if (typed) rows.push(`  ${ui.glyphs.prompt}${terminalText(typed, { lineBreaks: "show" })}`);
      else if (refused !== null) {
        rows.push(
          c.red(`  "${terminalText(refused, { lineBreaks: "show" })}" is not an answer: press ${keys}`),
        );
      }
      rows.push(
        c.dim("  esc: " + (options.choices.find((ch) => ch.value === options.onEscape)?.label ?? "cancel")),
      );
      return { rows };
    },
    key(key) {
      if (settled) return;
      if (key.kind === "paste") {
        typed += key.text.replace(/\s+/g, " ");
        return;
      }
      if (key.name === "escape") return settle(options.onEscape);
      if (key.ctrl && key.name === "c") return settle(options.onInterrupt ?? options.onEscape);
      if (key.name === "return" || key.name === "enter") {
        const word = typed.trim().toLowerCase();
        typed = "";
        if (!word) return;
        const choice = byWord(word);
        if (choice) return settle(choice.value);
        refused = word;
        return;
      }
      if (key.name === "backspace") {
        typed = typed.slice(0, -1);
        return;
      }
      // deno-lint-ignore no-control-regex
      if (key.ctrl || key.meta || !key.text || /[\x00-\x1f\x7f]/.test(key.text)) return;
      refused = null;
      const choice = typed === ""
        ? options.choices.find((ch) => ch.key === key.text.toLowerCase())
        : undefined;
      if (!choice) {
        typed += key.text;
        return;
      }
      // The rest of the word its key begins (`es` of `yes`), which a person may go on typing.
      trailing = answerWords(choice).find((w) => w.startsWith(choice.key))?.slice(choice.key.length) ?? "";
      settle(choice.value);
    },
    cancel: () => settle(options.onEscape),
    interrupt: options.onInterrupt !== undefined ? () => settle(options.onInterrupt as T) : undefined,
    get settled() {
      return settled;
    },
    get trailing() {
      return trailing;
    },
  };
}

/** The words that name a choice when typed out: its label's first word, and yes/no for y/n. */
function answerWords<T>(choice: Choice<T>): string[] {
  const first = /^[a-z]+/.exec(choice.label.toLowerCase())?.[0];
  const words = first ? [first] : [];
  if (choice.key === "y") words.push("yes");
  if (choice.key === "n") words.push("no");
  return words;
}

/**
 * A line of text: the editing keys of the prompt, Enter submits once `validate` accepts (its
 * message shows under the field otherwise), Esc or Ctrl-C gives null.
 */
export function textQuestion(
  ui: Ui,
  options: { label: string; initial?: string; validate: (text: string) => string | null; hint?: string },
  done: (value: string | null) => void,
): Question {
  const buffer = new LineBuffer();
  if (options.initial) buffer.set(options.initial);
  let error: string | null = null;
  let settled = false;
  const settle = (value: string | null) => {
    if (settled) return;
    settled = true;
    done(value);
  };
  return {
    view(width): LiveRegion {
      const label = ui.colors.bold(terminalText(options.label, { lineBreaks: "show" }));
      const layout = layoutEditor(buffer, width - 1, { prompt: ui.glyphs.prompt, continuation: "  " });
      const tail = error
        ? [ui.colors.red(`  ${terminalText(error, { lineBreaks: "show" })}`)]
        : options.hint
        ? [ui.colors.dim(`  ${options.hint}`)]
        : [];
      return {
        rows: [label, ...layout.rows, ...tail],
        cursor: { row: layout.cursor.row + 1, column: layout.cursor.column },
      };
    },
    key(key) {
      if (key.kind === "paste") {
        buffer.insert(key.text.replace(/\n/g, " "));
        return;
      }
      if (key.name === "escape" || (key.ctrl && key.name === "c")) return settle(null);
      if (key.name === "return" || key.name === "enter") {
        error = options.validate(buffer.text);
        if (error === null) settle(buffer.text);
        return;
      }
      error = null;
      editKey(buffer, key);
    },
    cancel: () => settle(null),
    get settled() {
      return settled;
    },
  };
}

/** A list to pick from with the arrow keys; Enter picks, Esc gives null. */
export function listQuestion<T>(
  ui: Ui,
  options: { title: string; items: { label: string; value: T }[]; visible?: number },
  done: (value: T | null) => void,
): Question {
  let index = 0;
  let settled = false;
  const settle = (value: T | null) => {
    if (settled) return;
    settled = true;
    done(value);
  };
  const visible = options.visible ?? 10;
  return {
    view(width) {
      const c = ui.colors;
      const start = Math.max(0, Math.min(index - Math.floor(visible / 2), options.items.length - visible));
      const rows = [c.bold(options.title)];
      options.items.slice(start, start + visible).forEach((item, i) => {
        const chosen = start + i === index;
        const text = `${chosen ? ui.glyphs.prompt : "  "}${item.label}`;
        rows.push(chosen ? c.inverse(text.slice(0, width - 1)) : text);
      });
      rows.push(c.dim(`  ${index + 1}/${options.items.length} · ↑↓ move · enter: pick · esc: cancel`));
      return { rows };
    },
    key(key) {
      if (key.kind !== "key") return;
      if (key.name === "escape" || (key.ctrl && key.name === "c")) return settle(null);
      if (key.name === "up" || (key.ctrl && key.name === "p")) index = Math.max(0, index - 1);
      else if (key.name === "down" || (key.ctrl && key.name === "n")) {
        index = Math.min(options.items.length - 1, index + 1);
      } else if (key.name === "pageup") index = Math.max(0, index - visible);
      else if (key.name === "pagedown") index = Math.min(options.items.length - 1, index + visible);
      else if (key.name === "return" || key.name === "enter") settle(options.items[index]?.value ?? null);
    },
    cancel: () => settle(null),
    get settled() {
      return settled;
    },
  };
}

/** The editing keys shared by the prompt and text questions; false when the key is not one. */
export function editKey(buffer: LineBuffer, key: KeyEvent & { kind: "key" }): boolean {
  const { name, ctrl, meta } = key;
  if (ctrl) {
    switch (name) {
      case "a":
        buffer.lineStart();
        return true;
      case "e":
        buffer.lineEnd();
        return true;
      case "u":
        buffer.killToLineStart();
        return true;
      case "k":
        buffer.killToLineEnd();
        return true;
      case "w":
        buffer.killWordBack();
        return true;
      case "b":
      case "left":
        name === "b" ? buffer.left() : buffer.wordLeft();
        return true;
      case "f":
      case "right":
        name === "f" ? buffer.right() : buffer.wordRight();
        return true;
      case "h":
        buffer.backspace();
        return true;
      default:
        return false;
    }
  }
  if (meta) {
    if (name === "b" || name === "left") buffer.wordLeft();
    else if (name === "f" || name === "right") buffer.wordRight();
    else if (name === "backspace") buffer.killWordBack();
    else return false;
    return true;
  }
  switch (name) {
    case "backspace":
      buffer.backspace();
      return true;
    case "delete":
      buffer.deleteForward();
      return true;
    case "left":
      buffer.left();
      return true;
    case "right":
      buffer.right();
      return true;
    case "home":
      buffer.lineStart();
      return true;
    case "end":
      buffer.lineEnd();
      return true;
  }
  // deno-lint-ignore no-control-regex
  if (key.text && !/[\x00-\x1f\x7f]/.test(key.text)) {
    buffer.insert(key.text);
    return true;
  }
  return false;
}
