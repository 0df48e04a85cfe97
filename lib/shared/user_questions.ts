/**
 * Questions a tool puts to the person at the terminal (request_user_input, #23 item 3): the
 * interactive mode answers them; `exec` has no one to ask, so the tool refuses there.
 */

/** One question with its choices, in Codex's request_user_input shape. */
export interface UserQuestion {
  id: string;
  header: string;
  question: string;
  options: { label: string; description: string }[];
}

/** The person's answer to one question: a choice's label, or their own words. */
export interface UserAnswer {
  id: string;
  answer: string;
}

export interface UserQuestioner {
  /** Resolves with one answer per question, or null when the person dismissed them. */
  ask(questions: UserQuestion[], signal: AbortSignal): Promise<UserAnswer[] | null>;
}
