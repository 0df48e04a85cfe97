/**
 * The candidate one edit away from `word` (one letter added, dropped, changed, or two neighbours
 * swapped: `/stauts` → `status`), or null when none or more than one is. Local until the shared
 * `closestWord` of lib/shared lands; then this file goes.
 */
export function closestWord(word: string, candidates: readonly string[]): string | null {
  const near = candidates.filter((c) => c !== word && oneEdit(word, c));
  return near.length === 1 ? near[0] : null;
}

function oneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // one letter changed
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swapped
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}
