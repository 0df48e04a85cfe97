/**
 * The runtime interface. Everything outside lib/platform talks to the operating system through this,
 * so the same code runs on Deno and inside the Bun-compiled binary.
 */

export interface SpawnOptions {
  /** argv; cmd[0] is looked up on PATH. */
  cmd: string[];
  cwd?: string;
  /** The complete environment of the child (build it with `childEnv`); the parent's is never inherited. */
  env: Record<string, string>;
  stdin?: "piped" | "null";
  /**
   * Run on a pseudo-terminal (#23 item 2): stdin, stdout and stderr are its one terminal, so the
   * output (stderr included, as a terminal shows it) arrives on `stdout` and `stderr` is empty. Bun
   * opens the PTY itself; Deno has none and goes through util-linux `script`.
   */
  tty?: boolean;
  /** Kill the whole process group after this many milliseconds. */
  timeoutMs?: number;
  /** Abort kills the whole process group. */
  signal?: AbortSignal;
}

export interface ExitStatus {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
}

export interface ChildProcess {
  pid: number;
  stdin: WritableStream<Uint8Array> | null;
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  status: Promise<ExitStatus>;
  /** Signal the whole process group (default SIGKILL). */
  kill(signal?: "SIGTERM" | "SIGKILL" | "SIGINT"): void;
}

export interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtimeMs: number;
  mode: number;
  uid: number;
  gid: number;
  /** The inode number (0 where the runtime does not say): a file replaced by rename has a new one. */
  ino?: number;
}

export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}

export interface WatchEvent {
  kind: string;
  paths: string[];
}

export interface Watcher {
  close(): void;
}

export interface HttpServer {
  port: number;
  hostname: string;
  close(): Promise<void>;
}

/** A held lock (see FileSystem.lockFile); release it once, in a `finally`. */
export interface FileLock {
  release(): Promise<void>;
}

export interface LockOptions {
  /** Give up (an error with code ETIMEDOUT) after this long; default 30 s. */
  timeoutMs?: number;
}

export interface AtomicWriteOptions {
  /** Mode of the new file; default 0o644. */
  mode?: number;
  /** Owner of the new file (chown before the rename); default the writer's. */
  owner?: { uid: number; gid: number };
  /** Flush the data to disk before the rename, so a crash leaves the old file or the new one. */
  fsync?: boolean;
}

export interface AppendHandle {
  append(data: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Blocking calls for bulk passes over many small files (a plugin store copy, a skill tree scan) and
 * the few small files every start reads, where a promise per call costs more than the system call
 * behind it. They hold the event loop, so they suit short passes that nothing else waits on.
 */
export interface SyncFileSystem {
  readFile(path: string): Uint8Array;
  /**
   * For small files read on every start (settings, markers); never for a tool's target. Only a
   * regular file is read: a FIFO, socket or device throws NotRegularFileError (a directory EISDIR)
   * at once instead of blocking start-up.
   */
  readTextFile(path: string): string;
  /** Reads at most `maxBytes` from the start of the file. */
  readFilePrefix(path: string, maxBytes: number): Uint8Array;
  writeFile(path: string, data: Uint8Array, options?: { mode?: number }): void;
  /**
   * A temp file beside `path` renamed over it (readers never see half a file), without the thread
   * pool's round trips: for a checkpoint's blob, written on the way to a tool's edit (#25 item 2).
   */
  writeFileAtomic(path: string, data: Uint8Array, options?: { mode?: number }): void;
  /**
   * A second name for `existing` at `path` (a hard link made beside it, then renamed over): no bytes
   * copied. Throws EXDEV across file systems. For a file about to be replaced by a rename, whose old
   * content then lives on under the new name alone.
   */
  linkAtomic(existing: string, path: string): void;
  /** Copies a file by the kernel's copy (no bytes through this process), then sets `mode`. */
  copyFile(from: string, to: string, options?: { mode?: number }): void;
  /** Hex digest of a file read in fixed-size chunks: memory stays bounded whatever its size. */
  digestFile(path: string, algorithm: "sha1" | "sha256"): string;
  lstat(path: string): FileInfo | null;
  /**
   * Whether anything is at `path` (a symlink is followed). Never throws: the cheap probe for a file
   * that is usually absent, where building a "not found" error costs several times the system call.
   */
  exists(path: string): boolean;
  readDir(path: string): DirEntry[];
  mkdir(path: string): void;
}

export interface FileSystem {
  readonly sync: SyncFileSystem;
  readTextFile(path: string): Promise<string>;
  readFile(path: string): Promise<Uint8Array>;
  /** Reads at most `maxBytes` from the start of the file. */
  readFilePrefix(path: string, maxBytes: number): Promise<Uint8Array>;
  /** Writes a temp file beside `path` then renames it over `path`: readers never see half a file. */
  writeFileAtomic(path: string, data: string | Uint8Array, options?: AtomicWriteOptions): Promise<void>;
  /**
   * Takes an exclusive advisory lock (flock) on `path`, created 0600 if missing, waiting for another
   * holder up to `timeoutMs`. Every process that edits the same file locks the same lock file.
   */
  lockFile(path: string, options?: LockOptions): Promise<FileLock>;
  writeTextFile(path: string, data: string): Promise<void>;
  /** Writes bytes to a new or truncated file (not atomic: for files inside a staged directory). */
  writeFile(path: string, data: Uint8Array, options?: { mode?: number }): Promise<void>;
  appendTextFile(path: string, data: string): Promise<void>;
  /** Opens `path` for appending (created if missing), for many small appends without reopening. */
  openAppend(path: string): Promise<AppendHandle>;
  stat(path: string): Promise<FileInfo | null>;
  lstat(path: string): Promise<FileInfo | null>;
  realPath(path: string): Promise<string>;
  readDir(path: string): Promise<DirEntry[]>;
  mkdir(path: string): Promise<void>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  copyFile(from: string, to: string): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  makeTempDir(prefix?: string, parent?: string): Promise<string>;
}

/**
 * The process's own terminal, for the interactive mode: keys one by one, the window size and its
 * changes, and ordered writes to stdout. Only lib/cli/interactive uses it, and only when stdin and
 * stdout are terminals.
 */
export interface TerminalIo {
  /** Raw mode: every key arrives as typed, unechoed, Ctrl-C included; off restores the line discipline. */
  setRawMode(on: boolean): void;
  /** Columns and rows; 80×24 when the size is unknown. */
  size(): { columns: number; rows: number };
  /** Calls `handler` after each change of the window size (SIGWINCH); returns a function that removes it. */
  onResize(handler: () => void): () => void;
  /**
   * Calls `handler` with each chunk of input, UTF-8 decoded (an invalid byte becomes U+FFFD); returns a
   * function that removes it. Under Bun stdin is read only while a handler is installed; under Deno
   * one reader runs from the first handler on for the process's life (a stream cannot be locked a
   * second time), so input that arrives while no handler is installed is dropped there. The end of
   * input (Ctrl-D on an empty line in cooked mode) arrives as one `\x04`, what Ctrl-D types in raw
   * mode.
   */
  onInput(handler: (text: string) => void): () => void;
  /** Queues `text` for stdout; writes keep their order. */
  write(text: string): void;
  /** Resolves when everything written so far has been handed to the terminal. */
  drain(): Promise<void>;
}

export interface Platform {
  readonly runtime: "deno" | "bun";
  /** Operating system in Node's naming: linux | darwin | win32 | … */
  readonly os: string;
  readonly fs: FileSystem;
  spawn(options: SpawnOptions): ChildProcess;
  /** Native recursive watcher; throws when it cannot start. */
  watch(paths: string[], onEvent: (event: WatchEvent) => void): Watcher;
  serveHttp(
    handler: (request: Request) => Response | Promise<Response>,
    options: { hostname?: string; port?: number },
  ): Promise<HttpServer>;
  /**
   * Starts connecting to `url`'s host (DNS, TCP, TLS) so a request made soon after need not wait
   * for it; the runtime's HTTP client starts too. Sends nothing; a no-op where unsupported.
   */
  preconnect(url: string): void;
  /** Calls `handler` on each SIGINT; returns a function that removes it. */
  onSignal(signal: "SIGINT" | "SIGTERM", handler: () => void): () => void;
  env(name: string): string | undefined;
  envAll(): Record<string, string>;
  cwd(): string;
  args(): string[];
  exit(code: number): never;
  isTerminal(stream: "stdin" | "stdout" | "stderr"): boolean;
  /** The width in columns of the terminal on `stream`; undefined when it is no terminal. */
  terminalColumns(stream: "stdout" | "stderr"): number | undefined;
  readStdin(): Promise<string>;
  /** Reads one line from stdin (for prompts on a TTY); null at end of input. */
  readLine(): Promise<string | null>;
  writeStdout(text: string): Promise<void>;
  writeStderr(text: string): void;
  /** The terminal on stdin/stdout (check `isTerminal` first); created on first use. */
  terminal(): TerminalIo;
  homeDir(): string;
  tempDir(): string;
  execPath(): string;
  pid(): number;
  /**
   * Collects garbage now, where the runtime lets a program ask (Bun); absent elsewhere. For a long
   * session whose every step builds and drops a request body of megabytes: JavaScriptCore lets the
   * heap grow by several bodies a step before it collects them.
   */
  collectGarbage?(): void;
}
