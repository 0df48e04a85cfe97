import type {
  ConversationItem,
  EventSink,
  HookTurnContext,
  LifecycleHooks,
  ToolDefinition,
  ToolResult,
} from "../shared/mod.ts";
import { describeError, noLifecycleHooks } from "../shared/mod.ts";
import type { Approver } from "./ports.ts";

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
}

export interface CallOutcome {
  output: ConversationItem & { type: "function_call_output" };
  /** Developer messages hooks added around this call. */
  contexts: string[];
}

type Call = ConversationItem & { type: "function_call" };

const output = (call: Call, result: ToolResult): CallOutcome["output"] => ({
  type: "function_call_output",
  callId: call.callId,
  output: result.output,
  status: result.status,
  ...(result.content ? { content: result.content } : {}),
});

/**
 * One call through the whole chain (MCP-13 for every tool, built-in or MCP):
 * parse → PreToolUse → approval policy → PermissionRequest → person → run → PostToolUse.
 * Always returns exactly one output, whatever fails.
 */
export async function runToolCall(call: Call, env: CallEnv): Promise<CallOutcome> {
  const contexts: string[] = [];
  const finish = (result: ToolResult) => ({ output: output(call, result), contexts });
  if (env.signal.aborted) return finish({ output: "aborted: the turn was interrupted", status: "aborted" });
  const tool = env.tools.get(call.name);
  if (!tool) return finish({ output: `unknown tool "${call.name}"`, status: "error" });
  let args: unknown;
  try {
    args = tool.parseArguments(call.arguments.trim() === "" ? {} : JSON.parse(call.arguments));
  } catch (error) {
    return finish({ output: `invalid arguments for ${tool.name}: ${describeError(error)}`, status: "error" });
  }
  // toHookInput can resolve paths on disk: compute it once per arguments value, and not at all
  // when no hook is configured.
  const hooked = env.hooks !== noLifecycleHooks;
  let memo: { args: unknown; input: ReturnType<typeof toolHookInput> } | null = null;
  const hookInput = () => {
    if (memo === null || memo.args !== args) memo = { args, input: toolHookInput(tool, args, call.callId) };
    return memo.input;
  };

  const pre = hooked
    ? await env.hooks.preToolUse(env.hookContext, hookInput())
    : { additionalContexts: [] as string[] };
  contexts.push(...pre.additionalContexts);
  // Cancelled while a guard ran: the call is aborted whatever the guard said (#13).
  if (env.signal.aborted) return finish({ output: "aborted: the turn was interrupted", status: "aborted" });
  if (pre.block) return finish({ output: blockedMessage(tool, args, pre.block.reason), status: "denied" });
  if (pre.updatedInput !== undefined) {
    try {
      args = tool.parseArguments(
        tool.fromHookInput ? tool.fromHookInput(pre.updatedInput) : pre.updatedInput,
      );
    } catch (error) {
      return finish({
        output: `PreToolUse rewrite is invalid for ${tool.name}: ${describeError(error)}`,
        status: "error",
      });
    }
  }

  const approval = await decideApproval(tool, args, call.callId, env, hookInput);
  if (approval.kind === "denied") return finish({ output: approval.reason, status: "denied" });

  let result = await runTool(tool, args, call.callId, env, approval.kind === "escalated");
  if (shouldOfferUnsandboxedRetry(tool, result, approval, env)) {
    const retry = await env.approver.request({
      callId: call.callId,
      toolName: tool.name,
      args,
      reason: "the command failed inside the sandbox; run it again without the sandbox?",
    });
    env.events({
      type: "approval.decided",
      call_id: call.callId,
      decision: retry.decision === "denied" ? "denied" : "approved",
      by: "user",
    });
    if (retry.decision !== "denied") {
      result = await runTool(tool, args, call.callId, env, true);
    }
  }
  if (env.signal.aborted && result.status !== "aborted") {
    result = { output: `aborted: the turn was interrupted\n${result.output}`, status: "aborted" };
  }

  if (result.status !== "aborted" && hooked) {
    const post = await env.hooks.postToolUse(env.hookContext, {
      ...hookInput(),
      toolResponse: result.output,
    });
    contexts.push(...post.additionalContexts);
    if (post.feedback !== undefined) result = { output: post.feedback, status: result.status };
  }
  return finish(result);
}

function toolHookInput(tool: ToolDefinition, args: unknown, callId: string) {
  return {
    toolName: tool.hookName,
    aliases: tool.hookAliases,
    toolInput: tool.toHookInput ? tool.toHookInput(args) : args,
    toolUseId: callId,
  };
}

async function runTool(
  tool: ToolDefinition,
  args: unknown,
  callId: string,
  env: CallEnv,
  escalated: boolean,
): Promise<ToolResult> {
  try {
    return await tool.run(args, { callId, cwd: env.cwd, signal: env.signal, emit: env.events, escalated });
  } catch (error) {
    return env.signal.aborted
      ? { output: "aborted: the turn was interrupted", status: "aborted" }
      : { output: `tool ${tool.name} failed: ${describeError(error)}`, status: "error" };
  }
}

/** `on-failure`: a sandboxed shell command that failed may be re-run unsandboxed if a person agrees. */
function shouldOfferUnsandboxedRetry(
  tool: ToolDefinition,
  result: ToolResult,
  approval: ApprovalVerdict,
  env: CallEnv,
): boolean {
  return env.approvalPolicy === "on-failure" && env.sandboxed && tool.hookName === "Bash" &&
    approval.kind === "ok" &&
    result.status === "error" && !env.signal.aborted;
}

function blockedMessage(tool: ToolDefinition, args: unknown, reason: string): string {
  const command = (args as { command?: unknown })?.command;
  return typeof command === "string"
    ? `Command blocked by PreToolUse hook: ${reason}. Command: ${command}`
    : `Tool call blocked by PreToolUse hook: ${reason}. Tool: ${tool.hookName}`;
}

type ApprovalVerdict = { kind: "ok" } | { kind: "escalated" } | { kind: "denied"; reason: string };

async function decideApproval(
  tool: ToolDefinition,
  args: unknown,
  callId: string,
  env: CallEnv,
  hookInput: () => { toolName: string; aliases: string[]; toolInput: unknown; toolUseId: string },
): Promise<ApprovalVerdict> {
  const need = tool.approval(args, { cwd: env.cwd });
  if (need.kind === "none") return { kind: "ok" };
  if (need.kind === "forbidden") return { kind: "denied", reason: `denied: ${need.reason}` };
  const decided = (decision: "approved" | "denied", by: string, reason?: string) =>
    env.events({ type: "approval.decided", call_id: callId, decision, by, ...(reason ? { reason } : {}) });
  if (env.approvalPolicy === "never") {
    const reason = `denied: ${need.reason} (approval_policy = "never" does not ask)`;
    decided("denied", "policy", reason);
    return { kind: "denied", reason };
  }
  const hook = await env.hooks.permissionRequest(env.hookContext, { ...hookInput(), reason: need.reason });
  if (hook.decision === "deny") {
    const reason = `denied by PermissionRequest hook: ${
      hook.message ?? "PermissionRequest hook denied approval"
    }`;
    decided("denied", "hook", reason);
    return { kind: "denied", reason };
  }
  if (hook.decision === "allow") {
    decided("approved", "hook");
    return { kind: "escalated" };
  }
  env.events({ type: "approval.requested", call_id: callId, tool: tool.name, reason: need.reason });
  const answer = await env.approver.request({ callId, toolName: tool.name, args, reason: need.reason });
  if (answer.decision === "denied") {
    const reason = `denied: ${answer.reason ?? need.reason}`;
    decided("denied", "user", reason);
    return { kind: "denied", reason };
  }
  decided("approved", "user");
  return { kind: "escalated" };
}
