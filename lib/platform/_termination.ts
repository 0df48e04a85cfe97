import process from "node:process";
import type { ExitStatus } from "./platform.ts";

/** Signals a whole process group; children that outlived their parent are reached too. */
export function killGroup(pid: number, signal: "SIGTERM" | "SIGKILL" | "SIGINT" = "SIGKILL"): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Applies timeout and abort to a spawned group and reports which of them ended it.
 * The group is killed even after the leader exits, so forked children never linger.
 */
export function supervise(
  pid: number,
  exited: Promise<{ code: number | null; signal: string | null }>,
  options: { timeoutMs?: number; signal?: AbortSignal },
): Promise<ExitStatus> {
  let timedOut = false;
  let aborted = false;
  const timer = options.timeoutMs !== undefined
    ? setTimeout(() => {
      timedOut = true;
      killGroup(pid);
    }, options.timeoutMs)
    : undefined;
  const onAbort = () => {
    aborted = true;
    killGroup(pid);
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  return exited.then((s) => {
    if (timer !== undefined) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    // A child that forked and exited may leave grandchildren holding its pipes open: end them.
    killGroup(pid);
    return { code: s.code, signal: s.signal, timedOut, aborted };
  });
}
