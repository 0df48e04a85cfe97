import * as path from "node:path";
import { type JSONRPCMessage, loadSdk, type Sdk, type Transport } from "./_sdk.ts";
import { type ChildProcess, type ExitStatus, holdSandboxMounts, type Platform } from "../platform/mod.ts";
import { RotatingLog } from "./stderr_log.ts";
import { TrellisError } from "../shared/mod.ts";

export interface StdioTransportOptions {
  cmd: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Where the server's stderr goes; stdout carries only JSON-RPC frames (MCP-19). */
  stderrLog: string;
  /** Rotate the log past this size (default 5 MiB, one old file kept). */
  stderrLogMaxBytes?: number;
  /** Non-JSON stdout lines and similar oddities that do not end the session. */
  onWarning(message: string): void;
  /** Also hands each stderr chunk here (the log keeps it too). */
  onStderr?(text: string): void;
}

const STDERR_TAIL_BYTES = 2048;
/** The start of stderr is kept too: a dying server's reason comes before its stack (#21 item 14). */
const STDERR_HEAD_BYTES = 16 * 1024;
const STDERR_DRAIN_MS = 500;
/** How much of an ignored stdout line a warning quotes. */
const QUOTED_LINE_CHARS = 120;

/**
 * The SDK's stdio client transport re-implemented on `platform.spawn`, so the server runs in its own
 * process group with an allow-listed environment on Deno and Bun alike. Framing is the SDK's.
 */
export class PlatformStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #child: ChildProcess | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #serialize: Sdk["serializeMessage"] | undefined;
  #stderrTail = "";
  #stderrHead = "";
  #stderrLength = 0;
  #stderrClosed: Promise<void> = Promise.resolve();
  #closed = false;
  exit: ExitStatus | undefined;

  constructor(private readonly platform: Platform, private readonly options: StdioTransportOptions) {}

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Resolves once the server's stderr has ended and all of it was handed on. */
  get stderrClosed(): Promise<void> {
    return this.#stderrClosed;
  }

  /** The last couple of KB the server wrote to stderr, for error messages. */
  get stderrTail(): string {
    return this.#stderrTail;
  }

  /** The first 16 KB and the last 2 KB of stderr (all of it when shorter), for error messages. */
  get stderrKept(): string {
    return this.#stderrLength <= STDERR_HEAD_BYTES
      ? this.#stderrHead
      : `${this.#stderrHead}\n${this.#stderrTail}`;
  }

  /** The whole stderr log's path. */
  get stderrLog(): string {
    return this.options.stderrLog;
  }

  async start(): Promise<void> {
    const sdk = await loadSdk();
    this.#serialize = sdk.serializeMessage;
    await this.platform.fs.mkdir(path.dirname(this.options.stderrLog)).catch(() => {});
    // A confined server's argv may create placeholder mount points: held while it runs, then removed.
    const release = holdSandboxMounts(this.options.cmd);
    let child: ChildProcess;
    try {
      child = this.platform.spawn({
        cmd: this.options.cmd,
        env: this.options.env,
        cwd: this.options.cwd,
        stdin: "piped",
      });
    } catch (error) {
      release();
      throw error;
    }
    void child.status.then(release, release);
    this.#child = child;
    this.#writer = child.stdin!.getWriter();
    void this.#pumpStdout(child.stdout, sdk.deserializeMessage);
    this.#stderrClosed = this.#pumpStderr(child.stderr);
    void child.status.then((status) => {
      this.exit = status;
      this.#finish();
    });
  }

  /**
   * Newline-delimited JSON-RPC, as the SDK frames it; a line that is not a message is quoted in a
   * warning (#21 item 16) and skipped. Only each new chunk is scanned for line ends.
   */
  async #pumpStdout(
    stream: ReadableStream<Uint8Array>,
    deserialize: Sdk["deserializeMessage"],
  ): Promise<void> {
    const decoder = new TextDecoder();
    let pending: string[] = [];
    const line = (text: string) => {
      const trimmed = text.endsWith("\r") ? text.slice(0, -1) : text;
      if (trimmed.trim() === "") return;
      let message: JSONRPCMessage;
      try {
        message = deserialize(trimmed);
      } catch {
        const quoted = trimmed.length > QUOTED_LINE_CHARS
          ? `${trimmed.slice(0, QUOTED_LINE_CHARS)}…`
          : trimmed;
        this.options.onWarning(
          `ignored a stdout line that is not a JSON-RPC message: ${JSON.stringify(quoted)}`,
        );
        return;
      }
      this.onmessage?.(message);
    };
    try {
      for await (const chunk of stream) {
        const text = decoder.decode(chunk, { stream: true });
        let start = 0;
        for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
          pending.push(text.slice(start, end));
          const whole = pending.join("");
          pending = [];
          start = end + 1;
          line(whole);
        }
        if (start < text.length) pending.push(text.slice(start));
      }
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  async #pumpStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    const log = new RotatingLog(this.platform.fs, this.options.stderrLog, this.options.stderrLogMaxBytes);
    try {
      for await (const chunk of stream) {
        const text = decoder.decode(chunk, { stream: true });
        this.#stderrTail = (this.#stderrTail + text).slice(-STDERR_TAIL_BYTES);
        if (this.#stderrHead.length < STDERR_HEAD_BYTES) {
          this.#stderrHead = (this.#stderrHead + text).slice(0, STDERR_HEAD_BYTES);
        }
        this.#stderrLength += text.length;
        log.append(text);
        this.options.onStderr?.(text);
      }
    } catch {
      // the process is gone; its log keeps what arrived
    }
    await log.flushed();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || !this.#serialize || this.#closed) {
      throw new TrellisError("mcp_protocol", "Not connected");
    }
    await this.#writer.write(new TextEncoder().encode(this.#serialize(message)));
  }

  async close(): Promise<void> {
    if (!this.#child || this.#closed) return this.#finish();
    await this.#writer?.close().catch(() => {});
    this.#child.kill("SIGTERM");
    const timer = setTimeout(() => this.#child?.kill("SIGKILL"), 2000);
    await this.#child.status;
    clearTimeout(timer);
    // Its last stderr reaches the log before close resolves; a descendant that still holds the
    // pipe (an unconfined server's daemon) is not waited for past a moment.
    let wait: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.#stderrClosed,
      new Promise((resolve) => wait = setTimeout(resolve, STDERR_DRAIN_MS)),
    ]);
    clearTimeout(wait);
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
