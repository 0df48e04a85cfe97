import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import type { SkillRuleInput } from "./skills_input.ts";
import type { SkillMetadata } from "./types.ts";

type Rule = { selector: { path: string } | { name: string }; enabled: boolean };

/**
 * Applies `[[skills.config]]` rules in order (lowest precedence first; a later rule with the same
 * selector replaces the earlier one). A path rule toggles that file, a name rule every skill of that
 * name. Returns the SKILL.md paths left disabled.
 */
export async function applySkillRules(
  fs: FileSystem,
  rules: readonly SkillRuleInput[],
  skills: readonly SkillMetadata[],
  cwd: string,
): Promise<{ disabled: Set<string>; warnings: string[] }> {
  const warnings: string[] = [];
  const ordered: (Rule & { key: string })[] = [];
  for (const rule of rules) {
    const normal = await normalize(fs, rule, cwd);
    if (typeof normal === "string") {
      warnings.push(`Ignored [[skills.config]] entry in ${rule.source}: ${normal}`);
      continue;
    }
    const key = JSON.stringify(normal.selector);
    const earlier = ordered.findIndex((r) => r.key === key);
    if (earlier >= 0) ordered.splice(earlier, 1);
    ordered.push({ ...normal, key });
  }
  const disabled = new Set<string>();
  for (const rule of ordered) {
    const hit = "path" in rule.selector
      ? skills.filter((s) => s.path === (rule.selector as { path: string }).path)
      : skills.filter((s) => s.name === (rule.selector as { name: string }).name);
    for (const skill of hit) {
      if (rule.enabled) disabled.delete(skill.path);
      else disabled.add(skill.path);
    }
  }
  return { disabled, warnings };
}

async function normalize(fs: FileSystem, rule: SkillRuleInput, cwd: string): Promise<Rule | string> {
  const hasPath = rule.path !== undefined;
  const hasName = rule.name !== undefined;
  if (hasPath && hasName) return "set either `path` or `name`, not both";
  if (!hasPath && !hasName) return "set `path` or `name`";
  if (hasName) {
    const name = rule.name!.trim();
    return name === "" ? "`name` is blank" : { selector: { name }, enabled: rule.enabled };
  }
  const abs = path.resolve(cwd, rule.path!);
  const canonical = await fs.realPath(abs).catch(() => abs);
  return { selector: { path: canonical }, enabled: rule.enabled };
}
