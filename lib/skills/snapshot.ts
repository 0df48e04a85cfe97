import * as path from "node:path";
import { SCOPE_RANK } from "./types.ts";
import type {
  SkillDuplicate,
  SkillLoadError,
  SkillMetadata,
  SkillRootReport,
  SkillsSnapshot,
} from "./types.ts";

export interface SnapshotParts {
  cwd: string;
  configKey: string;
  skills: SkillMetadata[];
  errors: SkillLoadError[];
  warnings: string[];
  disabled: Set<string>;
  roots: SkillRootReport[];
  duplicates: SkillDuplicate[];
}

/** SK-2: scope rank, then name, then path. */
export function compareSkills(a: SkillMetadata, b: SkillMetadata): number {
  return SCOPE_RANK[a.scope] - SCOPE_RANK[b.scope] || cmp(a.name, b.name) || cmp(a.path, b.path);
}

/** Freezes the parts into the immutable snapshot a turn captures (SK-8). */
export function makeSnapshot(parts: SnapshotParts): SkillsSnapshot {
  const skills = Object.freeze([...parts.skills].sort(compareSkills).map((s) => Object.freeze(s)));
  const disabled = parts.disabled;
  const enabled = skills.filter((s) => !disabled.has(s.path));
  const skillFiles = new Map<string, SkillMetadata>();
  const scriptDirs = new Map<string, SkillMetadata>();
  for (const skill of enabled) {
    if (!skillFiles.has(skill.path)) skillFiles.set(skill.path, skill);
    const scripts = path.join(skill.dir, "scripts");
    if (!scriptDirs.has(scripts)) scriptDirs.set(scripts, skill);
  }
  const readable = [...new Set(enabled.map((s) => s.dir))];
  return Object.freeze({
    cwd: parts.cwd,
    configKey: parts.configKey,
    skills,
    errors: Object.freeze([...parts.errors].sort((a, b) => cmp(a.path, b.path))),
    warnings: Object.freeze([...parts.warnings]),
    disabledPaths: disabled,
    roots: Object.freeze(parts.roots),
    duplicates: Object.freeze(parts.duplicates),
    pathToRoot: new Map(skills.map((s) => [s.path, s.root])),
    implicitIndex: { skillFiles, scriptDirs },
    isEnabled: (skill: SkillMetadata) => !disabled.has(skill.path),
    enabledSkills: () => [...enabled],
    readableRoots: () => [...readable],
  });
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
