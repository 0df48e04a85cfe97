import type { Command } from "commander";
import {
  extractFrontmatter,
  hiddenSkills,
  readSkillBody,
  renderSkillsCatalog,
  resolveSkillRef,
  type SkillMetadata,
  skillOrigin,
  type SkillsSnapshot,
} from "../../app/mod.ts";
import { UsageError } from "../../shared/mod.ts";
import { type CliContext, type CommonOptions, withCommonOptions } from "../context.ts";

/** `trellis skills list [--json] [--all]`, `show NAME|PATH`, `doctor`. */
export function registerSkillsCommand(program: Command, ctx: CliContext): void {
  const skills = program.command("skills").description("inspect skills (SKILL.md folders)");
  withCommonOptions(skills.command("list").description("list discovered skills"))
    .option("--json", "print JSON")
    .option("--all", "include disabled skills")
    .action((options) => listSkills(ctx, options));
  withCommonOptions(skills.command("show").description("print a skill's metadata and body"))
    .argument("<skill>", "skill name or path to SKILL.md (or its folder)")
    .option("--json", "print JSON")
    .action((ref: string, options) => showSkill(ctx, ref, options));
  withCommonOptions(skills.command("doctor").description("explain roots, load errors and catalog visibility"))
    .option("--json", "print JSON")
    .action((options) => doctor(ctx, options));
}

async function loadSnapshot(ctx: CliContext, options: CommonOptions) {
  return await (await ctx.workspace(options)).skills();
}

function row(snapshot: SkillsSnapshot, s: SkillMetadata) {
  const kind = snapshot.roots.find((r) => r.path === s.root)?.kind ?? "extra";
  return {
    name: s.name,
    description: s.description,
    scope: s.scope,
    // Whose files it came from: Trellis's, a Codex or Claude Code user's, or the shared `.agents/`.
    origin: skillOrigin(kind, s.plugin),
    path: s.path,
    enabled: snapshot.isEnabled(s),
    implicit: s.policy.allowImplicitInvocation,
    plugin: s.plugin?.id ?? null,
    ...(s.command ? { kind: "command", argumentHint: s.command.argumentHint ?? null } : {}),
    ...(s.extra.allowedTools ? { allowedTools: s.extra.allowedTools } : {}),
  };
}

async function listSkills(ctx: CliContext, options: CommonOptions & { json?: boolean; all?: boolean }) {
  const { input, snapshot } = await loadSnapshot(ctx, options);
  const rows = snapshot.skills.filter((s) => options.all || snapshot.isEnabled(s)).map((s) =>
    row(snapshot, s)
  );
  // The catalog's own warnings (descriptions shortened, skills omitted) are what the model sees too.
  const catalogWarnings = renderSkillsCatalog(snapshot, input.catalog).warnings;
  if (options.json) {
    const report = { skills: rows, errors: snapshot.errors, warnings: snapshot.warnings, catalogWarnings };
    await ctx.out(JSON.stringify(report, null, 2) + "\n");
    return;
  }
  const lines = rows.length === 0 ? ["No skills found."] : [];
  for (const r of rows) {
    const flags = [
      r.scope,
      `from ${r.origin}`,
      r.plugin && `plugin ${r.plugin}`,
      !r.enabled && "disabled",
      !r.implicit && "explicit only",
      r.kind === "command" && "command",
    ]
      .filter(Boolean).join(", ");
    const usage = r.kind === "command"
      ? `    usage: $${r.name}${r.argumentHint ? ` ${r.argumentHint}` : ""}`
      : null;
    lines.push(
      `${r.name} (${flags})`,
      `    ${clip(r.description, 100)}`,
      ...(usage ? [usage] : []),
      `    ${r.path}`,
    );
  }
  lines.push(...problemLines(snapshot));
  if (catalogWarnings.length > 0) {
    lines.push(
      "",
      "catalog warnings:",
      ...catalogWarnings.map((w) => `  ${w}`),
    );
  }
  await ctx.out(lines.join("\n") + "\n");
}

function problemLines(snapshot: SkillsSnapshot): string[] {
  const lines: string[] = [];
  if (snapshot.errors.length > 0) {
    lines.push("", `errors (${snapshot.errors.length}):`);
    for (const e of snapshot.errors) lines.push(`  ${e.path}: ${e.message}`);
  }
  if (snapshot.warnings.length > 0) {
    lines.push("", `warnings (${snapshot.warnings.length}):`);
    for (const w of snapshot.warnings) lines.push(`  ${w}`);
  }
  return lines;
}

async function showSkill(ctx: CliContext, ref: string, options: CommonOptions & { json?: boolean }) {
  const { snapshot } = await loadSnapshot(ctx, options);
  const found = await resolveSkillRef(ctx.platform.fs, snapshot, ref, snapshot.skills);
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
  const read = await readSkillBody(ctx.platform.fs, skill.path);
  if (!read.ok) throw new UsageError(`Cannot show skill "${ref}": ${read.error}`, { file: skill.path });
  const split = extractFrontmatter(read.text);
  const body = split.ok ? split.body : read.text;
  if (options.json) {
    await ctx.out(JSON.stringify({ ...skill, enabled: snapshot.isEnabled(skill), body }, null, 2) + "\n");
    return;
  }
  const header = [
    `name: ${skill.name}`,
    `description: ${skill.description}`,
    ...(skill.shortDescription ? [`short description: ${skill.shortDescription}`] : []),
    `scope: ${skill.scope}${skill.plugin ? ` (plugin ${skill.plugin.id})` : ""}`,
    `path: ${skill.path}`,
    `enabled: ${snapshot.isEnabled(skill)}`,
    `implicit invocation: ${skill.policy.allowImplicitInvocation}`,
    ...(skill.command
      ? [`command: $${skill.name}${skill.command.argumentHint ? ` ${skill.command.argumentHint}` : ""}`]
      : []),
    ...(skill.dependencies
      ? [`dependencies: ${skill.dependencies.tools.map((t) => `${t.type}:${t.value}`).join(", ")}`]
      : []),
    ...Object.entries(skill.extra).map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`),
  ];
  await ctx.out(`${header.join("\n")}\n---\n${body.replace(/^\n+/, "")}${body.endsWith("\n") ? "" : "\n"}`);
}

async function doctor(ctx: CliContext, options: CommonOptions & { json?: boolean }) {
  const { input, snapshot } = await loadSnapshot(ctx, options);
  const catalog = renderSkillsCatalog(snapshot, input.catalog);
  const hidden = hiddenSkills(snapshot, catalog);
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
  if (options.json) {
    const report = {
      roots,
      errors: snapshot.errors,
      warnings: snapshot.warnings,
      catalog: catalog.stats,
      hidden,
    };
    await ctx.out(JSON.stringify({ ...report, catalogWarnings: catalog.warnings }, null, 2) + "\n");
    return;
  }
  const lines = ["roots:"];
  for (const r of roots) {
    const counts = r.status === "ok" || r.status === "incomplete"
      ? ` — ${r.skills} skills, ${r.dirs} dirs, ${r.entries} entries${r.watched ? ", watched" : ""}`
      : r.duplicateOf
      ? ` of ${r.duplicateOf}`
      : "";
    lines.push(`  [${r.scope}] ${r.path}: ${r.status}${counts}`);
  }
  const s = catalog.stats;
  const unit = s.budget.kind === "tokens" ? `${s.budget.limit} tokens` : `${s.budget.limit} characters`;
  lines.push(
    "",
    `catalog: ${s.included} of ${s.candidates} skills shown, budget ${unit}` +
      (input.catalog.includeInstructions ? "" : " (disabled by skills.include_instructions = false)"),
  );
  for (const w of catalog.warnings) lines.push(`  warning: ${w}`);
  if (hidden.length > 0) lines.push("", "hidden or ambiguous:");
  for (const h of hidden) lines.push(`  ${h.name || "(duplicate)"} ${h.path}: ${h.reason} — ${h.detail}`);
  lines.push(...problemLines(snapshot));
  await ctx.out(lines.join("\n") + "\n");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
