import * as path from "node:path";
import {
  agentHookSource,
  childPermissions,
  resolveAgentModel,
  selectAgentTools,
  WRITING_HOOK_NAMES,
} from "../agents/mod.ts";
import type { AgentDefinition } from "../agents/mod.ts";
import type { LoadedConfig } from "../config/mod.ts";
import { type HookEngine, type HookHandlerInfo, loadScopedHooks } from "../hooks/mod.ts";
import type { Approver } from "../loop/mod.ts";
import { type McpServerConfig, type McpStepSnapshot, readMcpServerEntry } from "../mcp/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import { readSkillBody, skillMessage, type SkillsSnapshot } from "../skills/mod.ts";
import type { ConversationItem, EventSink, LifecycleHooks, ToolDefinition } from "../shared/mod.ts";
import type { McpHolder } from "./mcp_wiring.ts";

/** What one child runs with, beyond the parent's: decided from its frontmatter at spawn. */
export interface ChildSetup {
  /** The definition as the engine applies it (`tools` widened by its own MCP servers). */
  definition: AgentDefinition;
  modelName: string;
  approvalPolicy: () => string;
  approver: Approver;
  /** Developer/user messages before the child's prompt: its preloaded skills. */
  injected: ConversationItem[];
  /** The child's step tools: the parent's (less what `plan` drops) plus its own MCP servers'. */
  stepTools(parentTools: ToolDefinition[]): { tools: ToolDefinition[]; release: () => void };
  /** The hooks the child runs under when they are not the session's (a session without hooks). */
  hooks?: LifecycleHooks;
  /** Stops its own MCP servers and ends its hooks' scope. */
  release(): Promise<void>;
}

/** What the session lends every child. */
export interface ChildFactoryEnv {
  loaded: LoadedConfig;
  fs: FileSystem;
  /** The process environment, for `${VAR}` in an inline server (lib/platform's lookup). */
  env: (name: string) => string | undefined;
  events: EventSink;
  approver: Approver;
  approvalPolicy: () => string;
  modelName: () => string;
  skills: () => Promise<SkillsSnapshot>;
  mcp: McpHolder;
  /** The session's hook engine; null when it has none (an agent's hooks then get an engine of their own). */
  hooks: HookEngine | null;
  /** Agents whose unknown `tools` entries were named already: once per session, not per spawn. */
  warnedTools: Set<string>;
  /** An engine over these handlers alone, for an agent with hooks in a session without any. */
  engineFor: (handlers: HookHandlerInfo[]) => HookEngine;
}

/** `dontAsk`: a call that would prompt is denied without asking anyone (Claude Code's meaning). */
const denyingApprover: Approver = {
  request: () =>
    Promise.resolve({
      decision: "denied",
      reason: "this agent runs with permissionMode dontAsk: calls that need approval are denied",
    }),
};

/**
 * The frontmatter applied to one spawn (#22 item 1): `model` through `[agents.model_aliases]`,
 * `permissionMode` (never looser than the parent), `skills` preloaded whole, `mcpServers` (a
 * configured server by name is offered even past `tools`; an inline one is started for this child
 * only, with the session's pins and confinement, and stopped with it), and `hooks` registered for
 * this child's events only while it runs.
 */
export async function prepareChild(
  env: ChildFactoryEnv,
  base: AgentDefinition,
  agentId: string,
): Promise<ChildSetup> {
  const warn = (message: string) => env.events({ type: "warning", message, subject: base.name });
  // An unmapped alias was warned about once at load (agent_wiring.ts); it runs on the session's model.
  const model = resolveAgentModel(base, env.loaded.config.agents?.model_aliases, env.modelName());
  const mode = base.permissionMode;
  const permissions = () => childPermissions(mode, env.approvalPolicy());
  const readOnly = permissions().readOnly;
  const injected = await preloadSkills(env, base, warn);
  const refs = base.mcpServers.filter((s) => s.kind === "ref").map((s) => s.name);
  const inline = inlineServers(env, base, warn);
  const own = inline.length > 0
    ? await env.mcp.startScoped(inline, {
      source: `agent ${base.name} (${base.path ?? "built-in"})`,
      scope: base.origin === "plugin" ? "plugin" : base.origin.endsWith("-project") ? "project" : "user",
    })
    : null;
  const configured = env.mcp.configuredServerNames();
  for (const name of refs.filter((r) => !configured.includes(r))) {
    warn(`Agent "${base.name}" names MCP server "${name}" in mcpServers, but no such server is configured`);
  }
  const widened = [...refs, ...inline.map((c) => c.name)].map((n) => `mcp__${n}`);
  const definition: AgentDefinition = base.tools && widened.length > 0
    ? { ...base, tools: [...base.tools, ...widened] }
    : base;
  const scoped = scopeHooks(env, base, agentId, warn);
  return {
    definition,
    modelName: model.model,
    approvalPolicy: () => permissions().approvalPolicy,
    approver: mode === "dontAsk" ? denyingApprover : env.approver,
    injected,
    ...(scoped.hooks ? { hooks: scoped.hooks } : {}),
    stepTools(parentTools) {
      const snapshot: McpStepSnapshot | null = own ? own.captureStep() : null;
      const all = [...parentTools, ...snapshot?.tools ?? []];
      if (!env.warnedTools.has(base.name)) {
        env.warnedTools.add(base.name);
        const { unmatched } = selectAgentTools(definition, all);
        if (unmatched.length > 0) {
          warn(
            `Agent "${base.name}"${base.path ? ` (${base.path})` : ""}: ${
              unmatched.map((t) => `\`${t}\``).join(", ")
            } in tools/disallowedTools name${
              unmatched.length === 1 ? "s" : ""
            } no tool this session has; ignored`,
          );
        }
      }
      const tools = all.filter((t) => !(readOnly && WRITING_HOOK_NAMES.has(t.hookName)));
      return { tools, release: () => snapshot?.release() };
    },
    async release() {
      scoped.end();
      await own?.shutdown().catch(() => {});
    },
  };
}

/** Claude Code injects each listed skill's whole content at the child's start; a missing one is named. */
async function preloadSkills(
  env: ChildFactoryEnv,
  definition: AgentDefinition,
  warn: (message: string) => void,
): Promise<ConversationItem[]> {
  if (definition.skills.length === 0) return [];
  const snapshot = await env.skills();
  const enabled = snapshot.enabledSkills();
  const items: ConversationItem[] = [];
  for (const name of definition.skills) {
    const skill = enabled.find((s) => s.name === name) ??
      enabled.find((s) => s.name.endsWith(`:${name}`));
    if (!skill) {
      warn(`Agent "${definition.name}" preloads skill "${name}", but no enabled skill has that name`);
      continue;
    }
    const body = await readSkillBody(env.fs, skill.path);
    if (body.ok) items.push(skillMessage(skill, body.text));
    else warn(`Agent "${definition.name}": cannot preload skill ${name} (${skill.path}): ${body.error}`);
  }
  return items;
}

/** Inline `mcpServers` entries, read by the one `.mcp.json` reader (`${VAR}` expanded, as Claude Code does). */
function inlineServers(
  env: ChildFactoryEnv,
  definition: AgentDefinition,
  warn: (message: string) => void,
): McpServerConfig[] {
  const configs: McpServerConfig[] = [];
  const file = definition.path ?? definition.name;
  for (const server of definition.mcpServers) {
    if (server.kind !== "inline") continue;
    const read = readMcpServerEntry(server.name, server.entry, {
      file,
      env: env.env,
      baseDir: definition.path ? path.dirname(definition.path) : env.loaded.paths.cwd,
    });
    for (const d of read.diagnostics) if (d.level !== "info") warn(d.message);
    if (read.config) configs.push(read.config);
  }
  return configs;
}

/** The agent's frontmatter hooks, judged as a file's, for this child's events only. */
function scopeHooks(
  env: ChildFactoryEnv,
  definition: AgentDefinition,
  agentId: string,
  warn: (message: string) => void,
): { end: () => void; hooks?: HookEngine } {
  const none = { end: () => {} };
  const source = agentHookSource(definition);
  if (!source) return none;
  const scoped = loadScopedHooks({ loaded: env.loaded, source });
  for (const d of scoped.diagnostics) warn(d.message);
  if (scoped.handlers.length === 0) return none;
  if (env.hooks) return { end: env.hooks.addScopedHooks(scoped.handlers, { agentId }) };
  const engine = env.engineFor(scoped.handlers);
  return { end: () => void engine.close().catch(() => {}), hooks: engine };
}
