import type { NamedFilesOptions } from "../platform/mod.ts";
import type { HookEventName } from "./hook_events.ts";
import type { HookDialect } from "./vendor_events.ts";

/** Where a handler came from (HK-2). `managed` sources always run and cannot be disabled. */
export type HookSourceKind =
  | "requirements"
  | "managed"
  | "system"
  | "user"
  | "codex_user"
  | "claude_user"
  | "project"
  | "claude_project"
  | "session"
  | "plugin"
  /** Frontmatter `hooks:` of a skill, command or agent: they run while it is active (#24 item 2). */
  | "skill"
  | "command"
  | "agent"
  | "gemini_user"
  | "gemini_project"
  | "gemini_extension"
  | "copilot_user"
  | "copilot_project";

/**
 * HK-3: Managed | Trusted (stored hashes == current) | Modified (the command or the content it runs
 * differs; `trustReason` says which) | Untrusted (none stored).
 */
export type TrustStatus = "managed" | "trusted" | "modified" | "untrusted";

/** Plugin context of a plugin handler: env vars and `${VAR}` substitution come from it. */
export interface HookPluginContext {
  pluginId: string;
  pluginRoot: string;
  dataDir: string;
  /** "claude" for a plugin Claude Code installed (read in place); absent for Trellis's own. */
  origin?: "claude";
  /** The plugin tree's digest now (a trusted hook covers it, #20 item 7). */
  contentDigest?: string;
  /** Why the tree could not be read (its directory vanished): none of its hooks runs. */
  contentError?: string;
}

/** Whose file a hook came from: Trellis's own, a Codex, Claude Code, Gemini CLI or Copilot CLI user's. */
export type HookOrigin = "trellis" | "codex" | "claude" | "gemini" | "copilot";

/** The handler types (#24 item 2); absent in an identity means `command`. */
export type HookHandlerType = "command" | "http" | "prompt" | "agent" | "mcp_tool";

/** An `http` handler: the event is POSTed as JSON; the body is read as a command's stdout. */
export interface HttpHandlerSpec {
  url: string;
  headers?: Record<string, string>;
  /** The only variables `$VAR` / `${VAR}` in `headers` may name; others become empty. */
  allowedEnvVars?: string[];
}

/** A `prompt` or `agent` handler: one model request (or a read-only subagent) answering `{ok, reason}`. */
export interface PromptHandlerSpec {
  /** The prompt; `$ARGUMENTS` is replaced by the event JSON (appended when absent). */
  text: string;
  /** Absent: the session's small/fast model. */
  model?: string;
}

/** An `mcp_tool` handler: one tool of a connected MCP server, called with the event as arguments. */
export interface McpToolHandlerSpec {
  server: string;
  tool: string;
  /** Arguments as written (`${tool_input.file_path}` replaced from the event); absent: the event itself. */
  input?: Record<string, unknown>;
}

/** What a handler's trust hash covers (HK-3): changing any of these makes it `modified`. */
export interface HandlerIdentity {
  event: HookEventName;
  /** The group's matcher as written (absent for events that ignore matchers). */
  matcher?: string;
  /** Absent: `command`. */
  type?: HookHandlerType;
  /**
   * Platform-selected command, before `${VAR}` substitution; for the other types what `hooks list`
   * shows: the URL, the prompt text, `server/tool`.
   */
  command: string;
  /** Exec form: `command` is the program, these its arguments; no shell reads them. */
  args?: string[];
  /** The shell that reads `command` instead of `$SHELL -lc` (bash, zsh, sh, powershell, or a path). */
  shell?: string;
  /** Runs at most once per session (its first matching firing). */
  once?: boolean;
  http?: HttpHandlerSpec;
  prompt?: PromptHandlerSpec;
  mcpTool?: McpToolHandlerSpec;
  timeoutSec: number;
  statusMessage?: string;
  /** `on_failure = "block"`: a failed run blocks instead of silently allowing. */
  onFailure: "ignore" | "block";
  /** `if`, as written: Claude Code's permission rule gating each tool call (HK-5). */
  ifRule?: string;
  /** Declared `async: true`: runs in the background (Codex hashes `async` for every handler). */
  async?: boolean;
  /**
   * A Gemini or Copilot CLI hook (#24 item 3): it reads that CLI's stdin and its output is read by that
   * CLI's contract, so the same command under another dialect is another hook.
   */
  dialect?: HookDialect;
  /** Its event as that CLI names it (`BeforeTool`, `preToolUse`): the `hook_event_name` it is sent. */
  vendorEvent?: string;
  /** The directory it runs in (Copilot's `cwd`, resolved against the project root). */
  cwd?: string;
  /** Variables it is given (Copilot's and Gemini's `env`), `$VAR` expanded from the environment. */
  env?: Record<string, string>;
}

/** `asyncRewake`: a background run whose exit 2 feeds its output back to the model (implies async). */
export interface RewakeSettings {
  /** Shown to the model before the hook's output (`rewakeMessage`). */
  message?: string;
  /** The one line the user sees when it wakes the model (`rewakeSummary`; a run may override it). */
  summary?: string;
}

/** A command handler as declared in a source, before trust and state are applied. */
export interface DeclaredHandler extends HandlerIdentity {
  /** Stable state key: `<source>:<event_label>:<group>:<handler>` (HK-4). */
  key: string;
  groupIndex: number;
  handlerIndex: number;
  rewake?: RewakeSettings;
}

/** One command handler as discovered and judged; the engine runs only `runnable` ones. */
export interface HookHandlerInfo extends DeclaredHandler {
  /** Absolute file, `-c`, or for plugins the plugin-relative path. */
  sourcePath: string;
  sourceKind: HookSourceKind;
  /** Whose file declared it (`hooks list` shows it); set by `loadHooks`, absent means Trellis's. */
  origin?: HookOrigin;
  managed: boolean;
  plugin?: HookPluginContext;
  /** Position across all sources: managed → system → user → project → session → plugins. */
  displayOrder: number;
  /** `sha256:<hex>` of the normalized identity: Codex's command hash, stored as `trusted_hash`. */
  hash: string;
  /**
   * `sha256:<hex>` of what the command runs (its plugin's tree, the project files it names), stored
   * as `content_hash` (#20 item 7); absent when it names none and is no plugin's.
   */
  contentHash?: string;
  /** The named files as loaded, re-read before each run (content_trust.ts). */
  contentFiles?: { options: NamedFilesOptions; digest: string };
  trust: TrustStatus;
  /** Why a hook is `modified`: "command changed", "content changed", … (shown by `hooks list`). */
  trustReason?: string;
  enabled: boolean;
  runnable: boolean;
}

/** The raw hooks declared in one file or table, before trust is judged. */
export interface HookSource {
  kind: HookSourceKind;
  /** Absolute path (or `-c`), used in messages and, unless `keySource` is set, in keys. */
  path: string;
  /** Key prefix; plugins use `<plugin-id>:<relative path>` so keys survive a reinstall. */
  keySource?: string;
  managed: boolean;
  plugin?: HookPluginContext;
  /** The parsed object holding event arrays (`hooks` of a hooks.json, `[hooks]` of a TOML layer). */
  events: Record<string, unknown>;
  /** Gemini's or Copilot's file, its events already translated to Trellis's names. */
  dialect?: HookDialect;
  /** Each translated event's name in that CLI. */
  vendorEvents?: Partial<Record<HookEventName, string>>;
  /** Folders whose files a command names are covered by its content hash (a Gemini extension's). */
  contentRoots?: string[];
}
