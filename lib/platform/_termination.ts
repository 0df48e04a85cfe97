import * as nodeFs from "node:fs";
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
 * Signals a spawned child's group and every process below it, also those that left the group.
 * bwrap's `--new-session` calls setsid() in the sandbox's init before that init binds its life to
 * bwrap's (PR_SET_PDEATHSIG): a kill of the group in between left the sandbox, and its command,
 * running to their end (a `sleep 30` aborted in its first milliseconds ran 30 s, one CI run in eight
 * under load). The tree is read only while `pid` is still this process's child (its stat names us as
 * parent), so a pid the system reused for someone else's process is never walked.
 */
export function killTree(pid: number, signal: "SIGTERM" | "SIGKILL" | "SIGINT" = "SIGKILL"): void {
  const below = parentOf(pid) === process.pid ? descendantsOf(pid) : [];
  killGroup(pid, signal);
  for (const child of below) {
    try {
      process.kill(child, signal);
    } catch {
      // already gone
    }
  }
}

/** Every process below `pid`, read from Linux's /proc/<pid>/task/<tid>/children; none without /proc. */
function descendantsOf(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0 && out.length < 4096) {
    const next = queue.shift()!;
    for (const child of childrenOf(next)) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = nodeFs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const task of tasks) {
    let text: string;
    try {
      text = nodeFs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8");
    } catch {
      continue;
    }
    for (const word of text.split(" ")) {
      const child = Number(word);
      if (Number.isInteger(child) && child > 0) out.push(child);
    }
  }
  return out;
}

/** The parent pid in /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = nodeFs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
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
      killTree(pid);
    }, options.timeoutMs)
    : undefined;
  const onAbort = () => {
    aborted = true;
    killTree(pid);
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
