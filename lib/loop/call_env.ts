import type {
  EventSink,
  HookTurnContext,
  LifecycleHooks,
  PermissionRules,
  ToolDefinition,
} from "../shared/mod.ts";
import type { Approver } from "./ports.ts";

/** What one tool call runs with: the step's tools, hooks, approvals, policy, sandbox and events. */
export interface CallEnv {
  tools: Map<string, ToolDefinition>;
  hooks: LifecycleHooks;
  hookContext: HookTurnContext;
  approver: Approver;
  approvalPolicy: string;
  /** Shell commands run sandboxed unless escalated (sandbox_mode ≠ danger-full-access). */
  sandboxed: boolean;
  events: EventSink;
  cwd: string;
  signal: AbortSignal;
  /** Codex's abort: the person said no and stopped the turn; running calls are aborted. */
  stopTurn: () => void;
  /** Permission rules (`permissions` allow/ask/deny); absent: none are configured. */
  permissions?: PermissionRules;
}
