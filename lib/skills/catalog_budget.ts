import type { SkillMetadata } from "./types.ts";

/** SK-10: 2 % of the context window in tokens when known, else 8,000 characters. */
export type CatalogBudget = { kind: "tokens"; limit: number } | { kind: "characters"; limit: number };

export const DEFAULT_CATALOG_CHARS = 8_000;

export function catalogBudget(contextWindow?: number): CatalogBudget {
  if (contextWindow && contextWindow > 0) {
    return { kind: "tokens", limit: Math.max(1, Math.floor((contextWindow * 2) / 100)) };
  }
  return { kind: "characters", limit: DEFAULT_CATALOG_CHARS };
}

/**
 * Costs are counted in units: characters, or bytes for a token budget (≈ 4 bytes a token), so the
 * round-robin can hand out one character at a time in both modes.
 */
export interface CostModel {
  units: number;
  cost(text: string): number;
}

export function costModel(budget: CatalogBudget): CostModel {
  return budget.kind === "tokens"
    ? { units: budget.limit * 4, cost: utf8Length }
    : { units: budget.limit, cost: charLength };
}

// One native scan answers the common case (ASCII, or no astral characters) without a JS loop.
const NON_ASCII = /[\u0080-\uffff]/;
const LOW_SURROGATE = /[\udc00-\udfff]/;

/** Code points, without allocating an array per string (this runs for every catalog line). */
export function charLength(text: string): number {
  if (!LOW_SURROGATE.test(text)) return text.length;
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) count--;
  }
  return count;
}

function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export interface CatalogEntry {
  skill: SkillMetadata;
  description: string;
  locator: string;
}

export interface LinePlan {
  lines: string[];
  included: number;
  omitted: SkillMetadata[];
  truncated: { skill: SkillMetadata; removedChars: number }[];
  truncatedChars: number;
  cost: number;
}

const minLine = (e: CatalogEntry) => `- ${e.skill.name}: (file: ${e.locator})`;
const fullLine = (e: CatalogEntry, d: string) => `- ${e.skill.name}: ${d} (file: ${e.locator})`;

/** Codex's degradation: all full lines → shared descriptions (round-robin) → minimum lines while they fit. */
export function planLines(entries: CatalogEntry[], units: number, model: CostModel): LinePlan {
  // `- {name}: (file: {locator})` + newline, costed without building the string (5,000-skill catalogs).
  const mins = entries.map((e) => model.cost(e.skill.name) + model.cost(e.locator) + 13);
  const minTotal = mins.reduce((a, b) => a + b, 0);
  const base = { omitted: [], truncated: [], truncatedChars: 0 };
  if (minTotal > units) return minimumLines(entries, mins, units);
  const fullTotal = entries.reduce(
    (sum, e) => sum + (e.description ? model.cost(e.description) + 1 : 0),
    minTotal,
  );
  if (fullTotal <= units) {
    const lines = entries.map((e) => (e.description ? fullLine(e, e.description) : minLine(e)));
    return { ...base, lines, included: entries.length, cost: fullTotal };
  }
  return shareDescriptions(entries, units - minTotal, model, minTotal);
}

/** Minimum lines in priority order while they fit; a line that does not fit is skipped, not the rest. */
function minimumLines(entries: CatalogEntry[], mins: number[], units: number): LinePlan {
  const lines: string[] = [];
  const omitted: SkillMetadata[] = [];
  const truncated: LinePlan["truncated"] = [];
  let cost = 0;
  entries.forEach((e, i) => {
    if (cost + mins[i] > units) {
      omitted.push(e.skill);
      return;
    }
    lines.push(minLine(e));
    cost += mins[i];
    if (e.description) truncated.push({ skill: e.skill, removedChars: charLength(e.description) });
  });
  const truncatedChars = truncated.reduce((a, t) => a + t.removedChars, 0);
  return { lines, included: lines.length, omitted, truncated, truncatedChars, cost };
}

/** Hands out the leftover one description character per skill per round; short ones finish early. */
function shareDescriptions(
  entries: CatalogEntry[],
  spare: number,
  model: CostModel,
  minTotal: number,
): LinePlan {
  let leftover = spare;
  const chars = entries.map((e) => [...e.description]);
  const taken = entries.map(() => 0);
  let active = entries.map((_, i) => i).filter((i) => chars[i].length > 0);
  while (active.length > 0 && leftover > 0) {
    const still: number[] = [];
    for (const i of active) {
      const c = model.cost(chars[i][taken[i]]) + (taken[i] === 0 ? 1 : 0);
      if (c > leftover) continue;
      leftover -= c;
      taken[i]++;
      if (taken[i] < chars[i].length) still.push(i);
    }
    active = still;
  }
  const truncated: LinePlan["truncated"] = [];
  const lines = entries.map((e, i) => {
    const removedChars = chars[i].length - taken[i];
    if (removedChars > 0) truncated.push({ skill: e.skill, removedChars });
    const prefix = chars[i].slice(0, taken[i]).join("").trimEnd();
    return prefix ? fullLine(e, prefix) : minLine(e);
  });
  const truncatedChars = truncated.reduce((a, t) => a + t.removedChars, 0);
  return {
    lines,
    included: entries.length,
    omitted: [],
    truncated,
    truncatedChars,
    cost: minTotal + spare - leftover,
  };
}
