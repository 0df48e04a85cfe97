import type { ConversationItem, PermissionRuleHit, ToolDefinition, ToolResult } from "../shared/mod.ts";
import { blockedToolMessage, describeError, noLifecycleHooks, ruleRefusal } from "../shared/mod.ts";
import { approveUnsandboxedRetry, decideApproval } from "./approval_flow.ts";
import type { CallEnv } from "./call_env.ts";
export type { CallEnv } from "./call_env.ts";

export interface CallOutcome {
  output: ConversationItem & { type: "function_call_output" };
  /** Developer messages hooks added around this call. */
  contexts: string[];
  /** What a person is shown instead of the output, when the tool gave one (ToolResult.displayText). */
  displayText?: string;
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
 * parse → PreToolUse → permission rules (deny; ask and allow feed the next step) → approval policy → PermissionRequest → person → run → PostToolUse.
 * Always returns exactly one output, whatever fails.
 */
export async function runToolCall(call: Call, env: CallEnv): Promise<CallOutcome> {
  const contexts: string[] = [];
  const finish = (result: ToolResult): CallOutcome => ({
    output: output(call, result),
    contexts,
    ...(result.displayText !== undefined ? { displayText: result.displayText } : {}),
  });
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
  if (pre.block) {
    const output = blockedToolMessage(pre.block.reason, { toolName: tool.hookName, toolInput: args });
    return finish({ output, status: "denied" });
  }
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

  // Rules judge the call that would run (after a PreToolUse rewrite), on its hook-facing input.
  let rule: PermissionRuleHit | undefined;
  if (env.permissions) {
    const input = hookInput();
    rule = await env.permissions.judge(input, env.cwd, args);
    if (rule?.kind === "deny") {
      const reason = ruleRefusal(rule);
      env.events({ type: "approval.decided", call_id: call.callId, decision: "denied", by: "rule", reason });
      return finish({ output: `denied: ${reason}`, status: "denied" });
    }
  }

  const approval = await decideApproval(tool, args, call.callId, env, hookInput, rule);
  if (approval.kind === "denied") {
    if (approval.stopTurn) env.stopTurn();
    return finish({ output: `denied: ${approval.reason}`, status: "denied" });
  }

  let result = await runTool(tool, args, call.callId, env, approval.escalated);
  if (shouldOfferUnsandboxedRetry(tool, result, approval.escalated, env)) {
    const retry = await approveUnsandboxedRetry(tool, args, call.callId, env, { hookInput, failed: result });
    if (retry.kind === "ok") result = await runTool(tool, args, call.callId, env, true);
    else if (retry.stopTurn) env.stopTurn();
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
    const rules = env.permissions;
    const readDenied = rules
      ? async (file: string) => {
        const hit = await rules.judge(
          { toolName: "Read", aliases: [], toolInput: { file_path: file } },
          env.cwd,
        );
        return hit?.kind === "deny" ? `deny "${hit.rule}" (${hit.origin})` : undefined;
      }
      : undefined;
    return await tool.run(args, {
      callId,
      cwd: env.cwd,
      signal: env.signal,
      emit: env.events,
      escalated,
      ...(readDenied ? { readDenied } : {}),
    });
  } catch (error) {
    return env.signal.aborted
      ? { output: "aborted: the turn was interrupted", status: "aborted" }
      : { output: `tool ${tool.name} failed: ${describeError(error)}`, status: "error" };
  }
}

/** `on-failure`: a shell command that failed inside the sandbox may run again outside it, if approved. */
function shouldOfferUnsandboxedRetry(
  tool: ToolDefinition,
  result: ToolResult,
  escalated: boolean,
  env: CallEnv,
): boolean {
  return env.approvalPolicy === "on-failure" && env.sandboxed && tool.hookName === "Bash" && !escalated &&
    result.status === "error" && !env.signal.aborted;
}
