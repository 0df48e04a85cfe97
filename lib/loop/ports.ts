import type {
  ConversationItem,
  LifecycleHooks,
  ModelRequest,
  ModelStreamEvent,
  ToolDefinition,
} from "../shared/mod.ts";

/** The model, as the loop needs it: one streamed sampling per step. */
export interface ModelClient {
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}

/** One step's tools: captured before sampling, released when the step's calls are done (MCP-8). */
export interface StepToolCatalog {
  tools: ToolDefinition[];
  /** Called once when the step's calls are done, so an old MCP manager can close after its last user. */
  release(): void;
}

export type ApprovalDecision = "approved" | "approved_for_session" | "denied";

export interface ApprovalRequest {
  callId: string;
  /** Model-facing name of what asks (a tool, or an action such as request_plugin_install). */
  toolName: string;
  args: unknown;
  reason: string;
}

/** Asks a person (or nobody) whether a call may run. */
export interface Approver {
  request(request: ApprovalRequest): Promise<{ decision: ApprovalDecision; reason?: string }>;
}

/** Where the turn's items go as soon as they exist (the transcript), in order. */
export type ItemRecorder = (item: ConversationItem) => Promise<void>;

export type { LifecycleHooks };
