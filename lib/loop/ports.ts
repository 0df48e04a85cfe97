import type {
  ApprovalSubject,
  ConversationItem,
  LifecycleHooks,
  ModelRequest,
  ModelStreamEvent,
  SessionScope,
  ToolDefinition,
} from "../shared/mod.ts";

/** The model, as the loop needs it: one streamed sampling per step. */
export interface ModelClient {
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
  /** The provider's exact input token count, where its wire has an endpoint for it (Messages). */
  countTokens?(request: ModelRequest, signal: AbortSignal): Promise<number>;
}

/** One step's tools: captured before sampling, released when the step's calls are done (MCP-8). */
export interface StepToolCatalog {
  tools: ToolDefinition[];
  /** Text the step's instructions end with, about these tools (MCP servers' own instructions). */
  instructions?: string;
  /** Called once when the step's calls are done, so an old MCP manager can close after its last user. */
  release(): void;
}

/**
 * Codex's review decisions: once, for the session (within `ApprovalAnswer.scope`), no (the model is
 * told and goes on), or abort (no, and the turn stops: nothing more runs until the person speaks).
 */
export type ApprovalDecision = "approved" | "approved_for_session" | "denied" | "abort";

/**
 * One approval, as structured data so every approver renders the same facts (#15 item 4): what
 * (`subject`: the exact command with its cwd and sandbox placement, the exact path, or an action),
 * why (`reason`), and which session approvals may be offered (`sessionScopes`, narrowest first;
 * empty when "always" would mean nothing).
 */
export interface ApprovalRequest {
  callId: string;
  /** Model-facing name of what asks (a tool, or an action such as request_plugin_install). */
  toolName: string;
  /** The call's arguments as the tool received them. */
  args: unknown;
  subject: ApprovalSubject;
  reason: string;
  sessionScopes: SessionScope[];
  /** The subagent whose call asks (#22 item 3); absent for the session's own calls. */
  agent?: RequestingAgent;
}

/** A subagent named in what it asks of a person: its id and its type (the definition's name). */
export interface RequestingAgent {
  id: string;
  type: string;
}

export interface ApprovalAnswer {
  decision: ApprovalDecision;
  /** With `approved_for_session`: the one of `sessionScopes` the person chose (default: the first). */
  scope?: SessionScope;
  /** Why it was denied, for the model (never starting with "denied"). */
  reason?: string;
  /**
   * Who answered: a person (default), a policy that asked no one (no terminal), or an approval
   * given earlier in the session.
   */
  by?: "user" | "policy" | "session";
}

/** Asks a person (or nobody) whether a call may run. */
export interface Approver {
  request(request: ApprovalRequest): Promise<ApprovalAnswer>;
}

/** Where the turn's items go as soon as they exist (the transcript), in order. */
export type ItemRecorder = (item: ConversationItem) => Promise<void>;

export type { ApprovalSubject, LifecycleHooks, SessionScope };
