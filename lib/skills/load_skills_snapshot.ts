import type { FileSystem } from "../platform/mod.ts";
import { boundedMap } from "./bounded_map.ts";
import { materializeBundledSkills, removeBundledSkills } from "./materialize_bundled_skills.ts";
import { applySkillRules } from "./disable_rules.ts";
import { type RootScan, SCAN_LIMITS, scanRoot, type SkillCandidate } from "./discovery.ts";
import { readSkillMetadata, type SkillLoad, skillLocation } from "./read_skill_metadata.ts";
import { SkillMetadataCache } from "./metadata_cache.ts";
import { readCommandMetadata } from "./read_command_metadata.ts";
import { scanCommandRoot } from "./command_files.ts";
import { makeSnapshot } from "./snapshot.ts";
import { skillsConfigKey, type SkillsInput } from "./skills_input.ts";
import type {
  SkillDuplicate,
  SkillLoadError,
  SkillMetadata,
  SkillRootReport,
  SkillRootSpec,
} from "./types.ts";
import type { SkillsSnapshot } from "./types.ts";

/**
 * Discover → load → apply rules → freeze. Every failure is per root or per file: a missing root is a
 * status, an unreadable directory a warning, a bad SKILL.md an error for that path only.
 */
export async function loadSkillsSnapshot(fs: FileSystem, input: SkillsInput): Promise<SkillsSnapshot> {
  const warnings: string[] = [];
  if (input.bundledDir) warnings.push(...await materializeBundledSkills(fs, input.bundledDir));
  else await removeBundledSkills(fs, input.bundledCleanupDir);
  const reports = await resolveRoots(fs, input.roots);
  const scans = await Promise.all(reports.map((report) => scanIfUsable(fs, report)));
  const seen = new Map<string, SkillRootReport>();
  const duplicates: SkillDuplicate[] = [];
  const jobs: { found: SkillCandidate; report: SkillRootReport }[] = [];
  reports.forEach((report, i) => {
    const scan = scans[i];
    if (!scan) return;
    report.dirsScanned = scan.dirsScanned;
    report.entriesScanned = scan.entriesScanned;
    if (scan.truncated || scan.depthReached) report.status = "incomplete";
    warnings.push(...scan.warnings);
    for (const found of scan.candidates) {
      const kept = seen.get(found.path);
      if (kept) duplicates.push({ path: found.path, root: report.path, keptRoot: kept.path });
      else {
        seen.set(found.path, report);
        jobs.push({ found, report });
      }
    }
  });
  const cache = input.cacheFile ? SkillMetadataCache.open(fs, input.cacheFile) : null;
  const loads = await boundedMap(
    jobs,
    SCAN_LIMITS.concurrency,
    (job) => {
      const root = { ...job.report, path: job.report.canonical ?? job.report.path };
      if (job.report.kind === "plugin_commands") return readCommandMetadata(fs, job.found, root);
      return cache ? readSkillCached(fs, cache, job.found, root) : readSkillMetadata(fs, job.found, root);
    },
  );
  await cache?.save();
  const skills: SkillMetadata[] = [];
  const errors: SkillLoadError[] = [];
  loads.forEach((load, i) => {
    const report = jobs[i].report;
    warnings.push(...load.warnings);
    if (load.ok) {
      skills.push(load.skill);
      report.skillsFound++;
    } else if (report.scope !== "system") errors.push({ path: jobs[i].found.path, message: load.error });
  });
  const rules = await applySkillRules(fs, input.rules, skills, input.cwd);
  warnings.push(...rules.warnings);
  return makeSnapshot({
    cwd: input.cwd,
    configKey: skillsConfigKey(input),
    skills,
    errors,
    warnings,
    disabled: rules.disabled,
    roots: reports,
    duplicates,
  });
}

/**
 * readSkillMetadata through the cache, for a SKILL.md without `agents/openai.yaml` (whose icons
 * depend on other files' existence, so it is read each time). The parse depends on the file's bytes,
 * its path and the plugin namespace, which together make the key; errors are not cached.
 */
async function readSkillCached(
  fs: FileSystem,
  cache: SkillMetadataCache,
  found: SkillCandidate,
  root: SkillRootSpec,
): Promise<SkillLoad> {
  const stat = found.openAiYaml ? null : cache.statKey(found.path);
  if (!stat) return readSkillMetadata(fs, found, root);
  const key = `${found.path}\0${root.plugin?.namespace ?? ""}`;
  const hit = cache.get(key, stat);
  if (hit) {
    return { ok: true, skill: { ...hit.fields, ...skillLocation(found, root) }, warnings: [...hit.warnings] };
  }
  const load = await readSkillMetadata(fs, found, root);
  if (load.ok) {
    const { path: _p, dir: _d, scope: _s, root: _r, authority: _a, plugin: _pl, ...fields } = load.skill;
    cache.set(key, stat, { fields, warnings: load.warnings });
  }
  return load;
}

/** Canonicalises each root; a root whose real path was already seen keeps the first (SK-1). */
async function resolveRoots(fs: FileSystem, roots: SkillRootSpec[]): Promise<SkillRootReport[]> {
  const resolved = await Promise.all(roots.map(async (root) => {
    try {
      // Most configured roots do not exist; asking stat first answers those without an exception.
      const info = await fs.stat(root.path);
      if (!info) return { canonical: undefined, isDir: false };
      return { canonical: await fs.realPath(root.path), isDir: info.isDirectory };
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { canonical: undefined, isDir: false, unreadable: code !== "ENOENT" && code !== "ENOTDIR" };
    }
  }));
  const byCanonical = new Map<string, string>();
  return roots.map((root, i): SkillRootReport => {
    const r = resolved[i];
    const base = { ...root, dirsScanned: 0, entriesScanned: 0, skillsFound: 0, watched: false };
    if (!r.canonical) {
      return { ...base, status: "unreadable" in r && r.unreadable ? "unreadable" : "missing" };
    }
    if (!r.isDir) return { ...base, canonical: r.canonical, status: "not_a_directory" };
    const first = byCanonical.get(r.canonical);
    if (first) return { ...base, canonical: r.canonical, status: "duplicate", duplicateOf: first };
    byCanonical.set(r.canonical, root.path);
    return {
      ...base,
      canonical: r.canonical,
      status: "ok",
      watched: root.kind !== "plugin" && root.kind !== "plugin_commands",
    };
  });
}

function scanIfUsable(fs: FileSystem, report: SkillRootReport): Promise<RootScan | null> {
  if (report.status !== "ok" || !report.canonical) return Promise.resolve(null);
  if (report.kind === "plugin_commands") {
    const label = `plugin ${report.plugin?.id ?? "?"}`;
    return Promise.resolve({
      ...scanCommandRoot(fs, report.canonical, label, report.plugin?.origin === "gemini" ? ".toml" : ".md"),
      truncated: false,
      depthReached: false,
    });
  }
  return scanRoot(fs, report, report.canonical);
}
