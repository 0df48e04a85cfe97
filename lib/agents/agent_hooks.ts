import type { AgentDefinition } from "./types.ts";

/**
 * An agent's frontmatter `hooks`, as lib/hooks' scoped source reads them (`loadScopedHooks`): keys
 * `agent:<name>:…`, trusted like a file's. As in Claude Code, a `Stop` hook in an agent's
 * frontmatter is its `SubagentStop` (the child's turn ending is the subagent stopping).
 */
export function agentHookSource(definition: AgentDefinition): {
  kind: "agent";
  name: string;
  path: string;
  hooks: unknown;
} | null {
  if (definition.hooks === undefined || !definition.path) return null;
  const hooks = { ...definition.hooks as Record<string, unknown> };
  if ("Stop" in hooks) {
    const stop = hooks.Stop;
    delete hooks.Stop;
    hooks.SubagentStop = [
      ...(Array.isArray(hooks.SubagentStop) ? hooks.SubagentStop : []),
      ...(Array.isArray(stop) ? stop : []),
    ];
  }
  return { kind: "agent", name: definition.name, path: definition.path, hooks };
}
