import type { CommandResult } from "../platform/mod.ts";
import type { ConversationItem, EventSink, ImageInput } from "../shared/mod.ts";

/**
 * What `trellis acp` needs of the rest of Trellis (#25 item 1), as a port: lib/app implements it
 * over its Session, so this folder speaks the protocol and knows nothing of how a turn is run.
 */
export interface AcpHost {
  /** A new session (`session/new`), or a recorded one resumed (`session/load`: `resume`). */
  openSession(request: AcpOpenRequest): Promise<AcpSession>;
}

/** An MCP server as the client passed it, normalized (ACP's lists of name/value pairs as records). */
export type AcpMcpServer =
  | { name: string; transport: "stdio"; command: string; args: string[]; env: Record<string, string> }
  | { name: string; transport: "http" | "sse"; url: string; headers: Record<string, string> };

export interface AcpOpenRequest {
  cwd: string;
  mcpServers: AcpMcpServer[];
  /** The session id to resume (its transcript is replayed by the caller). */
  resume?: string;
  /** Where the session's events go (turned into `session/update` notifications). */
  events: EventSink;
  /** Asks the client (`session/request_permission`); resolves to the chosen id, null when cancelled. */
  askPermission(ask: AcpPermissionAsk): Promise<string | null>;
  /** The client's files and terminal, when it offers them (structurally lib/tools' EditorFiles). */
  editor: AcpEditor;
}

/** One approval, as its choices: the host maps the chosen id back to its own answer. */
export interface AcpPermissionAsk {
  callId: string;
  toolName: string;
  /** What is asked, in words (the command, the path, the action, and why). */
  title: string;
  args: unknown;
  options: { id: string; name: string; kind: "allow_once" | "allow_always" | "reject_once" }[];
}

export interface AcpEditor {
  readTextFile?(path: string, signal: AbortSignal): Promise<string | null>;
  writeTextFile?(path: string, content: string): Promise<void>;
  fileChanged(change: { callId: string; path: string; oldText: string | null; newText: string }): void;
  runCommand?(request: {
    callId: string;
    cmd: string[];
    cwd: string;
    env: Record<string, string>;
    timeoutMs: number;
    signal: AbortSignal;
    maxOutputBytes: number;
  }): Promise<AcpCommandResult>;
}

/** What a command run in the client's terminal gives back: lib/platform's CommandResult. */
export type AcpCommandResult = CommandResult;

export interface AcpPromptInput {
  text: string;
  images: ImageInput[];
  /** Embedded resources and resource links, as attached files (`<attached_file>`). */
  files: { path: string; content: string }[];
}

/** How a turn ended, in ACP's stop reasons; `failed` carries the error the client is told. */
export type AcpTurnEnd =
  | { stopReason: "end_turn" | "cancelled" | "max_turn_requests" | "refusal" }
  | { stopReason: "failed"; message: string; code: string };

export interface AcpCommand {
  name: string;
  description: string;
  hint?: string;
}

export interface AcpMode {
  id: string;
  name: string;
  description: string;
}

/** One open session, as the host runs it. */
export interface AcpSession {
  readonly id: string;
  /** The conversation so far (replayed on `session/load`). */
  history(): readonly ConversationItem[];
  modes(): { current: string; available: AcpMode[] };
  models(): { current: string; available: string[] };
  /** Slash commands, skills and plugin commands the client may offer (`available_commands_update`). */
  commands(): Promise<AcpCommand[]>;
  /** One turn; never throws for a turn that fails (`failed`), only for a broken session. */
  prompt(input: AcpPromptInput, signal: AbortSignal): Promise<AcpTurnEnd>;
  /** Approval policy by mode id; unknown: a UsageError. */
  setMode(id: string): void;
  setModel(id: string): void;
  close(): Promise<void>;
}
