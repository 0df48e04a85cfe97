import type { EventSink, ToolResult, ToolRunContext } from "../shared/mod.ts";
import { TrellisError } from "../shared/mod.ts";
import type { Client, Tool } from "./_sdk.ts";
import { convertCallResult } from "./call_result.ts";
import type { ConnectionManager } from "./connection_manager.ts";
import { DEFAULT_TOOL_MAX_MS } from "./server_config.ts";
import { pinningMode, pinVerdict, visibleName } from "./tool_pin_policy.ts";
import { toolAllowed, toolDisabledMessage } from "./tool_policy.ts";

export interface CallOptions {
  budgetBytes?: number;
  events: EventSink;
}

type CallResult = Parameters<typeof convertCallResult>[0];

/**
 * Calls (server, raw tool) on this manager: filter and pin re-checked (MCP-5, issue #17), tool
 * timeout with progress resetting it, `tool_max_sec` as a hard cap whatever progress says
 * (issue #13), task-augmented execution for a tool that requires it (MCP 2025-11-25 tasks),
 * result converted. Never throws: failures are error outputs.
 */
export async function callManagerTool(
  manager: ConnectionManager,
  target: { server: string; tool: string; args: Record<string, unknown> },
  ctx: Pick<ToolRunContext, "signal" | "callId">,
  options: CallOptions,
): Promise<ToolResult> {
  const managed = manager.servers.get(target.server);
  if (!managed) return { output: `unknown MCP server '${target.server}'`, status: "error" };
  const config = managed.registration.config;
  if (!toolAllowed(config, target.tool)) {
    return { output: toolDisabledMessage(target.server, target.tool), status: "error" };
  }
  // A server still starting is waited for first, so the pin check below sees its tools (a failure
  // to start is reported by the call itself, further down).
  if (managed.connection.status.state === "starting") await managed.connection.ready().catch(() => {});
  const status = managed.connection.status;
  const definition = status.state === "ready" ? status.tools.find((t) => t.name === target.tool) : undefined;
  if (definition && manager.pins) {
    const verdict = pinVerdict(manager.pins, config, definition);
    if (verdict.withheld) return { output: verdict.message, status: "error" };
  }
  // Under `block` only a tool the server listed (and its pin passed) is called: a name it never
  // listed has no definition to pin, so it is refused rather than sent unchecked.
  if (!definition && status.state === "ready" && manager.pins && pinningMode(config) === "block") {
    return {
      output: `MCP tool '${visibleName(target.tool)}' is not among the tools server '${target.server}' ` +
        `lists; with mcp_tool_pinning = "block" only listed, pinned tools are called`,
      status: "error",
    };
  }
  // The hard cap: one deadline for the whole call, however many requests a task needs.
  const maxMs = config.toolMaxMs ?? DEFAULT_TOOL_MAX_MS;
  const deadline = new AbortController();
  const timer = setTimeout(
    () =>
      deadline.abort(
        new TrellisError("mcp_protocol", `exceeded tool_max_sec (${maxMs / 1000} s)`, {
          field: "tool_max_sec",
        }),
      ),
    maxMs,
  );
  const signal = AbortSignal.any([ctx.signal, deadline.signal]);
  try {
    const client = await managed.connection.ready();
    const progress = progressReporter(target, ctx.callId, options.events);
    // The cap is the deadline above alone (not the SDK's maxTotalTimeout, which only checks when
    // progress arrives), so a capped call always says which limit ended it.
    const request = {
      signal,
      timeout: config.toolTimeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: progress,
    };
    const result = taskRequired(definition)
      ? await callAsTask(client, target, { ...request, ttlMs: maxMs }, progress)
      : await client.callTool({ name: target.tool, arguments: target.args }, undefined, request);
    return convertCallResult(result as CallResult, { budgetBytes: options.budgetBytes });
  } catch (error) {
    const reason = deadline.signal.aborted && !ctx.signal.aborted
      ? (deadline.signal.reason as Error).message
      : error instanceof Error
      ? error.message
      : String(error);
    const outcome = ctx.signal.aborted ? "aborted" : "error";
    return {
      output: `MCP tool '${target.tool}' on server '${target.server}' failed: ${reason}`,
      status: outcome,
    };
  } finally {
    clearTimeout(timer);
  }
}

type Progress = (p: { progress: number; total?: number; message?: string }) => void;

function progressReporter(
  target: { server: string; tool: string },
  callId: string,
  events: EventSink,
): Progress {
  return (p) =>
    events({
      type: "mcp.tool_progress",
      server: target.server,
      tool: target.tool,
      call_id: callId,
      progress: p.progress,
      ...(p.total !== undefined ? { total: p.total } : {}),
      ...(p.message !== undefined ? { message: p.message } : {}),
    });
}

/** `execution.taskSupport = "required"`: the server accepts this tool only as a task. */
function taskRequired(tool: Tool | undefined): boolean {
  return (tool as { execution?: { taskSupport?: string } } | undefined)?.execution?.taskSupport ===
    "required";
}

/**
 * A task-augmented `tools/call` through the SDK's task stream (create → `tasks/get` polls →
 * `tasks/result`); each status becomes an `mcp.tool_progress` event with its status message. An
 * abort (Ctrl-C or `tool_max_sec`) also sends `tasks/cancel`, so the server stops working on it.
 */
async function callAsTask(
  client: Client,
  target: { server: string; tool: string; args: Record<string, unknown> },
  request: { signal: AbortSignal; timeout: number; resetTimeoutOnProgress: boolean; ttlMs: number },
  progress: Progress,
): Promise<unknown> {
  if (!client.getServerCapabilities()?.tasks?.requests?.tools?.call) {
    throw new TrellisError(
      "mcp_protocol",
      "the tool requires task-augmented execution but the server does not offer tasks for tools/call",
    );
  }
  let taskId: string | undefined;
  let polls = 0;
  const cancel = () => {
    if (taskId) void client.experimental.tasks.cancelTask(taskId, { timeout: 5000 }).catch(() => {});
  };
  request.signal.addEventListener("abort", cancel, { once: true });
  try {
    const { ttlMs, ...options } = request;
    const stream = client.experimental.tasks.callToolStream(
      { name: target.tool, arguments: target.args },
      undefined,
      { ...options, task: { ttl: ttlMs } },
    );
    for await (const message of stream) {
      if (message.type === "taskCreated") {
        taskId = message.task.taskId;
        progress({ progress: polls, message: `task ${taskId} ${message.task.status}` });
      } else if (message.type === "taskStatus") {
        const { status, statusMessage } = message.task;
        progress({ progress: ++polls, message: statusMessage ? `${status}: ${statusMessage}` : status });
      } else if (message.type === "result") {
        return message.result;
      } else if (message.type === "error") {
        throw message.error;
      }
    }
    throw new TrellisError("mcp_protocol", "the task ended without a result");
  } finally {
    request.signal.removeEventListener("abort", cancel);
  }
}
