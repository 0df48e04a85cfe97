import * as path from "node:path";
import type { TurnResult } from "../../loop/mod.ts";
import type { ServedTool, ServedToolCall, ServedToolResult } from "../../mcp/mod.ts";
import type { Platform } from "../../platform/mod.ts";
import { describeError, isTrellisError } from "../../shared/mod.ts";
import {
  callConfigProblem,
  callCwdProblem,
  looserSettingProblem,
  type OperatorLimits,
} from "./call_limits.ts";
import { callOverrides } from "./config_overrides.ts";
import type { ThreadRegistry } from "./thread_registry.ts";
import type { SubagentStatus } from "../subagent_board.ts";
import { parseReplyArguments, parseTrellisArguments } from "./tool_arguments.ts";
import {
  TRELLIS_DESCRIPTION,
  TRELLIS_INPUT_SCHEMA,
  TRELLIS_OUTPUT_SCHEMA,
  TRELLIS_REPLY_DESCRIPTION,
  TRELLIS_REPLY_INPUT_SCHEMA,
  TRELLIS_REPLY_TOOL,
  TRELLIS_TOOL,
} from "./tool_schemas.ts";

export interface TrellisToolsOptions {
  platform: Platform;
  /** The server's working directory: a call's relative `cwd` is resolved against it. */
  cwd: string;
  threads: ThreadRegistry;
  /** What a call may not loosen. */
  limits: OperatorLimits;
}

/**
 * `trellis` (a turn on a new thread) and `trellis-reply` (a turn on an existing one). A mistake in
 * the call — a bad field, an unknown thread, a config error — is a tool error naming what is wrong;
 * the server goes on serving. The result is Codex's: the final message as text, and
 * `structuredContent` `{ threadId, content }` (plus `status`, and `subagents` when there are any).
 */
export function trellisTools(options: TrellisToolsOptions): ServedTool[] {
  return [
    {
      name: TRELLIS_TOOL,
      title: "Trellis",
      description: TRELLIS_DESCRIPTION,
      inputSchema: TRELLIS_INPUT_SCHEMA,
      outputSchema: TRELLIS_OUTPUT_SCHEMA,
      call: (args, call) => guarded(() => startThread(options, args, call)),
    },
    {
      name: TRELLIS_REPLY_TOOL,
      title: "Trellis Reply",
      description: TRELLIS_REPLY_DESCRIPTION,
      inputSchema: TRELLIS_REPLY_INPUT_SCHEMA,
      outputSchema: TRELLIS_OUTPUT_SCHEMA,
      call: (args, call) => guarded(() => continueThread(options, args, call)),
    },
  ];
}

async function startThread(
  options: TrellisToolsOptions,
  args: Record<string, unknown>,
  call: ServedToolCall,
): Promise<ServedToolResult> {
  const parsed = parseTrellisArguments(args);
  if (!parsed.ok) return errorResult(parsed.error);
  const cwd = path.resolve(options.cwd, parsed.value.cwd ?? ".");
  const info = await options.platform.fs.stat(cwd);
  if (!info?.isDirectory) {
    return errorResult(`Invalid arguments for trellis: "cwd": ${cwd} is not a directory`);
  }
  const outside = callCwdProblem(options.limits, await options.platform.fs.realPath(cwd));
  if (outside) return errorResult(outside);
  const overrides = callOverrides(parsed.value); // a value TOML cannot hold is refused first
  // The operator's settings at this cwd: what the call's own may only tighten.
  const operator = await options.threads.loadConfig({ cwd, overrides: [], quiet: true });
  const capped = callConfigProblem(options.limits, parsed.value, operator);
  if (capped) return errorResult(capped);
  const config = {
    cwd,
    overrides,
    ...(parsed.value.profile !== undefined ? { profile: parsed.value.profile } : {}),
  };
  const loaded = await options.threads.loadConfig(config);
  const looser = looserSettingProblem(parsed.value, operator, loaded, cwd);
  if (looser) return errorResult(looser);
  const thread = await options.threads.start(loaded, parsed.value["base-instructions"], call);
  return turnResult(thread.id, await thread.run(parsed.value.prompt, call), thread.subagents());
}

async function continueThread(
  options: TrellisToolsOptions,
  args: Record<string, unknown>,
  call: ServedToolCall,
): Promise<ServedToolResult> {
  const parsed = parseReplyArguments(args);
  if (!parsed.ok) return errorResult(parsed.error);
  const thread = await options.threads.find(parsed.value.threadId, call);
  return turnResult(thread.id, await thread.run(parsed.value.prompt, call), thread.subagents());
}

/** Trellis errors (config, an unknown thread, a busy thread) become tool errors; bugs propagate. */
async function guarded(run: () => Promise<ServedToolResult>): Promise<ServedToolResult> {
  try {
    return await run();
  } catch (error) {
    if (isTrellisError(error)) return errorResult(describeError(error), threadOf(error));
    throw error;
  }
}

/** The thread an error is about (an unknown or busy one), for `structuredContent`. */
function threadOf(error: { data: Record<string, unknown> }): string | undefined {
  return typeof error.data.threadId === "string" ? error.data.threadId : undefined;
}

/**
 * The turn's outcome: its final message when it ended normally, else why it did not; with the
 * thread's subagents (#22 item 6) when it has any, an addition a Codex client ignores.
 */
export function turnResult(
  threadId: string,
  result: TurnResult,
  subagents: SubagentStatus[] = [],
): ServedToolResult {
  const { status } = result;
  const reason = result.error?.message ?? status;
  const text = (() => {
    switch (status) {
      case "completed":
        return result.lastMessage ?? "";
      case "blocked":
        return result.lastMessage ?? "The prompt was blocked by a UserPromptSubmit hook.";
      case "stopped":
        return result.lastMessage ?? "A hook stopped the turn.";
      case "aborted":
        return `Turn aborted: ${reason}`;
      case "failed":
        return `Turn failed: ${reason}`;
      case "max_steps":
        return `Turn stopped: ${reason}` + (result.lastMessage ? `\n\n${result.lastMessage}` : "");
      default: {
        const never: never = status;
        return never;
      }
    }
  })();
  const isError = status === "aborted" || status === "failed" || status === "max_steps";
  return {
    text,
    structured: { threadId, content: text, status, ...(subagents.length ? { subagents } : {}) },
    ...(isError ? { isError } : {}),
  };
}

function errorResult(text: string, threadId?: string): ServedToolResult {
  return {
    text,
    ...(threadId ? { structured: { threadId, content: text } } : {}),
    isError: true,
  };
}
