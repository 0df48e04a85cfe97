import { knownTokenizer } from "../model/mod.ts";
import { TrellisError } from "../shared/mod.ts";

/** How a ledger counts tokens: the model's own encoding, or a labelled estimate. */
export interface TokenCounter {
  /** "o200k_base" (exact) or "estimate" (characters / 4). */
  encoding: "o200k_base" | "estimate";
  count(text: string): number;
  /** Why the model's encoding is not used although it has one (it failed to load). */
  warning?: string;
}

/** What the encoding module offers; `gpt-tokenizer/encoding/o200k_base` exports it. */
interface EncodingModule {
  countTokens(text: string): number;
}

/** Characters per token of the estimate: the usual figure for English text and code. */
const CHARS_PER_TOKEN = 4;

/**
 * Above this many characters a text is counted in pieces. gpt-tokenizer's BPE merge is quadratic in
 * the length of one pre-tokenized piece: 16,000 `x` take 63 ms, 1,000,000 took 466 s (measured on
 * the 2-core bench machine), so a 1 MB tool schema made of one long run would hang the command.
 */
const PIECE_CHARS = 2_000;

/** The estimate for models whose encoding is unknown or could not load. */
export const ESTIMATE: TokenCounter = {
  encoding: "estimate",
  count: (text) => Math.ceil(text.length / CHARS_PER_TOKEN),
};

/** Loads the o200k_base encoding: the only import of gpt-tokenizer, made when a ledger is asked for. */
export type EncodingImport = () => Promise<EncodingModule>;

const importO200k: EncodingImport = () => import("gpt-tokenizer/encoding/o200k_base");

/**
 * The counter for `model`: its family's encoding (lib/model/model_families.ts) loaded with a dynamic
 * import — only `debug context` and `/context` pay for the 2.4 MB of BPE ranks — else the estimate.
 * `importEncoding` replaces the import: tests hand it one that really fails, to see the fallback.
 */
export async function loadTokenCounter(
  model: string | undefined,
  importEncoding: EncodingImport = importO200k,
): Promise<TokenCounter> {
  if (knownTokenizer(model) !== "o200k_base") return ESTIMATE;
  let encoding: EncodingModule;
  try {
    encoding = await importEncoding();
    if (typeof encoding.countTokens !== "function") {
      throw new TrellisError("internal", "it has no countTokens function", { field: "countTokens" });
    }
  } catch (error) {
    const cause = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return {
      ...ESTIMATE,
      warning: `the o200k_base tokenizer of ${model} failed to load (${cause}); counts are estimates`,
    };
  }
  return { encoding: "o200k_base", count: (text) => countInPieces(text, encoding) };
}

/**
 * Sums the counts of pieces no longer than PIECE_CHARS. A cut is made only between a letter and a
 * space followed by a letter, where o200k_base's pre-tokenizer splits anyway (`foo| bar`), so the sum
 * equals the whole text's count; a run with no such place within PIECE_CHARS is cut hard, which may
 * move the count by a token at that cut.
 */
export function countInPieces(text: string, encoding: EncodingModule): number {
  if (text.length <= PIECE_CHARS) return encoding.countTokens(text);
  let total = 0;
  let start = 0;
  while (text.length - start > PIECE_CHARS) {
    let cut = start + PIECE_CHARS;
    while (cut > start + 1 && !wordBoundary(text, cut)) cut--;
    if (cut <= start + 1) cut = start + PIECE_CHARS;
    total += encoding.countTokens(text.slice(start, cut));
    start = cut;
  }
  return total + encoding.countTokens(text.slice(start));
}

const LETTER = /\p{L}/u;

/** `text[i]` is a space between two letters: the pre-tokenizer ends a word piece there. */
function wordBoundary(text: string, i: number): boolean {
  return text[i] === " " && LETTER.test(text[i - 1]) && i + 1 < text.length && LETTER.test(text[i + 1]);
}
