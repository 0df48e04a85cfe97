/**
 * The one tmux driver of the e2e tests (interactive mode, `exec` on a terminal): `dist/trellis` (or
 * the sources, see `trellisArgv`) runs in a detached tmux session of a known size, on a tmux server
 * of its own; the test types with `send-keys`, pastes with `paste-buffer -p` (bracketed, as a
 * terminal pastes), and reads what a person would see with `capture-pane`. Waiting polls the screen
 * for text under a generous deadline: no fixed sleep ever stands in for an assertion.
 */
import { trellisArgv } from "./_binary.ts";
import { execArgs } from "../helpers/exec_args.ts";

const POLL_MS = 50;
const DEADLINE_MS = 60_000;

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export interface TerminalOptions {
  cwd: string;
  env: Record<string, string>;
  /** Trellis's arguments. */
  args: string[];
  width?: number;
  height?: number;
}

export class TmuxTerminal {
  private constructor(private readonly dir: string) {}

  /** Starts trellis with exactly `env` (plus PATH, TERM and a UTF-8 locale unless given). */
  static async start(options: TerminalOptions): Promise<TmuxTerminal> {
    const dir = await Deno.makeTempDir({ prefix: "trellis-tmux-" });
    await Deno.writeTextFile(
      `${dir}/tmux.conf`,
      // Keep the pane after trellis exits; let OSC 52 set tmux buffers and OSC 0/2 set the pane
      // title, so a clipboard write or a retitle that reaches the terminal can be seen.
      "set -g history-limit 100000\nset -g set-clipboard on\nset -g remain-on-exit on\n" +
        "set -g allow-rename on\n",
    );
    const env = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      TERM: "tmux-256color",
      LANG: "C.UTF-8",
      ...options.env,
    };
    const assignments = Object.entries(env).map(([k, v]) => quote(`${k}=${v}`)).join(" ");
    const argv = [...trellisArgv(), ...execArgs(options.args)].map(quote).join(" ");
    await Deno.writeTextFile(
      `${dir}/run.sh`,
      `cd ${quote(options.cwd)}\nenv -i ${assignments} ${argv}\necho $? > ${quote(`${dir}/exit_code`)}\n`,
    );
    const terminal = new TmuxTerminal(dir);
    await terminal.tmux(
      "-f",
      `${dir}/tmux.conf`,
      "new-session",
      "-d",
      "-x",
      String(options.width ?? 100),
      "-y",
      String(options.height ?? 30),
      `sh ${quote(`${dir}/run.sh`)}`,
    );
    return terminal;
  }

  async tmux(...args: string[]): Promise<string> {
    const out = await new Deno.Command("tmux", {
      args: ["-S", `${this.dir}/tmux.sock`, ...args],
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", TERM: "xterm-256color" },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`tmux ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    return new TextDecoder().decode(out.stdout);
  }

  /** The scrollback and the screen as plain text, wrapped lines joined, trailing blanks trimmed. */
  async screen(options: { escapes?: boolean } = {}): Promise<string> {
    const text = await this.tmux(
      "capture-pane",
      "-p",
      "-J",
      ...(options.escapes ? ["-e"] : []),
      "-S",
      "-",
      "-E",
      "-",
      "-t",
      "0",
    );
    return text.split("\n").map((line) => line.trimEnd()).join("\n").trimEnd();
  }

  /** The visible screen only, row by row (not joined). */
  async visible(): Promise<string[]> {
    return (await this.tmux("capture-pane", "-p", "-t", "0")).split("\n");
  }

  /** Polls until `test` accepts the screen; returns it. */
  async waitFor(pattern: RegExp | ((screen: string) => boolean), what = String(pattern)): Promise<string> {
    const deadline = Date.now() + DEADLINE_MS;
    const test = typeof pattern === "function" ? pattern : (s: string) => pattern.test(s);
    for (;;) {
      const screen = await this.screen();
      if (test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the terminal never showed ${what}:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Polls until `test` accepts the visible screen (rows joined by newlines); returns it. */
  async waitForVisible(test: (visible: string) => boolean, what: string): Promise<string> {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const visible = (await this.visible()).join("\n");
      if (test(visible)) return visible;
      if (Date.now() > deadline) throw new Error(`the screen never showed ${what}:\n${visible}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Types text literally. */
  async type(text: string): Promise<void> {
    if (text) await this.tmux("send-keys", "-t", "0", "-l", text);
  }

  /** Presses keys by tmux name (Enter, Escape, C-c, Tab, Up …). */
  async press(...keys: string[]): Promise<void> {
    await this.tmux("send-keys", "-t", "0", ...keys);
  }

  async typeLine(text: string): Promise<void> {
    await this.type(text);
    await this.press("Enter");
  }

  /** Pastes as a terminal does with bracketed paste on (tmux wraps it in ESC[200~ … ESC[201~). */
  async paste(text: string): Promise<void> {
    await Deno.writeTextFile(`${this.dir}/paste.txt`, text);
    await this.tmux("load-buffer", "-b", "paste", `${this.dir}/paste.txt`);
    await this.tmux("paste-buffer", "-p", "-r", "-d", "-b", "paste", "-t", "0");
  }

  async resize(width: number, height: number): Promise<void> {
    await this.tmux("resize-window", "-t", "0", "-x", String(width), "-y", String(height));
  }

  /** tmux's paste buffers: an OSC 52 clipboard write that reached the terminal would be one. */
  async buffers(): Promise<string> {
    return await this.tmux("list-buffers").catch(() => "");
  }

  /** The pane's title: an OSC 0/2 retitle that reached the terminal would change it. */
  async title(): Promise<string> {
    return (await this.tmux("display-message", "-p", "-t", "0", "#{pane_title}")).trim();
  }

  /** Waits for trellis to exit; its exit code. */
  async exitCode(): Promise<number> {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      try {
        const text = await Deno.readTextFile(`${this.dir}/exit_code`);
        if (text.endsWith("\n")) return Number(text.trim());
      } catch {
        // not yet
      }
      if (Date.now() > deadline) throw new Error(`trellis never exited:\n${await this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async close(): Promise<void> {
    await this.tmux("kill-server").catch(() => {});
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }
}
