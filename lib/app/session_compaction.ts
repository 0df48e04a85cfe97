import type { TrellisConfig } from "../config/mod.ts";
import {
  compactConversation,
  type CompactionResult,
  type CompactionSettings,
  ContextMeter,
  estimateRequestTokens,
  fixedRequestTokens,
  type ModelClient,
  reachedAutoLimit,
  type Transcript,
  type TurnCompaction,
} from "../loop/mod.ts";
import type { ConversationItem, EventSink, HookTurnContext, LifecycleHooks } from "../shared/mod.ts";
import { compactionSettings, FALLBACK_CONTEXT_WINDOW, knownContextWindow } from "./compaction_settings.ts";
import { latestContextBlocks } from "./turn_context.ts";

/**
 * A session's long-conversation state (#15 item 6): the context's size across turns, and the
 * compactions it runs — by hand, before a turn, or (through `forTurn()`) between a turn's steps.
 */
export class SessionCompaction {
  readonly meter = new ContextMeter();
  readonly settings: CompactionSettings;
  private count = 0;

  constructor(
    private readonly config: TrellisConfig,
    private readonly deps: {
      threadId: string;
      transcript: Transcript;
      model: ModelClient;
      /** The session's model now (`/model` applies to the next compaction too). */
      modelName: () => string;
      instructions: string;
      hooks: LifecycleHooks;
      events: EventSink;
      hookContext: () => Omit<HookTurnContext, "turnId" | "signal">;
    },
  ) {
    this.settings = compactionSettings(config);
  }

  /** The meter's figure: the model's last report plus what came since, else an estimate. */
  tokens(): number {
    return this.meter.tokens(() =>
      estimateRequestTokens({
        instructions: this.deps.instructions,
        input: this.deps.transcript.items,
        tools: this.meter.tools,
      })
    );
  }

  context(): {
    tokens: number;
    autoCompactTokenLimit: number | null;
    contextWindow: number;
    windowAssumed: boolean;
  } {
    const known = knownContextWindow(this.config);
    return {
      tokens: this.tokens(),
      autoCompactTokenLimit: this.settings.autoLimit,
      contextWindow: known ?? FALLBACK_CONTEXT_WINDOW,
      windowAssumed: known === null,
    };
  }

  /** Records an item the session adds itself (SessionStart contexts), counted by the meter. */
  async recordItem(item: ConversationItem): Promise<void> {
    this.meter.add(item);
    await this.deps.transcript.recordItem(item);
  }

  /** What a turn needs to compact between its steps. */
  forTurn(): TurnCompaction {
    return {
      meter: this.meter,
      settings: this.settings,
      persist: (record) => this.deps.transcript.recordCompaction(record),
      contextBlocks: latestContextBlocks,
    };
  }

  /**
   * Before a turn starts (Codex's pre-sampling compaction): the history with the new prompt would
   * reach the threshold. Compacting here, not in the turn, lets the turn add its context blocks anew.
   */
  async beforeTurn(turnId: string, prompt: string, signal: AbortSignal): Promise<void> {
    const promptTokens = estimateRequestTokens({
      instructions: "",
      input: [{ type: "message", role: "user", content: prompt }],
    });
    if (!reachedAutoLimit(this.settings, this.tokens() + promptTokens)) return;
    // Over the limit without any history: a summary cannot help (the turn's check says so).
    if (reachedAutoLimit(this.settings, fixedRequestTokens(this.deps.instructions, this.meter.tools))) return;
    await this.compact({ trigger: "auto", signal, turnId });
  }

  /** One compaction of the transcript's history; `turnId` defaults to one of its own. */
  async compact(
    request: { trigger: "manual" | "auto"; signal: AbortSignal; turnId?: string; instructions?: string },
  ): Promise<CompactionResult> {
    const { threadId, transcript } = this.deps;
    this.count++;
    return await compactConversation({
      model: this.deps.model,
      modelName: this.deps.modelName(),
      instructions: this.deps.instructions,
      hooks: this.deps.hooks,
      hookContext: {
        ...this.deps.hookContext(),
        turnId: request.turnId ?? `${threadId}-compact${this.count}`,
        signal: request.signal,
      },
      events: this.deps.events,
      meter: this.meter,
      settings: this.settings,
      apply: (record) => transcript.recordCompaction(record),
      record: (item) => this.recordItem(item),
      itemId: `item_${threadId}_compaction${this.count}`,
    }, {
      trigger: request.trigger,
      history: [...transcript.items],
      tokensBefore: this.tokens(),
      tools: this.meter.tools,
      ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
    });
  }
}
