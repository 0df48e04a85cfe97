import { watch as nodeWatch } from "node:fs";
import process from "node:process";
import { nodeFileSystem } from "./node_fs.ts";
import { killTree, supervise } from "./_termination.ts";
import { lineReader } from "./_line_reader.ts";
import { isTerminalFd, useStdoutStream, writeStderrSync, writeStdout } from "./_bun_stdio.ts";
import { nodeTerminal } from "./_bun_terminal.ts";
import type { ChildProcess, Platform, SpawnOptions, TerminalIo } from "./platform.ts";

// deno-lint-ignore no-explicit-any
const B = (globalThis as any).Bun;

/** Bun hands out a FileSink for stdin; the platform interface promises a WritableStream. */
// deno-lint-ignore no-explicit-any
function sinkToStream(sink: any): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({
    async write(chunk) {
      sink.write(chunk);
      await sink.flush();
    },
    async close() {
      await sink.end();
    },
    async abort() {
      await sink.end();
    },
  });
}

function spawn(options: SpawnOptions): ChildProcess {
  if (options.tty) return spawnOnTerminal(options);
  const child = B.spawn(options.cmd, {
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin === "piped" ? "pipe" : "ignore",
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
  const exited = child.exited.then((code: number) => ({
    code: child.signalCode ? null : code,
    signal: child.signalCode ?? null,
  }));
  return {
    pid: child.pid,
    stdin: options.stdin === "piped" ? sinkToStream(child.stdin) : null,
    stdout: child.stdout,
    stderr: child.stderr,
    status: supervise(child.pid, exited, options),
    kill: (signal) => killTree(child.pid, signal),
  };
}

/**
 * Bun opens the PTY itself (`terminal`): the child is a session leader with it as its controlling
 * terminal, what it writes arrives through `data`, and `exit` is the terminal's end of file. This
 * saves the `script` relay Deno needs (~20 ms a command: bench/RESULTS.md, tool sets).
 */
function spawnOnTerminal(options: SpawnOptions): ChildProcess {
  let output!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let onEnd = () => {};
  const endOfFile = new Promise<void>((resolve) => (onEnd = resolve));
  const end = () => {
    if (ended) return;
    ended = true;
    output.close();
    onEnd();
  };
  const stdout = new ReadableStream<Uint8Array>({ start: (c) => void (output = c) });
  const child = B.spawn(options.cmd, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    terminal: {
      cols: 120,
      rows: 40,
      data: (_t: unknown, chunk: Uint8Array) => {
        if (!ended) output.enqueue(chunk.slice());
      },
      exit: end,
    },
  });
  const exited = child.exited.then(async (code: number) => {
    // A descendant still holding the terminal would keep `exit` from coming: the child's own end
    // is the end of its output, as with `script -e`, once what the kernel buffered is read.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([endOfFile, new Promise((resolve) => (timer = setTimeout(resolve, 20)))]);
    clearTimeout(timer);
    end();
    child.terminal?.close();
    return { code: child.signalCode ? null : code, signal: child.signalCode ?? null };
  });
  const stdin = options.stdin === "piped"
    ? new WritableStream<Uint8Array>({
      write(chunk) {
        if (!child.terminal?.closed) child.terminal.write(chunk);
      },
    })
    : null;
  return {
    pid: child.pid,
    stdin,
    stdout,
    stderr: new ReadableStream<Uint8Array>({ start: (c) => c.close() }),
    status: supervise(child.pid, exited, options),
    kill: (signal) => killTree(child.pid, signal),
  };
}

const readLine = lineReader(() => B.stdin.stream());
let terminal: TerminalIo | null = null;

export const bunPlatform: Platform = {
  runtime: "bun",
  os: process.platform,
  fs: nodeFileSystem,
  spawn,
  watch(paths, onEvent) {
    const watchers = paths.map((path) =>
      nodeWatch(path, { recursive: true }, (kind, file) => {
        onEvent({ kind, paths: [file ? `${path}/${file}` : path] });
      })
    );
    return { close: () => watchers.forEach((w) => w.close()) };
  },
  serveHttp(handler, options) {
    const server = B.serve({
      hostname: options.hostname ?? "127.0.0.1",
      port: options.port ?? 0,
      fetch: handler,
    });
    return Promise.resolve({
      port: server.port,
      hostname: server.hostname,
      close: async () => {
        await server.stop(true);
      },
    });
  },
  preconnect(url) {
    try {
      // deno-lint-ignore no-explicit-any
      (fetch as any).preconnect(url);
    } catch {
      // Bun 1.4 refuses a URL on its scheme's default port ("Invalid port"), and a malformed URL
      // fails again, with a proper message, when the request is made: both connect on first use.
    }
  },
  onSignal(signal, handler) {
    process.on(signal, handler);
    return () => process.off(signal, handler);
  },
  env: (name) => process.env[name],
  envAll: () => ({ ...process.env }) as Record<string, string>,
  cwd: () => process.cwd(),
  args: () => process.argv.slice(2),
  exit: (code) => process.exit(code),
  isTerminal: isTerminalFd,
  // Touching process.stderr builds a Node stream (costly at start): only asked when a prompt shows.
  terminalColumns: (stream) => (isTerminalFd(stream) ? process[stream].columns || undefined : undefined),
  readStdin: () => new Response(B.stdin.stream()).text(),
  readLine,
  writeStdout,
  writeStderr: writeStderrSync,
  terminal: () => {
    useStdoutStream(); // the terminal writes through process.stdout
    return terminal ??= nodeTerminal();
  },
  homeDir: () => process.env.HOME ?? "/",
  tempDir: () => process.env.TMPDIR ?? "/tmp",
  execPath: () => process.execPath,
  pid: () => process.pid,
  collectGarbage: () => B.gc(true),
};
