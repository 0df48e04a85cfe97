import type { SkillMetadata } from "./types.ts";

export interface MissingMcpDependency {
  skill: string;
  server: string;
  /** How to add it: a `trellis mcp add` command when the skill says how, else the config table. */
  hint: string;
}

/** SK-14: MCP servers declared by selected skills (`dependencies.tools[type=mcp]`) but not configured. */
export function missingMcpDependencies(
  skills: readonly SkillMetadata[],
  configured: readonly string[],
): MissingMcpDependency[] {
  const have = new Set(configured);
  const missing: MissingMcpDependency[] = [];
  for (const skill of skills) {
    for (const dep of skill.dependencies?.tools ?? []) {
      if (dep.type.toLowerCase() !== "mcp" || have.has(dep.value)) continue;
      if (missing.some((m) => m.skill === skill.name && m.server === dep.value)) continue;
      const hint = dep.url
        ? `run \`trellis mcp add ${dep.value} --url ${dep.url}\``
        : dep.command
        ? `run \`trellis mcp add ${dep.value} -- ${dep.command}\``
        : `add a [mcp_servers.${dep.value}] table to your config.toml`;
      missing.push({ skill: skill.name, server: dep.value, hint });
    }
  }
  return missing;
}
