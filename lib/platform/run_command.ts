import type { Platform, SpawnOptions } from "./platform.ts";
import { holdSandboxMounts } from "./sandbox_placeholders.ts";
import { readStreamText } from "./stream_text.ts";

export interface CommandResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** Set when the process could not be started at all. */
  error?: string;
}

/**
 * Runs a command to completion and returns what happened. Never throws: a spawn failure, a
 * timeout or an abort is data in the result, for callers (the hook runner, `shell`) to interpret.
 */
export async function runCommand(
  platform: Platform,
  options: SpawnOptions & { input?: string; maxOutputBytes?: number },
): Promise<CommandResult> {
  // A sandbox argv's placeholders stay until its process has ended (sandbox_placeholders.ts).
  const release = holdSandboxMounts(options.cmd);
  try {
    return await runToEnd(platform, options);
  } finally {
    release();
  }
}

async function runToEnd(
  platform: Platform,
  options: SpawnOptions & { input?: string; maxOutputBytes?: number },
): Promise<CommandResult> {
  const started = performance.now();
  const maxBytes = options.maxOutputBytes ?? 1024 * 1024;
  let child;
  try {
    child = platform.spawn({ ...options, stdin: options.input !== undefined ? "piped" : "null" });
  } catch (error) {
    return notStarted(performance.now() - started, error instanceof Error ? error.message : String(error));
  }
  if (child.stdin && options.input !== undefined) {
    const writer = child.stdin.getWriter();
    writer.write(new TextEncoder().encode(options.input)).then(() => writer.close()).catch(() => {});
  }
  const [stdout, stderr, status] = await Promise.all([
    readStreamText(child.stdout, maxBytes),
    readStreamText(child.stderr, maxBytes),
    child.status,
  ]);
  return {
    code: status.code,
    signal: status.signal,
    stdout: stdout.text,
    stderr: stderr.text,
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    timedOut: status.timedOut,
    aborted: status.aborted,
    durationMs: performance.now() - started,
  };
}

/** The result of a command that produced nothing: never started (`error` says why) or stopped at once. */
export function notStarted(durationMs: number, error?: string): CommandResult {
  return {
    code: null,
    signal: null,
    stdout: "",
    stderr: "",
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    aborted: false,
    durationMs,
    ...(error !== undefined ? { error } : {}),
  };
}
