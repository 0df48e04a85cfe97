/**
 * A real terminal for e2e tests: a command runs in a detached tmux pane of a known size on its own
 * tmux server; the test types with `send-keys` and reads what a person would see with
 * `capture-pane`. Waiting polls the screen for text (a generous deadline, never a timed assertion).
 */

export interface PaneOptions {
  cwd: string;
  env: Record<string, string>;
  /** Holds the tmux socket, config, launcher script and exit-code file. */
  dir: string;
  width?: number;
  height?: number;
}

const POLL_MS = 100;
const DEADLINE_MS = 90_000;

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export class TmuxPane {
  private constructor(private readonly dir: string) {}

  /** Starts `argv` in a fresh tmux server with exactly `env` (plus TERM) and `cwd`. */
  static async start(argv: string[], options: PaneOptions): Promise<TmuxPane> {
    const { dir } = options;
    await Deno.writeTextFile(
      `${dir}/tmux.conf`,
      // Keep the pane after the command exits; let applications set tmux buffers through OSC 52,
      // so a clipboard write that reaches the terminal shows up in `list-buffers`.
      "set -g remain-on-exit on\nset -g history-limit 50000\nset -g set-clipboard on\n" +
        "set -g allow-rename on\n",
    );
    const env = Object.entries({ TERM: "tmux-256color", ...options.env }).map(([k, v]) => quote(`${k}=${v}`));
    await Deno.writeTextFile(
      `${dir}/run.sh`,
      `cd ${quote(options.cwd)}\nenv -i ${env.join(" ")} ${argv.map(quote).join(" ")}\n` +
        `echo $? > ${quote(`${dir}/exit_code`)}\n`,
    );
    const pane = new TmuxPane(dir);
    await pane.tmux(
      "-f",
      `${dir}/tmux.conf`,
      "new-session",
      "-d",
      "-x",
      String(options.width ?? 100),
      "-y",
      String(options.height ?? 50),
      `sh ${quote(`${dir}/run.sh`)}`,
    );
    return pane;
  }

  async tmux(...args: string[]): Promise<string> {
    const out = await new Deno.Command("tmux", {
      args: ["-S", `${this.dir}/tmux.sock`, ...args],
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", TERM: "xterm-256color" },
      clearEnv: true,
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) throw new Error(`tmux ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    return text;
  }

  /** Everything the pane shows, scrollback included, as plain text (trailing blanks trimmed). */
  async screen(): Promise<string> {
    // -J joins lines the pane wrapped, so a long line reads as it was written.
    const text = await this.tmux("capture-pane", "-p", "-J", "-S", "-", "-E", "-");
    return text.split("\n").map((line) => line.trimEnd()).join("\n").trimEnd();
  }

  /** Waits until the screen matches `pattern`; returns the screen. */
  async waitFor(pattern: RegExp): Promise<string> {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const screen = await this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the pane never showed ${pattern}:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Types `text` literally, then Enter. */
  async typeLine(text: string): Promise<void> {
    if (text) await this.tmux("send-keys", "-t", "0", "-l", text);
    await this.tmux("send-keys", "-t", "0", "Enter");
  }

  /** Waits for the command to exit; its exit code. */
  async exitCode(): Promise<number> {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      try {
        const text = await Deno.readTextFile(`${this.dir}/exit_code`);
        if (text.endsWith("\n")) return Number(text.trim());
      } catch {
        // not yet
      }
      if (Date.now() > deadline) throw new Error(`the command never exited:\n${await this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async close(): Promise<void> {
    await this.tmux("kill-server").catch(() => {});
  }
}
