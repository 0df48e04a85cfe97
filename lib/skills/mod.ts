/**
 * Skills (SPEC §3): roots, bounded discovery, frontmatter parsing, cached immutable snapshots, the
 * budgeted `<skills_instructions>` catalog, explicit selection and injection, implicit-use
 * detection and a throttled native watcher. Discover, load and inject are separate steps: a
 * discovered skill has not entered the prompt.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../config/mod.ts";
 * import { platform } from "../platform/mod.ts";
 * import { createSkillsService, renderSkillsCatalog, selectSkills, skillsInputFromConfig } from "./mod.ts";
 *
 * const loaded = await loadConfig(platform.fs, { cwd: platform.cwd(), env: platform.env });
 * const input = skillsInputFromConfig(loaded, { pluginRoots: [] });
 * const service = createSkillsService({ platform });
 * const snapshot = await service.snapshot(input);
 * const catalog = renderSkillsCatalog(snapshot, input.catalog); // developer message text or null
 * const chosen = await selectSkills(snapshot, { texts: ["use $skill-creator"], structured: [] }, platform.fs);
 * ```
 * @module
 */
export { createSkillsService } from "./skills_service.ts";
export type { SkillsService } from "./skills_service.ts";
export { skillsInputFromConfig } from "./skills_input.ts";
export type { PluginSkillRoot, SkillsInput } from "./skills_input.ts";
export { expandCommandBody } from "./command_arguments.ts";
export { loadSkillsSnapshot } from "./load_skills_snapshot.ts";
export { makeSnapshot } from "./snapshot.ts";
export { renderSkillsCatalog } from "./render_catalog.ts";
export { catalogBudget } from "./catalog_budget.ts";
export { selectSkills } from "./select_skills.ts";
export type { ShellRun, ShellRunner } from "./gemini_injections.ts";
export { detectImplicitUse, implicitUseKey } from "./implicit_use.ts";
export { resolveSkillRef } from "./resolve_skill.ts";
export { readSkillBody, skillMessage } from "./skill_body.ts";
export { hiddenSkills } from "./hidden_skills.ts";
export { parseSkillText } from "./skill_text.ts";
export { extractFrontmatter, sanitizeSingleLine } from "./frontmatter.ts";
export { parseSkillMentions } from "./mentions.ts";
export type { SkillMetadata, SkillRootSpec, SkillScope, SkillsSnapshot } from "./types.ts";
export { skillOrigin } from "./types.ts";
