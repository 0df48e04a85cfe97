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
export { DEFAULT_WATCH_THROTTLE_MS, skillsConfigKey, skillsInputFromConfig } from "./skills_input.ts";
export type { PluginSkillRoot, SkillRuleInput, SkillsInput, SkillsInputExtra } from "./skills_input.ts";
export { expandCommandBody } from "./command_arguments.ts";
export { parseCommandText } from "./command_files.ts";
export { splitToolList } from "./tool_list.ts";
export { loadSkillsSnapshot } from "./load_skills_snapshot.ts";
export { compareSkills, makeSnapshot } from "./snapshot.ts";
export type { SnapshotParts } from "./snapshot.ts";
export { renderSkillsCatalog } from "./render_catalog.ts";
export type { CatalogStats, RenderedCatalog } from "./render_catalog.ts";
export { catalogBudget } from "./catalog_budget.ts";
export type { CatalogBudget } from "./catalog_budget.ts";
export { selectSkills } from "./select_skills.ts";
export type { SkillSelection, SkillSelectionInput } from "./select_skills.ts";
export type { MissingMcpDependency } from "./mcp_dependencies.ts";
export { detectImplicitUse, implicitUseKey } from "./implicit_use.ts";
export type { ObservedCommand } from "./implicit_use.ts";
export { looksLikePath, resolveSkillRef } from "./resolve_skill.ts";
export type { SkillLookup } from "./resolve_skill.ts";
export { readSkillBody, skillMessage } from "./skill_body.ts";
export { hiddenSkills } from "./hidden_skills.ts";
export type { HiddenReason, HiddenSkill } from "./hidden_skills.ts";
export { parseSkillText } from "./skill_text.ts";
export type { ParsedSkillText, SkillTextResult } from "./skill_text.ts";
export { extractFrontmatter, sanitizeSingleLine } from "./frontmatter.ts";
export { parseOpenAiYaml } from "./openai_yaml.ts";
export { type FullYamlParse, loadYamlParser } from "./yaml_library.ts";
export type { OpenAiYaml } from "./openai_yaml.ts";
export { parseSkillMentions } from "./mentions.ts";
export type { SkillMentions } from "./mentions.ts";
export { SCAN_LIMITS } from "./discovery.ts";
export { BUNDLED_SKILLS } from "./bundled_skill_files.ts";
export type { SkillsWatchHandle, SkillsWatchOptions } from "./watcher.ts";
export type {
  SkillCommand,
  SkillDuplicate,
  SkillExtraFields,
  SkillInterface,
  SkillLoadError,
  SkillMetadata,
  SkillOrigin,
  SkillPluginRef,
  SkillPolicy,
  SkillRootKind,
  SkillRootReport,
  SkillRootSpec,
  SkillRootStatus,
  SkillScope,
  SkillsSnapshot,
  SkillToolDependency,
} from "./types.ts";
export { skillOrigin } from "./types.ts";
