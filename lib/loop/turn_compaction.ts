import type { ConversationItem, ToolDeclaration, Usage } from "../shared/mod.ts";
import { addUsage, CancelledError, emptyUsage } from "../shared/mod.ts";
import { type ContextMeter, estimateRequestTokens } from "./context_meter.ts";
import { applyCompaction, type CompactionRecord } from "./compacted_history.ts";
import {
  compactConversation,
  type CompactionPorts,
  type CompactionSettings,
  fixedPartWarning,
  fixedRequestTokens,
  reachedAutoLimit,
} from "./compaction.ts";

/** What a session gives a turn so the conversation can outgrow the context window (#15 item 6). */
export interface TurnCompaction {
  /** The context's size, kept across turns by the session. */
  meter: ContextMeter;
  settings: CompactionSettings;
  /** Writes a compaction to the transcript and replaces the transcript's history with its result. */
  persist: (record: CompactionRecord) => Promise<void>;
  /**
   * The context blocks (skills catalog, plugin summaries) a compaction in the middle of a turn keeps
   * before the turn's prompt: the next turn would add them again, this one would not.
   */
  contextBlocks?: (history: readonly ConversationItem[]) => ConversationItem[];
}

/** The session's ports a compaction uses; the turn hands out a fresh item id for each one. */
type TurnCompactorPorts =
  & Pick<
    CompactionPorts,
    "model" | "modelName" | "instructions" | "hooks" | "hookContext" | "events" | "record"
  >
  & { nextItemId: () => string };

/**
 * Checks the context's size before each sampling of a turn and compacts automatically once it
 * reaches the threshold (Codex: between steps, when the turn needs a follow-up). After a compaction
 * that failed, or left the context still over the threshold, it does not try again in this turn:
 * the model's own error (the window exceeded) then ends the turn, not a loop of summaries.
 */
export class TurnCompactor {
  private off = false;
  /** Context recorded after the turn's prompt (hook contexts, skill bodies), kept by a compaction. */
  readonly afterPrompt: ConversationItem[] = [];
  usage: Usage = emptyUsage();

  constructor(
    private readonly compaction: TurnCompaction,
    private readonly ports: TurnCompactorPorts,
  ) {}

  /** Compacts `conversation` in place when it reached the threshold; throws when cancelled. */
  async beforeSampling(conversation: ConversationItem[], tools: ToolDeclaration[]): Promise<void> {
    const { meter, settings } = this.compaction;
    meter.tools = tools;
    if (this.off || settings.autoLimit === null) return;
    const tokens = meter.tokens(() =>
      estimateRequestTokens({ instructions: this.ports.instructions, input: conversation, tools })
    );
    if (!reachedAutoLimit(settings, tokens)) return;
    const fixed = fixedRequestTokens(this.ports.instructions, tools);
    if (reachedAutoLimit(settings, fixed)) {
      // A summary only shortens the history: asking for one would cost a request and leave the
      // request as large (a tool with a 1 MB schema, an unknown model's small fallback window).
      this.off = true;
      this.ports.events({ type: "warning", message: fixedPartWarning(fixed, settings) });
      return;
    }
    const result = await compactConversation({
      ...this.ports,
      meter,
      settings,
      itemId: this.ports.nextItemId(),
      apply: async (record) => {
        await this.compaction.persist(record);
        conversation.splice(0, conversation.length, ...applyCompaction(conversation, record));
      },
    }, {
      trigger: "auto",
      history: [...conversation],
      tokensBefore: tokens,
      tools,
      beforeLastUser: this.compaction.contextBlocks?.(conversation) ?? [],
      afterLastUser: this.afterPrompt,
    });
    this.usage = addUsage(this.usage, result.usage);
    if (this.ports.hookContext.signal.aborted) throw new CancelledError();
    if (result.status !== "compacted") this.off = true;
    else if (reachedAutoLimit(settings, result.tokensAfter)) {
      this.off = true;
      this.ports.events({
        type: "warning",
        message: `the context still takes about ${result.tokensAfter} tokens after compacting ` +
          `(model_auto_compact_token_limit ${settings.autoLimit}); it is not compacted again in this turn`,
      });
    }
  }
}
