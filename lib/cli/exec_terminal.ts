/**
 * What `exec` prints through, and the terminal around it: the JSONL or human event printer, the
 * status line when stderr is a terminal (human mode only), and the platform the session's prompts
 * (approvals, MCP forms) use, which hides the status line while a person is asked something.
 */
import type { Platform } from "../platform/mod.ts";
import type { EventSink } from "../shared/mod.ts";
import type { CliContext } from "./context.ts";
import { humanEventPrinter, jsonEventPrinter } from "./event_printer.ts";
import { type StatusLine, terminalStatusLine } from "./status_line.ts";
import { readChoiceKey, terminalLineReader } from "./terminal_answers.ts";

export interface ExecTerminal {
  /** Where the session reports; silent once stdout's reader has gone (exit quietly, #13). */
  events: EventSink;
  /** The platform for the session: prompts on it pause the status line. */
  platform: Platform;
  /** Stops the status line (its timer would keep the process alive). */
  close(): void;
  /**
   * One key from the terminal, as the session's questions take it (#21 item 6); absent when no
   * person answers here (stdin is no terminal, or it gave the prompt).
   */
  readKey?: (keys: string[], options: { escape?: string; interrupt?: string }) => Promise<string | null>;
}

/**
 * `answers`: a person answers on this terminal (stdin is one and did not give the prompt). Then
 * keys and lines (MCP forms) both come through the platform's terminal reader.
 */
export function execTerminal(ctx: CliContext, options: { json: boolean; answers?: boolean }): ExecTerminal {
  const status = !options.json && ctx.platform.isTerminal("stderr") ? statusLineFor(ctx) : undefined;
  const printer = options.json ? jsonEventPrinter(ctx) : humanEventPrinter(ctx, { status });
  const tty = options.answers ? ctx.platform.terminal() : undefined;
  let platform = ctx.platform;
  if (tty) {
    platform = Object.create(ctx.platform) as Platform;
    platform.readLine = terminalLineReader(tty);
  }
  return {
    events: (event) => {
      if (!ctx.stdoutClosed.aborted) printer(event);
    },
    platform: status ? pausingPlatform(platform, status) : platform,
    close: () => status?.stop(),
    ...(tty
      ? {
        readKey: async (keys: string[], keyOptions: { escape?: string; interrupt?: string }) => {
          status?.pause();
          try {
            return await readChoiceKey(tty, keys, keyOptions);
          } finally {
            status?.resume();
          }
        },
      }
      : {}),
  };
}

function statusLineFor(ctx: CliContext): StatusLine {
  const env = ctx.platform.env;
  const locale = env("LC_ALL") || env("LC_CTYPE") || env("LANG") || "";
  return terminalStatusLine({
    write: (text) => ctx.platform.writeStderr(text),
    flushed: () => ctx.flush(),
    utf8: /utf-?8/i.test(locale),
  });
}

/** The same platform, except that its stderr writes erase the status line and a prompt pauses it. */
function pausingPlatform(platform: Platform, status: StatusLine): Platform {
  const wrapped: Platform = Object.create(platform);
  wrapped.writeStderr = (text) => {
    status.clear();
    platform.writeStderr(text);
  };
  wrapped.readLine = async () => {
    status.pause();
    try {
      return await platform.readLine();
    } finally {
      status.resume();
    }
  };
  return wrapped;
}
