import type { ConversationItem } from "./conversation.ts";

/**
 * The port through which the loop runs lifecycle hooks. The hooks subsystem implements it; the loop
 * calls it at each point of a turn; with no hooks configured the loop uses `noLifecycleHooks`.
 */

/** Fields every hook stdin payload carries, supplied by the loop. */
export interface HookTurnContext {
  sessionId: string;
  turnId: string;
  cwd: string;
  model: string;
  /** Claude Code's names: default | acceptEdits | plan | dontAsk | bypassPermissions. */
  permissionMode: string;
  transcriptPath: string | null;
  signal: AbortSignal;
  /** Inside a subagent (#22 item 4): every payload carries Claude Code's `agent_id` and `agent_type`. */
  agent?: { id: string; type: string };
}

export interface ToolHookInput {
  /** Canonical hook name (Bash, Read, mcp__server__tool). */
  toolName: string;
  /** Matcher aliases of the same tool (e.g. shell, shell_command). */
  aliases: string[];
  toolInput: unknown;
  toolUseId: string;
}

export interface PreToolUseOutcome {
  block?: { reason: string };
  /** Replacement hook-facing tool_input from the last-completed rewriting handler. */
  updatedInput?: unknown;
  additionalContexts: string[];
  /** `permissionDecision: "ask"`: the person decides at the approval prompt, whatever the policy. */
  ask?: { reason?: string };
  /** `permissionDecision: "defer"`: the call is not run; the turn ends with it pending. */
  defer?: { reason?: string };
}

export interface PermissionRequestOutcome {
  decision?: "allow" | "deny";
  message?: string;
}

export interface PostToolUseOutcome {
  /** When set, replaces the model-visible tool output (block or continue:false). */
  feedback?: string;
  /** `updatedMCPToolOutput` of an MCP tool's PostToolUse hook: the output the model sees instead. */
  replacedOutput?: unknown;
  additionalContexts: string[];
}

/**
 * The events #24 item 1 added, fired through `fire` with their stdin fields (snake_case, Claude
 * Code's names): the loop and the app know when they happen, the hooks subsystem what they carry.
 */
export type ObservedHookEvent =
  | "SessionEnd"
  | "Notification"
  | "PostToolUseFailure"
  | "UserPromptExpansion"
  | "StopFailure"
  | "PermissionDenied"
  | "PostToolBatch"
  | "Elicitation"
  | "ElicitationResult"
  | "InstructionsLoaded"
  | "ConfigChange"
  | "CwdChanged"
  | "Interrupt";

/**
 * A slash command, plugin command or MCP prompt the prompt expanded into (UserPromptExpansion, #24
 * item 1): its items reach the model only when no hook blocks it.
 */
export interface PromptExpansion {
  expansionType: "slash_command" | "plugin_command" | "mcp_prompt";
  /** The skill's or command's name (`plugin:command`), or the prompt's `mcp__server__prompt`. */
  commandName: string;
  commandArgs: string;
  /** Where it came from: the skill's scope, the plugin, the MCP server. */
  commandSource: string;
  /** What the expansion adds to the conversation (after the prompt). */
  items: ConversationItem[];
}

export interface ObservedHookOutcome {
  additionalContexts: string[];
  /** `decision: "block"` (or exit 2): the expansion, config change or elicitation is refused. */
  block?: { reason: string };
  stop?: { reason: string };
  /** PermissionDenied `retry: true`. */
  retry?: boolean;
  /** Elicitation / ElicitationResult: the hook's answer to the form (or its override). */
  elicitation?: { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };
}

export interface ContextOutcome {
  additionalContexts: string[];
  /** continue:false — end the turn (SessionStart/UserPromptSubmit). */
  stop?: { reason: string };
}

export interface UserPromptOutcome extends ContextOutcome {
  block?: { reason: string };
}

export interface StopOutcome {
  /** One per blocking handler with a non-empty reason, in configured order. */
  continuations: { runId: string; reason: string }[];
  shouldStop: boolean;
}

/** What background (`async` / `asyncRewake`) hooks produced since the loop last asked (HK-5). */
export interface BackgroundResults {
  /** Context for the model, recorded as developer messages. */
  contexts: string[];
  /** asyncRewake runs that exited 2: the model is woken with these, like Stop continuations. */
  wakes: StopOutcome["continuations"];
}

/** What both compaction events carry: `trigger` is also what their matchers match (HK-14). */
export interface CompactHookInput {
  trigger: "manual" | "auto";
}

export interface LifecycleHooks {
  sessionStart(
    ctx: HookTurnContext,
    input: { source: "startup" | "resume" | "clear" | "compact" },
  ): Promise<ContextOutcome>;
  userPromptSubmit(ctx: HookTurnContext, input: { prompt: string }): Promise<UserPromptOutcome>;
  preToolUse(ctx: HookTurnContext, input: ToolHookInput): Promise<PreToolUseOutcome>;
  permissionRequest(
    ctx: HookTurnContext,
    input: ToolHookInput & {
      reason: string;
      /** Codex's approval_context: `use_default` when approving keeps the sandbox (default: escalated). */
      sandboxPermissions?: "use_default" | "require_escalated";
    },
  ): Promise<PermissionRequestOutcome>;
  postToolUse(
    ctx: HookTurnContext,
    input: ToolHookInput & { toolResponse: unknown },
  ): Promise<PostToolUseOutcome>;
  stop(
    ctx: HookTurnContext,
    input: { stopHookActive: boolean; lastAssistantMessage: string | null },
  ): Promise<StopOutcome>;
  /** HK-14: observes only. `customInstructions` is Claude Code's `custom_instructions` ("" when none). */
  preCompact?(ctx: HookTurnContext, input: CompactHookInput & { customInstructions?: string }): Promise<void>;
  /** HK-14: observes only, after the history was replaced. `summary` is Claude Code's `compact_summary`. */
  postCompact?(ctx: HookTurnContext, input: CompactHookInput & { summary?: string }): Promise<void>;
  /** A subagent starts (#22 item 4): matcher on the agent type; contexts reach the child. */
  subagentStart?(
    ctx: HookTurnContext,
    input: { agentId: string; agentType: string },
  ): Promise<ContextOutcome>;
  /** A subagent answered: a blocking handler's reason sends it on. */
  subagentStop?(
    ctx: HookTurnContext,
    input: {
      agentId: string;
      agentType: string;
      agentTranscriptPath: string | null;
      stopHookActive: boolean;
      lastAssistantMessage: string | null;
    },
  ): Promise<StopOutcome>;
  /**
   * Whether any handler would run for `event` now: a caller whose payload costs work to gather
   * (InstructionsLoaded reads every instruction file) asks first.
   */
  handles?(event: ObservedHookEvent): boolean;
  /** One of the observed events (#24 item 1); `fields` are its stdin fields beyond the common ones. */
  fire?(
    ctx: HookTurnContext,
    event: ObservedHookEvent,
    fields: Record<string, unknown>,
    match?: { aliases?: string[] },
  ): Promise<ObservedHookOutcome>;
  /** Background results that arrived since the last call; never waits (between steps). */
  takeBackgroundResults?(): BackgroundResults;
  /** Waits for running asyncRewake hooks, then returns every result not yet taken (before a turn ends). */
  settleBackground?(): Promise<BackgroundResults>;
  /** Waits for every background hook still running (once, when the session closes). */
  close?(): Promise<void>;
}

export const noLifecycleHooks: LifecycleHooks = {
  sessionStart: () => Promise.resolve({ additionalContexts: [] }),
  userPromptSubmit: () => Promise.resolve({ additionalContexts: [] }),
  preToolUse: () => Promise.resolve({ additionalContexts: [] }),
  permissionRequest: () => Promise.resolve({}),
  postToolUse: () => Promise.resolve({ additionalContexts: [] }),
  stop: () => Promise.resolve({ continuations: [], shouldStop: false }),
};
