/**
 * What every tool (built-in, MCP, skills, plugin install) looks like to the loop. Peers build these;
 * the loop calls them; neither imports the other.
 */

import type {
  CallOutputStatus,
  FreeformFormat,
  JsonSchema,
  OutputPart,
  ToolNamespace,
} from "./conversation.ts";
import type { EventSink } from "./events.ts";
import type { ApprovalSubject } from "./approval_subject.ts";

export type ToolSource =
  | { kind: "builtin" }
  | { kind: "mcp"; server: string; tool: string; plugin?: string }
  | { kind: "mcp_resource" }
  | { kind: "skills" }
  | { kind: "plugins" }
  | { kind: "agents" };

export interface ToolResult {
  output: string;
  status: CallOutputStatus;
  content?: OutputPart[];
  /**
   * What a person reads when it differs from `output`: an MCP result whose structuredContent is
   * the model's output shows its text content instead of the raw JSON.
   */
  displayText?: string;
}

/** Whether a call needs a person's (or a hook's) approval before it runs. */
export type ApprovalNeed =
  | { kind: "none" }
  /** `subject` says exactly what approving allows (default: the tool call as an action). */
  | {
    kind: "required";
    reason: string;
    subject?: ApprovalSubject;
    /**
     * Asked only because the approval policy asks (untrusted's writes inside the writable roots, an
     * MCP tool's approval mode): approving lifts no sandbox, root or protected path, so a
     * permission rule's `allow` may answer it.
     */
    policyOnly?: true;
  }
  | { kind: "forbidden"; reason: string };

export interface ToolRunContext {
  callId: string;
  cwd: string;
  signal: AbortSignal;
  emit: EventSink;
  /**
   * True when an approval lifted a limit for this call: the sandbox (a command approved to run
   * outside it, or with none available) or the roots (a path approved beyond them). A command
   * approved to run inside the sandbox stays false: an approval never widens the sandbox silently.
   */
  escalated: boolean;
  /**
   * The deny rule (`Read(…)`, as the user wrote it and where) that keeps a file's content from the
   * model, for tools that read files the call did not name (grep over a directory); absent: none.
   */
  readDenied?(file: string): Promise<string | undefined>;
}

export interface ToolDefinition {
  /** Model-facing name, unique within one step's catalog. */
  name: string;
  /** Older names the model may call it by (Claude Code's `Task` for `Agent`); never declared. */
  callAliases?: string[];
  /** Canonical hook-facing name (Claude Code names for built-ins, mcp__server__tool for MCP). */
  hookName: string;
  /** Other names a hook matcher may use for this tool; stdin always carries `hookName`. */
  hookAliases: string[];
  description: string;
  parameters: JsonSchema;
  /** Declared inside this Responses namespace (Codex's `multi_agent_v1`); the name stays unique. */
  namespace?: ToolNamespace;
  /** See ToolDeclaration.freeform: the Responses wire declares it as a grammar tool. */
  freeform?: FreeformFormat;
  /** May run concurrently with other calls of the same step. */
  parallel: boolean;
  source: ToolSource;
  /** Decide before running whether approval is needed; args are already validated. */
  approval(args: unknown, ctx: { cwd: string }): ApprovalNeed;
  /**
   * What approving a run outside the sandbox allows (on-failure's retry), as the tool knows it: the
   * command, its real working directory and the files it names (#20 item 7). Default: built from
   * the hook-facing input, without files.
   */
  unsandboxedSubject?(args: unknown): ApprovalSubject;
  run(args: unknown, ctx: ToolRunContext): Promise<ToolResult>;
  /** Validate and normalise model arguments; a thrown error becomes an error output for the model. */
  parseArguments(raw: unknown): unknown;
  /** Hook-facing tool_input for these arguments (defaults to the arguments). */
  toHookInput?(args: unknown): unknown;
  /** Invocation arguments for a hook-facing tool_input (applies a PreToolUse rewrite). */
  fromHookInput?(input: unknown): unknown;
}
