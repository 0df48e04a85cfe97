/**
 * The texts of a compaction, in Codex's roles (templates/compact/prompt.md, summary_prefix.md),
 * written for Trellis: the request that asks the session's model for a handoff summary, and the
 * preface of the user message that carries the summary into the new history.
 */

/** The summarization request's last user message (`compact_prompt` in config replaces it). */
export const SUMMARIZATION_PROMPT = `Context compaction: this conversation is about to be replaced by \
the summary you write now, so that the work can go on in a smaller context. Write a handoff summary \
for the model that will continue without the earlier messages. Cover:
- the user's goal, and the constraints and preferences they stated;
- what has been done so far, the decisions made and why;
- the files, commands, names, values and errors that matter for what comes next;
- what remains to be done, starting with the next step.
Be concise and structured. Reply with the summary only; do not call tools.`;

/** Opens the user message that carries a summary; also how a summary is recognized later. */
export const SUMMARY_PREFIX = `The conversation before this point was compacted. The user messages \
above are its most recent requests, kept as written; the summary below stands for everything else. \
Build on it and do not redo work it reports as done.`;

/** The summarization request's prompt, with a manual compaction's own instructions appended. */
export function summarizationPrompt(base: string, instructions?: string): string {
  const extra = instructions?.trim();
  return extra ? `${base}\n\nAdditional instructions for this summary:\n${extra}` : base;
}

export function summaryMessageText(summary: string): string {
  return `${SUMMARY_PREFIX}\n\n${summary}`;
}

export function isSummaryMessage(content: string): boolean {
  return content.startsWith(`${SUMMARY_PREFIX}\n`);
}
