import { EventEmitter } from "node:events";
import { emitKeypressEvents } from "node:readline";

/** One key as node:readline names it (`return`, `up`, `c` with ctrl …), or a whole paste. */
export type KeyEvent =
  | { kind: "key"; name: string | undefined; text: string; ctrl: boolean; meta: boolean; shift: boolean }
  | { kind: "paste"; text: string };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
/** How long a read ending in part of a paste marker waits for the rest before it counts as keys. */
const CARRY_MS = 25;

/**
 * Turns terminal input into keys with node:readline's decoder (escape sequences, Alt, a lone Esc
 * after its 500 ms timeout), except bracketed pastes, which are cut out first and delivered whole.
 *
 * Hand-written part: the paste framing (~30 lines). Measured here: 1 MB through
 * `emitKeypressEvents` costs 440 ms under Deno and 640 ms under Bun (one event per character, so a
 * 5 MB paste would hold the UI for seconds), and Deno's port does not recognise the 200~/201~
 * markers at all (it yields `\x1b[200` and a stray `~`).
 */
export class KeyDecoder {
  #keys = new EventEmitter();
  #carry = "";
  #paste: string[] | null = null;
  #flush: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly onKey: (key: KeyEvent) => void) {
    // deno-lint-ignore no-explicit-any
    emitKeypressEvents(this.#keys as any);
    this.#keys.on("keypress", (text: string | undefined, key: Record<string, unknown> | undefined) => {
      this.onKey({
        kind: "key",
        name: typeof key?.name === "string" ? key.name : undefined,
        text: text ?? "",
        ctrl: key?.ctrl === true,
        meta: key?.meta === true,
        shift: key?.shift === true,
      });
    });
  }

  /** Input as read from the terminal, in any chunking. */
  feed(chunk: string): void {
    clearTimeout(this.#flush);
    let text = this.#carry + chunk;
    this.#carry = "";
    while (text.length > 0) {
      const marker = this.#paste ? PASTE_END : PASTE_START;
      const at = text.indexOf(marker);
      if (at < 0) {
        const keep = partialMarker(text, marker);
        this.#deliver(text.slice(0, text.length - keep));
        this.#carry = text.slice(text.length - keep);
        // A lone Esc at the end of a read is a key, unless the rest of a paste marker follows at once.
        if (this.#carry && !this.#paste) this.#flush = setTimeout(() => this.#flushCarry(), CARRY_MS);
        return;
      }
      this.#deliver(text.slice(0, at));
      text = text.slice(at + marker.length);
      if (this.#paste) {
        const pasted = this.#paste.join("");
        this.#paste = null;
        this.onKey({ kind: "paste", text: pasted.replace(/\r\n?/g, "\n") });
      } else this.#paste = [];
    }
  }

  #flushCarry(): void {
    const carry = this.#carry;
    this.#carry = "";
    this.#deliver(carry);
  }

  /** Stops the pending flush timer (the UI is closing). */
  close(): void {
    clearTimeout(this.#flush);
  }

  #deliver(text: string): void {
    if (!text) return;
    if (this.#paste) this.#paste.push(text);
    else this.#keys.emit("data", text);
  }
}

/** Length of the longest suffix of `text` that begins `marker` (a marker cut between two reads). */
function partialMarker(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (marker.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
