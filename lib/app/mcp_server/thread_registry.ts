import * as path from "node:path";
import { type LoadedConfig, resolvePaths } from "../../config/mod.ts";
import type { ServedToolCall } from "../../mcp/mod.ts";
import { isWithinPath, type Platform } from "../../platform/mod.ts";
import { UsageError } from "../../shared/mod.ts";
import { ServedThread } from "./served_thread.ts";

/** What a call sets on top of the server's own flags (`-c`, `-p`, `-C`). */
export interface CallConfig {
  /** Absolute working directory of the session. */
  cwd: string;
  profile?: string;
  overrides: string[];
  /** Loaded only to compare against: its diagnostics are not printed (the call's load prints them). */
  quiet?: boolean;
}

export interface ThreadRegistryOptions {
  platform: Platform;
  /** The server's working directory (`--cd`, else the process's). */
  cwd: string;
  /** Its canonical path: a thread recorded outside it is not resumed. */
  workspace: string;
  /** Loads config with the server's flags under the call's (diagnostics go to stderr). */
  loadConfig(call: CallConfig): Promise<LoadedConfig>;
  log(line: string): void;
}

// Ids Trellis writes are `YYYYMMDDhhmmss-xxxxxxxx`; anything that could leave the sessions folder is refused.
const THREAD_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const META_PREFIX_BYTES = 64 * 1024;

/**
 * Every thread of this server process, by id. Threads live as long as the process; a thread the
 * process has not seen is resumed from `$TRELLIS_HOME/sessions/<id>.jsonl` as `exec resume` does
 * (in the working directory it was recorded in), so a client can continue a thread across server
 * restarts and `exec` sessions.
 */
export class ThreadRegistry {
  #threads = new Map<string, ServedThread>();
  #resuming = new Map<string, Promise<ServedThread>>();
  #closed = false;

  constructor(private readonly options: ThreadRegistryOptions) {}

  /** The config a call's settings give (the server's flags under them). */
  loadConfig(config: CallConfig): Promise<LoadedConfig> {
    this.#refuseWhenClosed();
    return this.options.loadConfig(config);
  }

  /** A new thread for a `trellis` call, with the config `loadConfig` gave it. */
  async start(loaded: LoadedConfig, baseInstructions: string | undefined, call: ServedToolCall) {
    this.#refuseWhenClosed();
    const thread = await ServedThread.open(this.#openOptions(loaded, { baseInstructions }), call);
    return this.#keep(thread);
  }

  /** The thread `id`, from this process or resumed from its transcript; a UsageError naming it if none. */
  async find(id: string, call: ServedToolCall): Promise<ServedThread> {
    this.#refuseWhenClosed();
    const known = this.#threads.get(id);
    if (known) return known;
    if (!THREAD_ID.test(id)) {
      throw new UsageError(`Cannot continue thread "${id}": not a thread id`, { field: "threadId" });
    }
    let resuming = this.#resuming.get(id);
    if (!resuming) {
      resuming = this.#resume(id, call).finally(() => this.#resuming.delete(id));
      this.#resuming.set(id, resuming);
    }
    return await resuming;
  }

  /** Refuses new threads, lets running turns end (their calls are aborted by then), closes every Session. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#resuming.values()]);
    await Promise.all([...this.#threads.values()].map((thread) => thread.close()));
    this.#threads.clear();
  }

  async #resume(id: string, call: ServedToolCall): Promise<ServedThread> {
    const { platform } = this.options;
    const home = resolvePaths(platform.fs, { cwd: this.options.cwd, env: platform.env, markers: [] }).home;
    const file = path.join(home, "sessions", `${id}.jsonl`);
    const cwd = await recordedCwd(platform, file);
    if (cwd === null) {
      throw new UsageError(
        `Cannot continue thread "${id}": no such thread in this server, and no recorded session at ${file}`,
        { field: "threadId", threadId: id, file },
      );
    }
    // Its own cwd would otherwise be the way out of the workspace a `trellis` call's cwd is held to.
    const real = await platform.fs.realPath(cwd).catch(() => cwd);
    if (!isWithinPath(this.options.workspace, real)) {
      throw new UsageError(
        `Cannot continue thread "${id}": it was recorded in ${cwd}, outside the server's workspace ` +
          this.options.workspace,
        { field: "threadId", threadId: id },
      );
    }
    const loaded = await this.options.loadConfig({ cwd, overrides: [] });
    return this.#keep(await ServedThread.open(this.#openOptions(loaded, { resume: id }), call));
  }

  #openOptions(loaded: LoadedConfig, extra: { baseInstructions?: string; resume?: string }) {
    return {
      platform: this.options.platform,
      loaded,
      log: this.options.log,
      ...(extra.baseInstructions !== undefined ? { baseInstructions: extra.baseInstructions } : {}),
      ...(extra.resume ? { resume: extra.resume } : {}),
    };
  }

  #keep(thread: ServedThread): ServedThread {
    if (this.#closed) {
      void thread.close();
      throw new UsageError("Cannot run the turn: the server is shutting down");
    }
    this.#threads.set(thread.id, thread);
    return thread;
  }

  #refuseWhenClosed(): void {
    if (this.#closed) throw new UsageError("Cannot run the turn: the server is shutting down");
  }
}

/** The working directory a transcript was recorded in (its first line), or null without one. */
async function recordedCwd(platform: Platform, file: string): Promise<string | null> {
  let head: string;
  try {
    head = new TextDecoder().decode(await platform.fs.readFilePrefix(file, META_PREFIX_BYTES));
  } catch {
    return null;
  }
  try {
    const line = JSON.parse(head.split("\n")[0]) as { type?: string; meta?: { cwd?: unknown } };
    return line.type === "session_meta" && typeof line.meta?.cwd === "string" ? line.meta.cwd : null;
  } catch {
    return null;
  }
}
