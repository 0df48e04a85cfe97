import type { Platform, SpawnOptions } from "./platform.ts";
import { holdSandboxMounts } from "./sandbox_placeholders.ts";

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

async function collect(stream: ReadableStream<Uint8Array>, maxBytes: number) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const reader = stream.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size < maxBytes) {
        const take = value.subarray(0, Math.min(value.length, maxBytes - size));
        chunks.push(take);
        size += take.length;
      }
      if (size >= maxBytes && value.length > 0) truncated = truncated || size + value.length > maxBytes;
    }
  } catch {
    // the process was killed mid-read; keep what arrived
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return { text: new TextDecoder().decode(all), truncated };
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
    return {
      code: null,
      signal: null,
      stdout: "",
      stderr: "",
      stdoutTruncated: false,
      stderrTruncated: false,
      timedOut: false,
      aborted: false,
      durationMs: performance.now() - started,
      error: error instanceof Error ? error.message : String(error),
    };
  }
  if (child.stdin && options.input !== undefined) {
    const writer = child.stdin.getWriter();
    writer.write(new TextEncoder().encode(options.input)).then(() => writer.close()).catch(() => {});
  }
  const [stdout, stderr, status] = await Promise.all([
    collect(child.stdout, maxBytes),
    collect(child.stderr, maxBytes),
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
