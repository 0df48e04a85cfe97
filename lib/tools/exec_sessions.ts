/**
 * Long-lived commands (#23 items 2 and 3): Codex's `exec_command`/`write_stdin` sessions and Claude
 * Code's `Bash` `run_in_background`. A session is one process group, started sandboxed like
 * `shell`, whose output is collected as it comes; it outlives the call that started it, is capped
 * in number, and every one still running is killed when the Trellis session ends.
 */
import { childEnv, holdSandboxMounts, type Platform } from "../platform/mod.ts";

/** Codex caps live unified-exec sessions too; past this a new one is refused, never an old one killed. */
export const MAX_LIVE_EXEC_SESSIONS = 8;
// Output kept per session between two reads; older bytes are dropped and the drop is said.
const KEEP_BYTES = 1024 * 1024;

export interface ExecSession {
  id: number;
  command: string;
  startedAt: number;
  /** Resolves with the exit code (null: killed by a signal) when the process group has ended. */
  exited: Promise<number | null>;
  exitCode?: number | null;
}

interface LiveSession extends ExecSession {
  stdin: WritableStreamDefaultWriter<Uint8Array> | null;
  pending: string;
  dropped: number;
  /** Called when output arrives or the process ends (a waiting read wakes up). */
  wake?: () => void;
  kill: AbortController;
}

export class ExecSessions {
  readonly #sessions = new Map<number, LiveSession>();
  #nextId = 1000;

  constructor(private readonly platform: Platform) {}

  /** Live (not yet exited) sessions. */
  liveCount(): number {
    return [...this.#sessions.values()].filter((s) => s.exitCode === undefined).length;
  }

  /**
   * Starts `argv` (already sandboxed) as a new session; `tty` runs it on a pseudo-terminal (the
   * platform's own), so programs that check isatty (a REPL, a pager) behave as in a terminal.
   */
  start(
    argv: string[],
    options: { command: string; cwd: string; tty: boolean; timeoutMs?: number; outputFile?: string },
  ): LiveSession | string {
    if (this.liveCount() >= MAX_LIVE_EXEC_SESSIONS) {
      return `Cannot start "${options.command}": ${MAX_LIVE_EXEC_SESSIONS} commands are still running ` +
        "(the cap on live sessions); end one first (write_stdin \\u0003, or wait for it to exit)";
    }
    const release = holdSandboxMounts(argv);
    const kill = new AbortController();
    let child;
    try {
      child = this.platform.spawn({
        cmd: argv,
        tty: options.tty,
        cwd: options.cwd,
        env: { ...childEnv(this.platform.envAll()), SHELL: "/bin/sh", TERM: "xterm-256color" },
        stdin: "piped",
        signal: kill.signal,
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      });
    } catch (error) {
      release();
      return `Cannot run "${options.command}": ${error instanceof Error ? error.message : String(error)}`;
    }
    const id = this.#nextId++;
    const session: LiveSession = {
      id,
      command: options.command,
      startedAt: performance.now(),
      stdin: child.stdin?.getWriter() ?? null,
      pending: "",
      dropped: 0,
      kill,
      exited: Promise.resolve(null),
    };
    const append = this.#appender(session, options.outputFile);
    const readers = [child.stdout, child.stderr].map((stream) => pump(stream, append));
    session.exited = Promise.all([child.status, ...readers]).then(([status]) => {
      release();
      session.exitCode = status.code;
      session.wake?.();
      return status.code;
    });
    this.#sessions.set(id, session);
    return session;
  }

  get(id: number): LiveSession | undefined {
    return this.#sessions.get(id);
  }

  /** Writes `chars` to the session's stdin (a PTY turns \u0003 into SIGINT). */
  async write(session: LiveSession, chars: string): Promise<void> {
    if (!chars || !session.stdin || session.exitCode !== undefined) return;
    await session.stdin.write(new TextEncoder().encode(chars)).catch(() => {});
  }

  /**
   * Waits up to `yieldMs` for the process to end (or, with `untilOutput`, for first output), then
   * returns the output since the last read. An exited session is forgotten once read.
   */
  async read(
    session: LiveSession,
    yieldMs: number,
    signal: AbortSignal,
    untilOutput = false,
  ): Promise<{ output: string; dropped: number; exitCode?: number | null; wallMs: number }> {
    const started = performance.now();
    const deadline = started + yieldMs;
    while (session.exitCode === undefined && !signal.aborted) {
      const left = deadline - performance.now();
      if (left <= 0 || (untilOutput && session.pending !== "")) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        const onAbort = () => resolve();
        signal.addEventListener("abort", onAbort, { once: true });
        session.wake = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve();
        };
      });
      session.wake = undefined;
    }
    const output = session.pending;
    const dropped = session.dropped;
    session.pending = "";
    session.dropped = 0;
    if (session.exitCode !== undefined) this.#sessions.delete(session.id);
    return {
      output,
      dropped,
      ...(session.exitCode !== undefined ? { exitCode: session.exitCode } : {}),
      wallMs: performance.now() - started,
    };
  }

  /** Kills every session still running and waits for each to end: no orphan process. */
  async closeAll(): Promise<void> {
    const all = [...this.#sessions.values()];
    for (const session of all) session.kill.abort();
    await Promise.all(all.map((s) => s.exited.catch(() => null)));
    this.#sessions.clear();
  }

  #appender(session: LiveSession, outputFile?: string): (text: string) => void {
    const file = outputFile ? this.platform.fs.openAppend(outputFile) : undefined;
    return (text) => {
      session.pending += text;
      if (session.pending.length > KEEP_BYTES) {
        session.dropped += session.pending.length - KEEP_BYTES;
        session.pending = session.pending.slice(-KEEP_BYTES);
      }
      file?.then((handle) => handle.append(text)).catch(() => {});
      session.wake?.();
    };
  }
}

async function pump(stream: ReadableStream<Uint8Array>, append: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  try {
    for await (const chunk of stream) append(decoder.decode(chunk, { stream: true }));
  } catch {
    // The process group was killed mid-read: what arrived is kept.
  }
  const rest = decoder.decode();
  if (rest) append(rest);
}
