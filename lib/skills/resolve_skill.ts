import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import type { SkillMetadata, SkillsSnapshot } from "./types.ts";

export type SkillLookup =
  | { kind: "found"; skill: SkillMetadata }
  | { kind: "ambiguous"; matches: SkillMetadata[] }
  | { kind: "not_found" };

/** True for `NAME|PATH` arguments that mean a path (`--skill`, `skills show`). */
export function looksLikePath(ref: string): boolean {
  return ref.includes("/") || ref.includes("\\") || ref.toLowerCase().endsWith("skill.md") || ref === ".";
}

/**
 * Finds a skill by SKILL.md path (or its directory), exactly and through symlinks, or by name.
 * `among` limits the search (enabled skills for selection; every skill for `skills show`).
 */
export async function resolveSkillRef(
  fs: FileSystem,
  snapshot: SkillsSnapshot,
  ref: string,
  among: readonly SkillMetadata[],
): Promise<SkillLookup> {
  if (!looksLikePath(ref)) {
    const matches = among.filter((s) => s.name === ref);
    if (matches.length === 1) return { kind: "found", skill: matches[0] };
    return matches.length > 1 ? { kind: "ambiguous", matches } : { kind: "not_found" };
  }
  const skill = await findByPath(fs, snapshot, ref, among);
  return skill ? { kind: "found", skill } : { kind: "not_found" };
}

export async function findByPath(
  fs: FileSystem,
  snapshot: SkillsSnapshot,
  ref: string,
  among: readonly SkillMetadata[],
): Promise<SkillMetadata | null> {
  const abs = path.resolve(snapshot.cwd, ref);
  const candidates = [abs, path.join(abs, "SKILL.md")];
  for (const candidate of candidates) {
    const direct = among.find((s) => s.path === candidate);
    if (direct) return direct;
  }
  for (const candidate of candidates) {
    const real = await fs.realPath(candidate).catch(() => null);
    const hit = real ? among.find((s) => s.path === real) : undefined;
    if (hit) return hit;
  }
  return null;
}
