import type { KeyEvent } from "./keys.ts";
import type { LiveRegion } from "./screen.ts";
import type { Glyphs, Palette, TerminalCaps } from "./style.ts";

/** Something waiting for an answer in the live region (an approval, a form field, a picker). */
export interface Question {
  /** The rows shown while it waits; its full text was committed above before it was asked. */
  view(width: number): LiveRegion;
  /** One key. */
  key(key: KeyEvent): void;
  /** Ends it without an answer (the session is closing, the turn was interrupted). */
  cancel(): void;
  /** Answered or cancelled: the UI takes it away. */
  readonly settled: boolean;
  /**
   * Ctrl-C as this question's own answer that stops the turn (an approval's "no, and stop the
   * turn"); without it, Ctrl-C cancels the question and the app stops the turn.
   */
  interrupt?: () => void;
  /**
   * After a one-key answer, the rest of the word that key begins (`es` after the `y` of `yes`):
   * the app swallows it, and the Enter after it, if typed next (#21 item 1).
   */
  readonly trailing?: string;
}

/** What the parts of the interactive mode draw with. */
export interface Ui {
  readonly caps: TerminalCaps;
  readonly colors: Palette;
  readonly glyphs: Glyphs;
  /** Terminal columns now. */
  width(): number;
  /** Commits finished lines (already terminal-safe and styled) to the scrollback. */
  print(lines: string[]): void;
  /** Shows `question` once those before it are answered; resolves when it is. */
  ask(question: Question): Promise<void>;
  /** Redraws soon. */
  refresh(): void;
}
