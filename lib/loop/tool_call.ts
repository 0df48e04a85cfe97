import type {
  ConversationItem,
  PermissionRuleHit,
  ToolDefinition,
  ToolHookInput,
  ToolResult,
} from "../shared/mod.ts";
import {
  blockedToolMessage,
  describeError,
  noLifecycleHooks,
  ruleRefusal,
  unknownToolMessage,
} from "../shared/mod.ts";
import { approveUnsandboxedRetry, decideApproval } from "./approval_flow.ts";
import type { CallEnv } from "./call_env.ts";
export type { CallEnv } from "./call_env.ts";

export interface CallOutcome {
  output: ConversationItem & { type: "function_call_output" };
  /** Developer messages hooks added around this call. */
  contexts: string[];
  /** What a person is shown instead of the output, when the tool gave one (ToolResult.displayText). */
  displayText?: string;
  /** A PreToolUse hook deferred the call (#24 item 2): it did not run; the turn ends pending. */
  deferred?: string;
  /** The call's hook-facing name, input and response, for PostToolBatch (absent: no hooks). */
  batchEntry?: Record<string, unknown>;
}

type Call = ConversationItem & { type: "function_call" };

const output = (call: Call, result: ToolResult): CallOutcome["output"] => ({
  type: "function_call_output",
  callId: call.callId,
  output: result.output,
  status: result.status,
  ...(result.content ? { content: result.content } : {}),
  ...(call.custom ? { custom: true as const } : {}),
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
  // Another family's tool (#23 "Bad input"): the error names its set; the session goes on.
  if (!tool) return finish({ output: unknownToolMessage(call.name, [...env.tools.keys()]), status: "error" });
  let args: unknown;
  try {
    // A freeform call's input is text (a patch), not JSON: the tool reads it as it is.
    args = tool.parseArguments(
      call.custom ? call.arguments : call.arguments.trim() === "" ? {} : JSON.parse(call.arguments),
    );
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
  if (pre.defer) {
    const why = pre.defer.reason ? `: ${pre.defer.reason}` : "";
    return {
      ...finish({ output: `deferred by a PreToolUse hook${why}; the call did not run`, status: "denied" }),
      deferred: pre.defer.reason ?? "deferred by a PreToolUse hook",
    };
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
      const denied = await permissionDenied(env, hooked, input, reason);
      return finish({ output: `denied: ${reason}${denied}`, status: "denied" });
    }
  }

  const approval = await decideApproval(tool, args, call.callId, env, hookInput, rule, pre.ask);
  if (approval.kind === "denied") {
    if (approval.stopTurn) env.stopTurn();
    const denied = await permissionDenied(env, hooked, hookInput(), approval.reason);
    return finish({ output: `denied: ${approval.reason}${denied}`, status: "denied" });
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

  if (result.status === "error" && hooked && env.hooks.fire) {
    // Claude Code: a failed call fires PostToolUseFailure instead of PostToolUse (#24 item 1).
    const input = hookInput();
    const failure = await env.hooks.fire(env.hookContext, "PostToolUseFailure", {
      tool_name: input.toolName,
      tool_input: input.toolInput,
      tool_use_id: input.toolUseId,
      error: result.output,
      is_interrupt: false,
    }, { aliases: input.aliases });
    contexts.push(...failure.additionalContexts);
    if (failure.block) contexts.push(failure.block.reason);
  } else if (result.status !== "aborted" && hooked) {
    const post = await env.hooks.postToolUse(env.hookContext, {
      ...hookInput(),
      toolResponse: result.output,
    });
    contexts.push(...post.additionalContexts);
    if (post.feedback !== undefined) result = { output: post.feedback, status: result.status };
    else if (post.replacedOutput !== undefined) {
      const replaced = post.replacedOutput;
      result = {
        output: typeof replaced === "string" ? replaced : JSON.stringify(replaced),
        status: result.status,
      };
    }
  }
  const outcome = finish(result);
  if (!hooked) return outcome;
  const input = hookInput();
  return {
    ...outcome,
    batchEntry: {
      tool_name: input.toolName,
      tool_input: input.toolInput,
      tool_use_id: input.toolUseId,
      tool_response: result.output,
    },
  };
}

/**
 * PermissionDenied (#24 item 1): a call refused by a rule, the policy or a person. A hook answering
 * `retry: true` tells the model it may try again; the text returned is appended to the refusal.
 */
async function permissionDenied(
  env: CallEnv,
  hooked: boolean,
  input: ToolHookInput,
  reason: string,
): Promise<string> {
  if (!hooked || !env.hooks.fire) return "";
  const outcome = await env.hooks.fire(env.hookContext, "PermissionDenied", {
    tool_name: input.toolName,
    tool_input: input.toolInput,
    tool_use_id: input.toolUseId,
    reason,
  }, { aliases: input.aliases });
  return outcome.retry ? "\n(a PermissionDenied hook says you may retry this call)" : "";
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
