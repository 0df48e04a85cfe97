import * as path from "node:path";
import type { FileSystem } from "../../platform/mod.ts";
import { digestHex } from "../../platform/mod.ts";

const MAX_ENTRIES = 1_000;
/** Longer prompts (pastes) are not kept: history is for what was typed. */
const MAX_ENTRY_CHARS = 10_000;

/**
 * Prompt history of one project, as JSON lines in `$TRELLIS_HOME/history/<project>.jsonl` (the
 * project root's hash names the file), newest last, at most 1,000 entries; Up/Down walk it.
 */
export class PromptHistory {
  #entries: string[] = [];
  #index = 0;
  #draft = "";

  private constructor(private readonly fs: FileSystem, readonly file: string) {}

  static async open(fs: FileSystem, home: string, projectRoot: string): Promise<PromptHistory> {
    const name = digestHex("sha256", projectRoot).slice(0, 16);
    const history = new PromptHistory(fs, path.join(home, "history", `${name}.jsonl`));
    const text = await fs.readTextFile(history.file).catch(() => "");
    for (const line of text.split("\n")) {
      try {
        const entry = JSON.parse(line);
        if (typeof entry?.text === "string") history.#entries.push(entry.text);
      } catch {
        // a torn line
      }
    }
    history.#entries = history.#entries.slice(-MAX_ENTRIES);
    history.#index = history.#entries.length;
    return history;
  }

  get entries(): readonly string[] {
    return this.#entries;
  }

  /** Records a submitted prompt (not a repeat of the last one) and rewinds to the end. */
  async add(text: string): Promise<void> {
    this.#index = this.#entries.length;
    this.#draft = "";
    if (!text.trim() || text.length > MAX_ENTRY_CHARS || this.#entries.at(-1) === text) return;
    this.#entries.push(text);
    this.#index = this.#entries.length;
    try {
      await this.fs.mkdir(path.dirname(this.file));
      if (this.#entries.length > MAX_ENTRIES * 2) {
        this.#entries = this.#entries.slice(-MAX_ENTRIES);
        this.#index = this.#entries.length;
        await this.fs.writeFileAtomic(this.file, this.#entries.map(line).join(""), { mode: 0o600 });
      } else await this.fs.appendTextFile(this.file, line(text));
    } catch {
      // History is a convenience: a read-only home must not break the session.
    }
  }

  /** The previous entry (saving `current` as the draft when leaving it); null at the oldest. */
  previous(current: string): string | null {
    if (this.#index === 0) return null;
    if (this.#index === this.#entries.length) this.#draft = current;
    return this.#entries[--this.#index];
  }

  /** The next entry, or the saved draft past the newest; null when already there. */
  next(): string | null {
    if (this.#index >= this.#entries.length) return null;
    this.#index++;
    return this.#index === this.#entries.length ? this.#draft : this.#entries[this.#index];
  }
}

function line(text: string): string {
  return JSON.stringify({ text, ts: Math.floor(Date.now() / 1000) }) + "\n";
}
