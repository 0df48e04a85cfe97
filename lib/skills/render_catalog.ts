import * as path from "node:path";
import { sanitizeSingleLine } from "./frontmatter.ts";
import {
  type CatalogBudget,
  catalogBudget,
  type CatalogEntry,
  costModel,
  type LinePlan,
  planLines,
} from "./catalog_budget.ts";
import { CATALOG_INTRO_ABSOLUTE, CATALOG_INTRO_ALIASED, CATALOG_USAGE } from "./catalog_text.ts";
import type { SkillMetadata, SkillScope, SkillsSnapshot } from "./types.ts";

export interface CatalogStats {
  budget: CatalogBudget;
  /** Enabled skills that allow implicit invocation. */
  candidates: number;
  included: number;
  omitted: { name: string; path: string }[];
  truncated: { name: string; path: string; removedChars: number }[];
  truncatedChars: number;
  /** Number of root aliases used (0 = absolute paths). */
  aliases: number;
  /** Units spent (characters, or bytes for a token budget) out of `budgetUnits`. */
  usedUnits: number;
  budgetUnits: number;
}

export interface RenderedCatalog {
  /** The `<skills_instructions>` developer message, or null when there is nothing to show. */
  text: string | null;
  warnings: string[];
  stats: CatalogStats;
}

/** Budget order (not the SK-2 order): System, Admin, Repo, User, then name and path. */
const BUDGET_RANK: Record<SkillScope, number> = { system: 0, admin: 1, repo: 2, user: 3 };

/** Renders the model-visible catalog within its budget (SK-10/11), degrading and warning as Codex does. */
export function renderSkillsCatalog(
  snapshot: SkillsSnapshot,
  options: { contextWindow?: number; includeInstructions?: boolean } = {},
): RenderedCatalog {
  const budget = catalogBudget(options.contextWindow);
  const model = costModel(budget);
  const skills = snapshot.enabledSkills().filter((s) => s.policy.allowImplicitInvocation).sort(budgetOrder);
  const absolute = planLines(entries(skills, (s) => slashes(s.path)), model.units, model);
  let plan = absolute;
  let table: string[] = [];
  if (absolute.omitted.length > 0 || absolute.truncatedChars > 0) {
    const alias = aliasPlan(skills, model.units, model);
    if (alias && better(alias.plan, absolute)) ({ plan, table } = alias);
  }
  const stats = statsOf(budget, skills.length, plan, table.length, model.units);
  if (skills.length === 0 || options.includeInstructions === false) {
    return { text: null, warnings: [], stats };
  }
  return { text: layout(plan.lines, table), warnings: warningsOf(stats), stats };
}

function aliasPlan(skills: SkillMetadata[], units: number, model: ReturnType<typeof costModel>) {
  const aliases = new Map<string, string>();
  const locators = skills.map((s) => {
    const root = s.path.startsWith(s.root + path.sep) ? s.root : path.dirname(s.dir);
    let alias = aliases.get(root);
    if (alias === undefined) aliases.set(root, alias = `r${aliases.size}`);
    return `${alias}/${slashes(s.path.slice(root.length + 1))}`;
  });
  const table = [...aliases].map(([root, alias]) => `- \`${alias}\` = \`${slashes(root)}\``);
  const tableCost = table.reduce((a, line) => a + model.cost(line) + 1, 0);
  if (tableCost >= units) return null;
  const plan = planLines(entries(skills, (_, i) => locators[i]), units - tableCost, model);
  return { plan: { ...plan, cost: plan.cost + tableCost }, table };
}

function better(alias: LinePlan, absolute: LinePlan): boolean {
  if (alias.included !== absolute.included) return alias.included > absolute.included;
  if (alias.truncatedChars !== absolute.truncatedChars) return alias.truncatedChars < absolute.truncatedChars;
  return alias.cost < absolute.cost;
}

function entries(skills: SkillMetadata[], locate: (s: SkillMetadata, i: number) => string): CatalogEntry[] {
  // Loaded descriptions are already single-line; only hand-built metadata needs the normalisation.
  return skills.map((skill, i) => ({
    skill,
    description: /^\S(?:.*\S)?$|^$/.test(skill.description) && !/\s\s|[\n\r\t]/.test(skill.description)
      ? skill.description
      : sanitizeSingleLine(skill.description),
    locator: locate(skill, i),
  }));
}

function layout(lines: string[], table: string[]): string {
  const body = [
    "## Skills",
    table.length > 0 ? CATALOG_INTRO_ALIASED : CATALOG_INTRO_ABSOLUTE,
    ...(table.length > 0 ? ["### Skill roots", ...table] : []),
    "### Available skills",
    ...lines,
    "### How to use skills",
    ...CATALOG_USAGE,
  ];
  return `<skills_instructions>\n${body.join("\n")}\n</skills_instructions>`;
}

function warningsOf(stats: CatalogStats): string[] {
  const pct = stats.budget.kind === "tokens";
  const n = stats.omitted.length;
  if (n > 0) {
    return [
      `Exceeded skills context budget${pct ? " of 2%" : ""}. All skill descriptions were removed and ${n} ` +
      `additional skill${n === 1 ? " was" : "s were"} not included in the model-visible skills list.`,
    ];
  }
  const warnings: string[] = [];
  if (stats.truncated.length > 0) {
    warnings.push(
      `Skill descriptions were shortened to fit the ${pct ? "2% " : ""}skills context budget ` +
        `(${stats.truncated.length} of ${stats.included} descriptions, ${stats.truncatedChars} characters removed). ` +
        "Trellis can still see every skill, but some descriptions are shorter. Disable unused skills or " +
        "plugins to leave more room for the rest.",
    );
  }
  if (stats.aliases > 0) {
    warnings.push(
      `Skill file paths were shortened with ${stats.aliases} root alias${
        stats.aliases === 1 ? "" : "es"
      } to fit the skills context budget.`,
    );
  }
  return warnings;
}

function statsOf(
  budget: CatalogBudget,
  candidates: number,
  plan: LinePlan,
  aliases: number,
  units: number,
): CatalogStats {
  return {
    budget,
    candidates,
    included: plan.included,
    omitted: plan.omitted.map((s) => ({ name: s.name, path: s.path })),
    truncated: plan.truncated.map((t) => ({
      name: t.skill.name,
      path: t.skill.path,
      removedChars: t.removedChars,
    })),
    truncatedChars: plan.truncatedChars,
    aliases,
    usedUnits: plan.cost,
    budgetUnits: units,
  };
}

function budgetOrder(a: SkillMetadata, b: SkillMetadata): number {
  return BUDGET_RANK[a.scope] - BUDGET_RANK[b.scope] || cmp(a.name, b.name) || cmp(a.path, b.path);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function slashes(p: string): string {
  return p.replaceAll("\\", "/");
}
