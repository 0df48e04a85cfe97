import { platform } from "../../lib/platform/mod.ts";
import { execArgs } from "../helpers/exec_args.ts";

/** The binary under test: $TRELLIS_BIN (CI: dist/trellis), else the sources through Deno. */
export function trellisArgv(): string[] {
  const bin = platform.env("TRELLIS_BIN");
  if (bin) return [bin];
  return [platform.execPath(), "run", "-A", new URL("../../main.ts", import.meta.url).pathname];
}

export interface BinaryRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Runs the binary with an explicit environment and cwd (never the test process's own). */
export async function runTrellis(
  args: string[],
  options: { env: Record<string, string>; cwd: string; stdin?: string; timeoutMs?: number },
): Promise<BinaryRun> {
  const env = { PATH: platform.env("PATH") ?? "/usr/bin:/bin", ...options.env };
  const command = new Deno.Command(trellisArgv()[0], {
    args: [...trellisArgv().slice(1), ...execArgs(args)],
    cwd: options.cwd,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? ""));
  await writer.close();
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const out = await child.output();
  clearTimeout(timer);
  return {
    code: out.signal ? null : out.code,
    signal: out.signal,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** Parses `exec --json` output into events. */
export function events(stdout: string): Record<string, any>[] {
  return stdout.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/**
 * The completed tool-call items of an `exec --json` stream, whatever their Codex type
 * (command_execution, file_change, mcp_tool_call, or Trellis's tool_call): each has `call_id`,
 * `name` and `call_status` (completed | failed | denied | aborted).
 */
export function callItems(stdout: string): Record<string, any>[] {
  return events(stdout).filter((e) => e.type === "item.completed" && "call_id" in e.item).map((e) => e.item);
}

/** The binary as a child process, for tests that read its output piece by piece as it runs. */
export function spawnTrellis(
  args: string[],
  options: { env: Record<string, string>; cwd: string },
): Deno.ChildProcess {
  return new Deno.Command(trellisArgv()[0], {
    args: [...trellisArgv().slice(1), ...execArgs(args)],
    cwd: options.cwd,
    env: { PATH: platform.env("PATH") ?? "/usr/bin:/bin", ...options.env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Reads a byte stream as text, as far as the test needs, keeping everything read so far. */
export class PipeReader {
  text = "";
  bytes = 0;
  done = false;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  /**
   * Reads until `enough(text)` holds, the stream ends, or `timeoutMs` pass without it holding (a
   * program waiting for input the test does not know to give must fail the test, not hang it); true
   * when it held.
   */
  async until(enough: (text: string) => boolean, timeoutMs = 60_000): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) =>
      timer = setTimeout(() => resolve("timeout"), timeoutMs)
    );
    try {
      while (!enough(this.text)) {
        const next = await Promise.race([this.#pendingNext(), timeout]);
        if (next === "timeout" || !next) return enough(this.text);
      }
      return true;
    } finally {
      clearTimeout(timer);
    }
  }

  // A read left pending by a timed-out `until` is the next one anybody waits for: none is lost.
  #pending: Promise<boolean> | null = null;
  #pendingNext(): Promise<boolean> {
    this.#pending ??= this.#next().finally(() => this.#pending = null);
    return this.#pending;
  }

  /** Reads to the end, stopping early (and returning false) once more than `maxBytes` arrived. */
  async toEnd(maxBytes = Infinity): Promise<boolean> {
    while (this.bytes <= maxBytes) {
      if (!await this.#pendingNext()) return true;
    }
    return false;
  }

  /** Stops reading and closes the pipe: the writer's next write fails (EPIPE). */
  async close(): Promise<void> {
    await this.#reader.cancel();
  }

  async #next(): Promise<boolean> {
    const { value, done } = await this.#reader.read();
    if (done) {
      this.done = true;
      return false;
    }
    this.bytes += value.byteLength;
    this.text += this.#decoder.decode(value, { stream: true });
    return true;
  }
}
