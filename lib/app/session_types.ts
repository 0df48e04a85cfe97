/** What a Session is opened with and asked, and what it holds once built (lib/app/session.ts). */
import type { LoadedConfig, SessionSettings } from "../config/mod.ts";
import type { Approver, ModelClient, Transcript } from "../loop/mod.ts";
import type { ElicitationResponder, McpServerConfig } from "../mcp/mod.ts";
import type { Platform, SandboxStatus } from "../platform/mod.ts";
import type {
  EventSink,
  ImageInput,
  LifecycleHooks,
  PermissionRules,
  Usage,
  UserQuestioner,
} from "../shared/mod.ts";
import type { EditorFiles, SessionToolSets } from "../tools/mod.ts";
import type { SessionCheckpoints } from "../checkpoints/mod.ts";
import type { Attachment } from "./attachments.ts";
import type { Capabilities } from "./capabilities.ts";
import type { McpCallers } from "./agent_attribution.ts";
import type { Subagents } from "./subagents.ts";
import type { WorkspaceLoads } from "./workspace_loads.ts";

export interface SessionOptions {
  platform: Platform;
  loaded: LoadedConfig;
  /**
   * What the workspace loaded — plugins, hooks, agents, permission rules, the MCP catalog — reused
   * (#26 item 2: the Workspace is the one loader). Absent: the session loads them the same way.
   */
  loads?: WorkspaceLoads;
  events: EventSink;
  approver: Approver;
  /** `exec --output-schema` (#25 item 3): the schema every turn request carries to the model. */
  outputSchema?: Record<string, unknown>;
  /** A person can answer prompts on the terminal (approvals, elicitations). */
  interactive?: boolean;
  /** Session id to continue, or "--last". */
  resume?: string;
  /** Replaces the model client (tests, benchmarks, previews). */
  model?: ModelClient;
  /**
   * With a replaced `model`: still count tokens through the configured provider where its wire can
   * (`debug context` on the Messages wire: count_tokens, no sampling).
   */
  countWithProvider?: boolean;
  /** Build everything but write no transcript and run no hooks (debug prompt). */
  preview?: boolean;
  /**
   * Watch skill roots so an edited SKILL.md shows in the next turn (SK-15). For sessions that run
   * several turns; `exec` runs one turn per process and leaves it off.
   */
  watchSkills?: boolean;
  /** Answers MCP elicitations (default: the terminal when `interactive`, else decline). */
  elicitation?: ElicitationResponder;
  /** Replaces the built-in base instructions (`trellis mcp-server`'s `base-instructions`). */
  baseInstructions?: string;
  /** Answers request_user_input (the interactive mode); absent: the tool refuses (#23 item 3). */
  questioner?: UserQuestioner;
  /**
   * An editor's buffers and terminal for the built-in tools (`trellis acp`, #25 item 1): every
   * path and sandbox check still runs first.
   */
  editor?: EditorFiles;
  /** MCP servers the ACP client passed (`session/new`), beside the configured ones (origin `acp`). */
  clientMcpServers?: McpServerConfig[];
}

export interface TurnRequest {
  prompt: string;
  maxSteps: number;
  signal: AbortSignal;
  /** Skills selected explicitly (`exec --skill NAME|PATH`). */
  skills?: string[];
  /** Files attached with `@path`: sent after the prompt, each in an `<attached_file>` message. */
  attachments?: Attachment[];
  /** Images the prompt carries inline (an ACP client's image blocks, #25 item 1). */
  images?: ImageInput[];
}

/** What `/status` shows of a session. */
export interface SessionInfo {
  threadId: string;
  transcriptFile: string | null;
  cwd: string;
  model: string;
  provider: string;
  sandboxMode: string;
  approvalPolicy: string;
  /** The model's context window in tokens, when config or the model family says. */
  contextWindow?: number;
}

export interface CompactRequest {
  signal: AbortSignal;
  /** `/compact` is "manual" (the default); PreCompact/PostCompact matchers see this word (HK-14). */
  trigger?: "manual" | "auto";
  /** What the summary should keep or stress (`/compact TEXT`), appended to the prompt. */
  instructions?: string;
}

/** What `Session.compact()` did: the history is replaced only when `status` is "compacted". */
export interface CompactOutcome {
  status: "compacted" | "failed" | "skipped";
  summary?: string;
  /** The context's size before and after, in tokens (reported by the model, else estimated). */
  tokensBefore: number;
  tokensAfter: number;
  error?: { message: string; code?: string };
}

export interface SessionParts {
  threadId: string;
  transcript: Transcript;
  model: ModelClient;
  /** Approval policy, sandbox mode, model, real cwd: the one place each is held (#26 item 1). */
  settings: SessionSettings;
  sandbox: SandboxStatus;
  instructions: string;
  /** The built-in tools under each family's face (`tool_set`, #23 item 2), picked per request. */
  toolSets: SessionToolSets;
  hooks: LifecycleHooks;
  /** Permission rules (allow/ask/deny), loaded once at start; absent when none takes effect. */
  permissions?: PermissionRules;
  capabilities: Capabilities;
  /** The Agent tool's engine (#22); null when the session is a preview. */
  subagents: Subagents | null;
  stopWatching: () => void;
  lastUsage: () => Usage | null;
  /** The turn-by-turn file checkpoints (#25 item 2); null when off or a preview. */
  checkpoints: SessionCheckpoints | null;
  /** Which agent each MCP server's calls in flight are for: a form names its subagent (#22 item 3). */
  callers: McpCallers;
}

/** What `Session.rewind()` is asked (#25 item 2): `trellis rewind`'s flags, for a live session. */
export interface LiveRewindRequest {
  /** Back to the state before this turn (from 1). */
  to: number;
  /** Put files back (default true). */
  files?: boolean;
  /** Cut the conversation to before turn `to` (default false). */
  conversation?: boolean;
  /** Also put back files edited since the agent left them. */
  force?: boolean;
  /** Only say what would happen. */
  dryRun?: boolean;
}
