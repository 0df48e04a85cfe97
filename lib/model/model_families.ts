/**
 * Context windows of known model families, so features that budget against the window (the skills
 * catalog's 2 %, SK-10) work without `model_context_window` in config, as Codex does. The figures
 * are Codex's own table (codex-rs `openai_model_info.rs`): the window a request may fill, i.e. for
 * the GPT-5 family 400,000 minus 128,000 reserved for output = 272,000. Config
 * `model_context_window` always wins; an unknown model has no known window (callers fall back).
 */

export interface ModelFamily {
  /** Matches a model slug: the exact name, or a prefix when it ends with `*`. */
  pattern: string;
  contextWindow: number;
  /**
   * The BPE encoding the family's models count tokens with (tiktoken's name), when it is public; a
   * model without one (Claude) is counted by an estimate (`trellis debug context`, #17 item 3).
   */
  tokenizer?: "o200k_base";
}

/** First match wins: exact names and longer prefixes come before the shorter prefixes they share. */
export const MODEL_FAMILIES: readonly ModelFamily[] = [
  { pattern: "gpt-oss-*", contextWindow: 96_000, tokenizer: "o200k_base" },
  { pattern: "o3*", contextWindow: 200_000, tokenizer: "o200k_base" },
  { pattern: "o4-mini*", contextWindow: 200_000, tokenizer: "o200k_base" },
  { pattern: "codex-mini-latest", contextWindow: 200_000, tokenizer: "o200k_base" },
  { pattern: "gpt-4.1*", contextWindow: 1_047_576, tokenizer: "o200k_base" },
  { pattern: "gpt-4o*", contextWindow: 128_000, tokenizer: "o200k_base" },
  { pattern: "gpt-3.5-turbo*", contextWindow: 16_385 },
  { pattern: "gpt-5*", contextWindow: 272_000, tokenizer: "o200k_base" },
  { pattern: "codex-*", contextWindow: 272_000, tokenizer: "o200k_base" },
  { pattern: "claude-*", contextWindow: 200_000 },
];

/**
 * The known context window of `model`, or undefined. A provider prefix (`openai/gpt-5`) is ignored,
 * so gateway-style names match too.
 */
export function knownContextWindow(model: string | undefined): number | undefined {
  return modelFamily(model)?.contextWindow;
}

/** The encoding `model` counts tokens with, when its family's is known and public. */
export function knownTokenizer(model: string | undefined): ModelFamily["tokenizer"] {
  return modelFamily(model)?.tokenizer;
}

function modelFamily(model: string | undefined): ModelFamily | undefined {
  if (!model) return undefined;
  const slug = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  for (const family of MODEL_FAMILIES) {
    const matches = family.pattern.endsWith("*")
      ? slug.startsWith(family.pattern.slice(0, -1))
      : slug === family.pattern;
    if (matches) return family;
  }
  return undefined;
}
