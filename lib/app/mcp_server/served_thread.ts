import type { LoadedConfig } from "../../config/mod.ts";
import type { TurnResult } from "../../loop/mod.ts";
import type { ServedToolCall } from "../../mcp/mod.ts";
import type { Platform } from "../../platform/mod.ts";
import { type EventSink, UsageError } from "../../shared/mod.ts";
import { Session } from "../session.ts";
import type { SubagentStatus } from "../subagent_board.ts";
import { forwardEvent } from "./call_events.ts";
import { clientApprover } from "./client_approver.ts";
import { clientElicitationResponder } from "./client_elicitation.ts";

const DEFAULT_MAX_STEPS = 50;

export interface OpenThreadOptions {
  platform: Platform;
  loaded: LoadedConfig;
  /** Replaces the built-in base instructions. */
  baseInstructions?: string;
  /** A recorded session to continue (its id). */
  resume?: string;
  /** Lines for stderr (warnings that arrive while no call is running). */
  log(line: string): void;
}

/**
 * One thread served over MCP: a Session (one per thread, for the life of the server) and the call
 * currently running a turn on it. The Session's event sink, approver and elicitation responder are
 * fixed when it opens, so they route to whichever call runs the turn: its progress, its approvals.
 */
export class ServedThread {
  #call: ServedToolCall | null = null;
  #running: Promise<TurnResult> | null = null;
  #session!: Session;

  private constructor(private readonly loaded: LoadedConfig, private readonly log: (line: string) => void) {}

  /** Opens the Session with `call` attached, so its start-up events reach that client. */
  static async open(options: OpenThreadOptions, call: ServedToolCall): Promise<ServedThread> {
    const thread = new ServedThread(options.loaded, options.log);
    thread.#call = call;
    try {
      thread.#session = await Session.open({
        platform: options.platform,
        loaded: options.loaded,
        events: thread.#events,
        approver: clientApprover(() => thread.#call),
        elicitation: clientElicitationResponder(() => thread.#call),
        watchSkills: true,
        ...(options.resume ? { resume: options.resume } : {}),
        ...(options.baseInstructions !== undefined ? { baseInstructions: options.baseInstructions } : {}),
      });
    } finally {
      thread.#call = null;
    }
    return thread;
  }

  get id(): string {
    return this.#session.threadId;
  }

  /** The thread's subagents so far (#22 item 6), as the interactive panel shows them. */
  subagents(): SubagentStatus[] {
    return this.#session.subagents();
  }

  get busy(): boolean {
    return this.#running !== null;
  }

  /** One turn for `call`; SessionStart hooks run before the thread's first turn in this server. */
  run(prompt: string, call: ServedToolCall): Promise<TurnResult> {
    if (this.#running) {
      throw new UsageError(
        `Cannot continue thread "${this.id}": a turn is already running on it; wait for its result or cancel that call`,
        { field: "threadId", threadId: this.id },
      );
    }
    this.#call = call;
    this.#running = this.#turn(prompt, call.signal).finally(() => {
      this.#call = null;
      this.#running = null;
    });
    return this.#running;
  }

  /** Waits for the running turn (aborted by then, at shutdown), then closes the Session. */
  async close(): Promise<void> {
    await this.#running?.catch(() => {});
    await this.#session.close();
  }

  async #turn(prompt: string, signal: AbortSignal): Promise<TurnResult> {
    const maxSteps = this.loaded.config.max_steps ?? DEFAULT_MAX_STEPS;
    return await this.#session.runTurn({ prompt, maxSteps, signal });
  }

  #events: EventSink = (event) => {
    const call = this.#call;
    if (call) forwardEvent(call, this.#session?.threadId ?? threadOf(event), event);
    else if (event.type === "warning") this.log(`warning: ${event.message}\n`);
  };
}

function threadOf(event: Parameters<EventSink>[0]): string | undefined {
  return event.type === "thread.started" ? event.thread_id : undefined;
}
