import {
  extractFrontmatter,
  hiddenSkills,
  readSkillBody,
  renderSkillsCatalog,
  resolveSkillRef,
  type SkillMetadata,
  skillOrigin,
  type SkillsSnapshot,
} from "../skills/mod.ts";
import { UsageError } from "../shared/mod.ts";
import type { Workspace } from "./workspace.ts";

/**
 * What `trellis skills list|show|doctor` report (issue #26 item 2): each function is one command's
 * work on the workspace's skills, returning the data its `--json` prints; lib/cli only formats it.
 */

/** One skill as `skills list` shows it. */
export interface SkillRow {
  name: string;
  description: string;
  scope: string;
  /** Whose files it came from: Trellis's, a Codex or Claude Code user's, or the shared `.agents/`. */
  origin: string;
  path: string;
  enabled: boolean;
  implicit: boolean;
  plugin: string | null;
  kind?: "command";
  argumentHint?: string | null;
  allowedTools?: unknown;
}

/** The loader's problems, as every skills report carries them. */
export interface SkillProblems {
  errors: SkillsSnapshot["errors"];
  warnings: SkillsSnapshot["warnings"];
}

export interface SkillsListReport extends SkillProblems {
  skills: SkillRow[];
  /** The catalog's own warnings (descriptions shortened, skills omitted): the model sees the same. */
  catalogWarnings: string[];
}

/** `skills list [--all]`: the enabled skills (every one with `all`). */
export async function skillsListReport(
  ws: Workspace,
  options: { all?: boolean } = {},
): Promise<SkillsListReport> {
  const { input, snapshot } = await ws.skills();
  const skills = snapshot.skills.filter((s) => options.all || snapshot.isEnabled(s)).map((s) =>
    skillRow(snapshot, s)
  );
  const catalogWarnings = renderSkillsCatalog(snapshot, input.catalog).warnings;
  return { skills, errors: snapshot.errors, warnings: snapshot.warnings, catalogWarnings };
}

function skillRow(snapshot: SkillsSnapshot, s: SkillMetadata): SkillRow {
  const kind = snapshot.roots.find((r) => r.path === s.root)?.kind ?? "extra";
  return {
    name: s.name,
    description: s.description,
    scope: s.scope,
    origin: skillOrigin(kind, s.plugin),
    path: s.path,
    enabled: snapshot.isEnabled(s),
    implicit: s.policy.allowImplicitInvocation,
    plugin: s.plugin?.id ?? null,
    ...(s.command ? { kind: "command" as const, argumentHint: s.command.argumentHint ?? null } : {}),
    ...(s.extra.allowedTools ? { allowedTools: s.extra.allowedTools } : {}),
  };
}

/** `skills show NAME|PATH`: one skill's metadata, whether it is enabled, and its body. */
export async function showSkill(
  ws: Workspace,
  ref: string,
): Promise<{ skill: SkillMetadata; enabled: boolean; body: string }> {
  const { snapshot } = await ws.skills();
  const fs = ws.platform.fs;
  const found = await resolveSkillRef(fs, snapshot, ref, snapshot.skills);
  if (found.kind === "ambiguous") {
    const paths = found.matches.map((s) => s.path).join(", ");
    throw new UsageError(`Cannot show skill "${ref}": several skills have this name (${paths}); give a path`);
  }
  if (found.kind === "not_found") {
    const error = snapshot.errors.find((e) => e.path.endsWith(ref) || e.path.endsWith(`${ref}/SKILL.md`));
    const why = error ? `it failed to load: ${error.message}` : "no skill with this name or path";
    throw new UsageError(`Cannot show skill "${ref}": ${why}`, { file: error?.path });
  }
  const skill = found.skill;
  const read = await readSkillBody(fs, skill.path);
  if (!read.ok) throw new UsageError(`Cannot show skill "${ref}": ${read.error}`, { file: skill.path });
  const split = extractFrontmatter(read.text);
  return { skill, enabled: snapshot.isEnabled(skill), body: split.ok ? split.body : read.text };
}

type Catalog = ReturnType<typeof renderSkillsCatalog>;

export interface SkillsDoctorReport extends SkillProblems {
  roots: {
    path: string;
    kind: string;
    scope: string;
    status: string;
    duplicateOf?: string;
    skills: number;
    dirs: number;
    entries: number;
    watched: boolean;
  }[];
  catalog: Catalog["stats"];
  catalogWarnings: string[];
  hidden: ReturnType<typeof hiddenSkills>;
  /** `skills.include_instructions`: false leaves the catalog out of the model's instructions. */
  includeInstructions: boolean;
}

/** `skills doctor`: the roots scanned, the catalog's budget and visibility, and every problem. */
export async function skillsDoctorReport(ws: Workspace): Promise<SkillsDoctorReport> {
  const { input, snapshot } = await ws.skills();
  const catalog = renderSkillsCatalog(snapshot, input.catalog);
  const roots = snapshot.roots.map((r) => ({
    path: r.path,
    kind: r.kind,
    scope: r.scope,
    status: r.status,
    ...(r.duplicateOf ? { duplicateOf: r.duplicateOf } : {}),
    skills: r.skillsFound,
    dirs: r.dirsScanned,
    entries: r.entriesScanned,
    watched: r.watched,
  }));
  return {
    roots,
    errors: snapshot.errors,
    warnings: snapshot.warnings,
    catalog: catalog.stats,
    hidden: hiddenSkills(snapshot, catalog),
    catalogWarnings: catalog.warnings,
    includeInstructions: input.catalog.includeInstructions,
  };
}
