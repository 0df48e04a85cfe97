import type { RenderedCatalog } from "./render_catalog.ts";
import type { SkillsSnapshot } from "./types.ts";

export type HiddenReason = "disabled" | "not_implicit" | "over_budget" | "duplicate_name" | "duplicate_path";

export interface HiddenSkill {
  name: string;
  path: string;
  reason: HiddenReason;
  detail: string;
}

/**
 * Why a skill is not (fully) in the model-visible catalog, for `trellis skills doctor`. A duplicate
 * name stays in the catalog but cannot be selected by a bare `$name`, so it is reported too.
 */
export function hiddenSkills(snapshot: SkillsSnapshot, catalog: RenderedCatalog): HiddenSkill[] {
  const hidden: HiddenSkill[] = [];
  for (const skill of snapshot.skills) {
    const base = { name: skill.name, path: skill.path };
    if (!snapshot.isEnabled(skill)) {
      hidden.push({ ...base, reason: "disabled", detail: "disabled by [[skills.config]]" });
    } else if (!skill.policy.allowImplicitInvocation) {
      hidden.push({
        ...base,
        reason: "not_implicit",
        detail: "implicit invocation is off; select it explicitly with $name or --skill",
      });
    }
  }
  for (const o of catalog.stats.omitted) {
    hidden.push({
      ...o,
      reason: "over_budget",
      detail: "left out of the catalog: over the skills context budget",
    });
  }
  const enabled = snapshot.enabledSkills();
  for (const skill of enabled) {
    const others = enabled.filter((s) => s.name === skill.name && s !== skill);
    if (others.length === 0) continue;
    hidden.push({
      name: skill.name,
      path: skill.path,
      reason: "duplicate_name",
      detail: `same name as ${
        others.map((s) => s.path).join(", ")
      }; \`$${skill.name}\` selects neither, link by path`,
    });
  }
  for (const d of snapshot.duplicates) {
    hidden.push({
      name: "",
      path: d.path,
      reason: "duplicate_path",
      detail: `also reached through root ${d.root}; listed once, from ${d.keptRoot}`,
    });
  }
  return hidden;
}
