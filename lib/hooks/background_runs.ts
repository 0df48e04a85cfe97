import type { CommandResult } from "../platform/mod.ts";
import type { BackgroundResults, EventSink, StopOutcome } from "../shared/mod.ts";
import type { BackgroundRun, HookRunRecord } from "./dispatcher.ts";
import { readJsonOutput } from "./interpret_run.ts";

type Continuation = StopOutcome["continuations"][number];

/**
 * Background hook runs (HK-5), as Claude Code runs them: `async` ones never hold the turn and their
 * context reaches the model at the next step; an `asyncRewake` one that exits 2 wakes the model with
 * its stderr (or stdout), after its `rewakeMessage`, before the turn ends. Results wait here until
 * the loop takes them.
 */
export class BackgroundRuns {
  #running = new Set<Promise<void>>();
  #rewaking = new Set<Promise<void>>();
  #contexts: string[] = [];
  #wakes: Continuation[] = [];

  constructor(
    private readonly options: {
      events: EventSink;
      /** Model-visible text goes through the output budget (HK-15). */
      spill: (text: string) => Promise<string>;
      observe: (runs: HookRunRecord[]) => void;
    },
  ) {}

  track(run: BackgroundRun): void {
    const settled = run.done.then(({ record, result }) => this.#finish(run, record, result))
      .catch((error) => {
        // A sink or spill that throws must not become an unhandled rejection after the turn moved on.
        this.options.events({ type: "warning", message: `background hook ${run.handler.key}: ${error}` });
      });
    this.#running.add(settled);
    if (run.handler.rewake) this.#rewaking.add(settled);
    settled.finally(() => {
      this.#running.delete(settled);
      this.#rewaking.delete(settled);
    });
  }

  /** What finished since the last call; never waits. */
  take(): BackgroundResults {
    const taken = { contexts: this.#contexts, wakes: this.#wakes };
    this.#contexts = [];
    this.#wakes = [];
    return taken;
  }

  /** Waits for every running asyncRewake hook (one may start another), then takes the results. */
  async settleRewakes(): Promise<BackgroundResults> {
    while (this.#rewaking.size > 0) await Promise.all(this.#rewaking);
    return this.take();
  }

  /** Waits for every background run; they end on their own timeout, or when their turn was cancelled. */
  async close(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
  }

  async #finish(run: BackgroundRun, record: HookRunRecord, result: CommandResult): Promise<void> {
    this.options.observe([record]);
    const { effect } = record;
    if (effect.systemMessage !== undefined) {
      this.options.events({ type: "warning", message: effect.systemMessage, subject: run.handler.key });
    }
    if (effect.error === undefined) {
      for (const text of effect.additionalContexts) this.#contexts.push(await this.options.spill(text));
    }
    const rewake = run.handler.rewake;
    if (!rewake || result.code !== 2) return;
    const output = result.stderr.trim() || result.stdout.trim();
    if (output === "") return;
    const reason = [rewake.message?.trim(), output].filter((t) => t).join("\n\n");
    this.#wakes.push({ runId: run.runId, reason: await this.options.spill(reason) });
    const summary = runSummary(result.stdout) ?? rewake.summary;
    if (summary) this.options.events({ type: "notice", message: `${summary} (${run.handler.key})` });
  }
}

/** A run may override `rewakeSummary` in its first JSON line of stdout (Anthropic's security-guidance does). */
function runSummary(stdout: string): string | undefined {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  const json = readJsonOutput(text);
  const value = json.ok ? (json.value as { rewakeSummary?: unknown }) : undefined;
  return typeof value?.rewakeSummary === "string" ? value.rewakeSummary : undefined;
}
