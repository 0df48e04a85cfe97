import { distance } from "fastest-levenshtein";

/**
 * The one candidate a mistyped word most likely meant, for "did you mean …?" (a command word, a
 * config key, a slash command): one edit away (an insertion, a deletion, a substitution) or two
 * neighbouring letters swapped (`exce` → `exec`). Anything farther is not suggested — a prompt such as
 * `trellis confirm the build` must not read as a typo of `config`. Undefined when no candidate, or
 * more than one, is that close, or the word is shorter than three characters.
 */
export function closestWord(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length < 3) return undefined;
  const close = [...new Set(candidates)].filter((c) =>
    c !== word && (distance(word, c) <= 1 || swapped(word, c))
  );
  return close.length === 1 ? close[0] : undefined;
}

/** True when `b` is `a` with two neighbouring characters exchanged. */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff: number[] = [];
  for (let i = 0; i < a.length && diff.length <= 2; i++) if (a[i] !== b[i]) diff.push(i);
  return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] &&
    a[diff[1]] === b[diff[0]];
}
