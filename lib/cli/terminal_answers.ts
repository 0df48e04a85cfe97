/**
 * Answers read from the process's terminal for `exec` (#21 item 6): one key picks a choice, as in
 * the interactive mode, and lines (MCP forms) come through the same terminal reader, so the two
 * never compete for stdin (under Deno one reader holds it for the process's life).
 */
import type { TerminalIo } from "../platform/mod.ts";
import { KeyDecoder } from "./interactive/keys.ts";

/**
 * Waits in raw mode for one of `keys` (lower-case letters): any other key is ignored, Esc picks
 * `escape`, Ctrl-C picks `interrupt` (stop the turn, as at the session's questions), Ctrl-D gives
 * null (no answer). The terminal's line discipline is back before it resolves.
 */
export function readChoiceKey(
  terminal: TerminalIo,
  keys: string[],
  options: { escape?: string; interrupt?: string } = {},
): Promise<string | null> {
  return new Promise((resolve) => {
    let settled = false;
    const decoder = new KeyDecoder((key) => {
      if (settled || key.kind !== "key") return;
      if (key.ctrl && key.name === "c") return finish(options.interrupt ?? null);
      if (key.ctrl && key.name === "d") return finish(null);
      if (key.name === "escape" && options.escape !== undefined) return finish(options.escape);
      const typed = key.text.toLowerCase();
      if (!key.ctrl && !key.meta && keys.includes(typed)) finish(typed);
    });
    terminal.setRawMode(true);
    const off = terminal.onInput((text) => decoder.feed(text));
    function finish(value: string | null) {
      settled = true;
      off();
      decoder.close();
      terminal.setRawMode(false);
      resolve(value);
    }
  });
}

/** Lines typed on the terminal (cooked mode), through its one reader; null once input ends. */
export function terminalLineReader(terminal: TerminalIo): () => Promise<string | null> {
  let buffer = "";
  return () =>
    new Promise((resolve) => {
      const take = (): boolean => {
        // deno-lint-ignore no-control-regex
        const end = buffer.search(/\r?\n|\r|\x04/);
        if (end < 0) return false;
        const eof = buffer[end] === "\x04" && end === 0;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
        off?.();
        resolve(eof ? null : line);
        return true;
      };
      // deno-lint-ignore prefer-const
      let off: (() => void) | undefined;
      if (take()) return;
      off = terminal.onInput((text) => {
        buffer += text;
        take();
      });
    });
}
