import {
  type AgentDefinition,
  agentHookSource,
  agentTool,
  childPermissions,
  type LoadedAgents,
  resolveAgentModel,
  selectAgentTools,
} from "../agents/mod.ts";
import { DEFAULT_MODEL, type TrellisConfig } from "../config/mod.ts";
import { TrellisError } from "../shared/mod.ts";
import { builtinToolsForListing } from "../tools/mod.ts";

/** One line of `trellis agents list`. */
export interface AgentRow {
  name: string;
  description: string;
  origin: string;
  plugin: string | null;
  path: string | null;
}

/** `trellis agents show NAME`: the row, the body, and what a session would give the agent. */
export interface AgentDetail extends AgentRow {
  prompt: string;
  /** The model-facing names of the built-in tools (and Agent) it is offered; MCP tools resolve in a session. */
  tools: string[];
  /** `tools`/`disallowedTools` entries that name no built-in tool (an MCP tool, or one Trellis lacks). */
  unmatchedTools: string[];
  disallowedTools: string[];
  /** The model it runs on, and the frontmatter's word for it. */
  model: string;
  modelSetting: string;
  color: string | null;
  maxTurns: number | null;
  /** The reasoning effort of its requests (`effort`); null: the session's. */
  effort: string | null;
  /** `permissionMode` as written, and what the child runs under with the session's approval policy. */
  permissionMode: string | null;
  approvalPolicy: string;
  readOnly: boolean;
  denyPrompts: boolean;
  permissionNote: string | null;
  /** Skills preloaded whole at the child's start. */
  skills: string[];
  /** `mcpServers`: configured servers by name, and inline ones started for the child only. */
  mcpServers: { name: string; kind: "configured" | "inline" }[];
  /** Events of the frontmatter's `hooks` (a `Stop` there is SubagentStop), run only while it runs. */
  hookEvents: string[];
  /** Claude Code fields read but not applied yet. */
  notApplied: string[];
}

export function agentRow(a: AgentDefinition): AgentRow {
  return {
    name: a.name,
    description: a.description,
    origin: a.origin,
    plugin: a.plugin ?? null,
    path: a.path ?? null,
  };
}

export function agentDetail(a: AgentDefinition, loaded: LoadedAgents, config: TrellisConfig): AgentDetail {
  const catalog = [
    ...builtinToolsForListing(),
    agentTool(
      loaded.agents,
      () => Promise.reject(new TrellisError("internal", "listing only: no agent runs here")),
    ),
  ];
  const { tools, unmatched } = selectAgentTools(a, catalog);
  const parentModel = config.model ?? DEFAULT_MODEL;
  const setting = a.model ?? "inherit";
  const resolved = resolveAgentModel(a, config.agents?.model_aliases, parentModel);
  const permissions = childPermissions(a.permissionMode, config.approval_policy ?? "on-request");
  const hookSource = agentHookSource(a);
  return {
    ...agentRow(a),
    prompt: a.prompt,
    tools: tools.map((t) => t.name),
    unmatchedTools: unmatched,
    disallowedTools: a.disallowedTools,
    model: resolved.model,
    modelSetting: setting === "inherit" ? setting : `${setting} (${resolved.how})`,
    color: a.color ?? null,
    maxTurns: a.maxTurns ?? null,
    effort: a.effort ?? null,
    permissionMode: a.permissionMode ?? null,
    approvalPolicy: permissions.approvalPolicy,
    readOnly: permissions.readOnly,
    denyPrompts: permissions.denyPrompts,
    permissionNote: permissions.note ?? null,
    skills: a.skills,
    mcpServers: a.mcpServers.map((s) => ({ name: s.name, kind: s.kind === "ref" ? "configured" : "inline" })),
    hookEvents: hookSource ? Object.keys(hookSource.hooks as Record<string, unknown>) : [],
    notApplied: a.notApplied,
  };
}
