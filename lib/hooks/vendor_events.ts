import { type HookEventName, isHookEvent } from "./hook_events.ts";

/**
 * Another CLI whose hook files Trellis reads in place (#24 item 3): its hooks get that CLI's stdin
 * contract (its event name, its field names) and their output is read by that CLI's contract.
 */
export type HookDialect = "gemini" | "copilot";

/** The product name a warning or `hooks list` shows. */
export const DIALECT_NAMES: Record<HookDialect, string> = {
  gemini: "Gemini CLI",
  copilot: "Copilot CLI",
};

/**
 * Gemini CLI's events (packages/core/src/hooks/types.ts) → the Trellis event of the same meaning.
 * BeforeAgent fires after the prompt is submitted and before planning (UserPromptSubmit); AfterAgent
 * after the final answer, where a deny asks for another turn (Stop). SessionEnd and Notification
 * name Claude Code's events, fired once the registry has them. The model hooks have no counterpart.
 */
const GEMINI_EVENTS: Record<string, string | undefined> = {
  BeforeTool: "PreToolUse",
  AfterTool: "PostToolUse",
  BeforeAgent: "UserPromptSubmit",
  AfterAgent: "Stop",
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  Notification: "Notification",
  PreCompress: "PreCompact",
  BeforeModel: undefined,
  AfterModel: undefined,
  BeforeToolSelection: undefined,
};

/** Copilot CLI's camelCase events (its hooks reference) → the Trellis event of the same meaning. */
const COPILOT_EVENTS: Record<string, string | undefined> = {
  preToolUse: "PreToolUse",
  postToolUse: "PostToolUse",
  postToolUseFailure: "PostToolUseFailure",
  permissionRequest: "PermissionRequest",
  userPromptSubmitted: "UserPromptSubmit",
  sessionStart: "SessionStart",
  sessionEnd: "SessionEnd",
  agentStop: "Stop",
  subagentStart: "SubagentStart",
  subagentStop: "SubagentStop",
  preCompact: "PreCompact",
  notification: "Notification",
  errorOccurred: undefined,
  userPromptTransformed: undefined,
};

/** Keys of Gemini's `hooks` object that are settings, not events (HOOKS_CONFIG_FIELDS). */
export const GEMINI_SETTING_KEYS: ReadonlySet<string> = new Set(["enabled", "disabled", "notifications"]);

export type VendorEventLookup =
  | { kind: "fired"; event: HookEventName }
  /** A real event of that CLI Trellis does not fire (no counterpart, or not yet). */
  | { kind: "not_fired" }
  | { kind: "unknown" };

/** What Trellis does with one event name of a vendor's file. */
export function lookupVendorEvent(dialect: HookDialect, name: string): VendorEventLookup {
  const table = dialect === "gemini" ? GEMINI_EVENTS : COPILOT_EVENTS;
  if (!Object.hasOwn(table, name)) return { kind: "unknown" };
  const target = table[name];
  return target !== undefined && isHookEvent(target)
    ? { kind: "fired", event: target }
    : { kind: "not_fired" };
}

/**
 * Trellis's hook-facing tool names (Claude Code's) → each CLI's own, so a matcher written for that CLI
 * (`run_shell_command`, `bash|edit`) matches and `tool_name`/`toolName` reads as its hooks expect.
 */
const TOOL_NAMES: Record<HookDialect, Record<string, string>> = {
  gemini: {
    Bash: "run_shell_command",
    Read: "read_file",
    Write: "write_file",
    Edit: "replace",
    Glob: "glob",
    Grep: "grep_search",
    LS: "list_directory",
    WebFetch: "web_fetch",
    WebSearch: "google_web_search",
  },
  copilot: {
    Bash: "bash",
    Read: "view",
    Write: "create",
    Edit: "edit",
    Glob: "glob",
    Grep: "grep",
    WebFetch: "web_fetch",
    Task: "task",
    Agent: "task",
  },
};

/** The tool's name in that CLI; an MCP tool `mcp__srv__tool` reads as Gemini's `mcp_srv_tool`. */
export function vendorToolName(dialect: HookDialect, name: string): string {
  const known = TOOL_NAMES[dialect][name];
  if (known !== undefined) return known;
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  if (mcp && dialect === "gemini") return `mcp_${mcp[1]}_${mcp[2]}`;
  return name;
}

/**
 * Copilot's argument names for the file tools (`view {path}`, `create {path, file_text}`, `edit
 * {path, old_str, new_str}`) against Trellis's (Claude Code's). Gemini's tools use Claude's names.
 */
const COPILOT_ARG_NAMES: Record<string, string> = {
  file_path: "path",
  content: "file_text",
  old_string: "old_str",
  new_string: "new_str",
};

/** Tool arguments as that CLI's hooks read them. */
export function vendorToolArgs(dialect: HookDialect, input: unknown): unknown {
  if (dialect !== "copilot" || !isRecord(input)) return input;
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [COPILOT_ARG_NAMES[k] ?? k, v]));
}

/** A hook's rewritten arguments back in Trellis's names (Copilot's `modifiedArgs`). */
export function trellisToolArgs(
  dialect: HookDialect,
  args: Record<string, unknown>,
): Record<string, unknown> {
  if (dialect !== "copilot") return args;
  const back = Object.fromEntries(Object.entries(COPILOT_ARG_NAMES).map(([ours, theirs]) => [theirs, ours]));
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [back[k] ?? k, v]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
