import type { Command } from "commander";
import {
  showSkill as readSkill,
  type SkillProblems,
  skillsDoctorReport,
  skillsListReport,
} from "../../app/mod.ts";
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

async function listSkills(ctx: CliContext, options: CommonOptions & { json?: boolean; all?: boolean }) {
  const report = await skillsListReport(await ctx.workspace(options), { all: options.all });
  if (options.json) return void await ctx.out(JSON.stringify(report, null, 2) + "\n");
  const { skills: rows, catalogWarnings } = report;
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
  lines.push(...problemLines(report));
  if (catalogWarnings.length > 0) {
    lines.push(
      "",
      "catalog warnings:",
      ...catalogWarnings.map((w) => `  ${w}`),
    );
  }
  await ctx.out(lines.join("\n") + "\n");
}

function problemLines(snapshot: SkillProblems): string[] {
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
  const { skill, enabled, body } = await readSkill(await ctx.workspace(options), ref);
  if (options.json) return void await ctx.out(JSON.stringify({ ...skill, enabled, body }, null, 2) + "\n");
  const header = [
    `name: ${skill.name}`,
    `description: ${skill.description}`,
    ...(skill.shortDescription ? [`short description: ${skill.shortDescription}`] : []),
    `scope: ${skill.scope}${skill.plugin ? ` (plugin ${skill.plugin.id})` : ""}`,
    `path: ${skill.path}`,
    `enabled: ${enabled}`,
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
  const report = await skillsDoctorReport(await ctx.workspace(options));
  const { roots, hidden, includeInstructions, ...rest } = report;
  if (options.json) {
    const { errors, warnings, catalog, catalogWarnings } = rest;
    const json = { roots, errors, warnings, catalog, hidden, catalogWarnings };
    return void await ctx.out(JSON.stringify(json, null, 2) + "\n");
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
  const s = report.catalog;
  const unit = s.budget.kind === "tokens" ? `${s.budget.limit} tokens` : `${s.budget.limit} characters`;
  lines.push(
    "",
    `catalog: ${s.included} of ${s.candidates} skills shown, budget ${unit}` +
      (includeInstructions ? "" : " (disabled by skills.include_instructions = false)"),
  );
  for (const w of report.catalogWarnings) lines.push(`  warning: ${w}`);
  if (hidden.length > 0) lines.push("", "hidden or ambiguous:");
  for (const h of hidden) lines.push(`  ${h.name || "(duplicate)"} ${h.path}: ${h.reason} — ${h.detail}`);
  lines.push(...problemLines(report));
  await ctx.out(lines.join("\n") + "\n");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
