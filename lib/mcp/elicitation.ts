import type { EventSink } from "../shared/mod.ts";

export interface ElicitationRequest {
  server: string;
  /** Public id, `trellis-elicitation-<n>`, unique within one runtime. */
  id: string;
  mode: "form" | "url";
  message: string;
  /** Form mode: the requested JSON schema (flat object of primitives). */
  schema?: Record<string, unknown>;
  /** URL mode: where the person should go. */
  url?: string;
  /** The subagent whose tool call the server is answering, when only one was calling it (#22 item 3). */
  agent?: { id: string; type: string };
}

/** ` for subagent TYPE (ID)` when a subagent's call led to the request, else "": said after "asks". */
export function askingAgentNote(request: ElicitationRequest): string {
  return request.agent ? ` for subagent ${request.agent.type} (${request.agent.id})` : "";
}

export interface ElicitationResponse {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

/** Whoever answers elicitations: a TTY prompt, a reviewer, a client over the event channel. */
export interface ElicitationResponder {
  respond(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationResponse>;
}

/** Without a UI nobody can answer: decline at once, so a server never waits forever. */
export const noUiElicitationResponder: ElicitationResponder = {
  respond: () => Promise.resolve({ action: "decline" }),
};

export interface ElicitationPolicy {
  /** Codex approval policy ("untrusted" | "on-request" | "on-failure" | "never"). */
  approvalPolicy: string;
  /** Decline every elicitation without asking (default false). */
  autoDeny?: boolean;
  /** Policy allows auto-approving MCP prompts (approval "never" with full access); default false. */
  autoApprove?: boolean;
}

interface Waiter {
  resolve(response: ElicitationResponse): void;
}

/**
 * Applies MCP-15's decision order and keeps each waiting request under (server, public id), so an
 * answer reaches exactly the request it was meant for and cancelling one removes only it.
 */
export class ElicitationRouter {
  #counter = 0;
  #waiters = new Map<string, Waiter>();

  constructor(
    private readonly responder: ElicitationResponder,
    private readonly policy: ElicitationPolicy,
    private readonly events: EventSink,
  ) {}

  /** Ids of requests still waiting for an answer, as `server\0id`. */
  get pending(): string[] {
    return [...this.#waiters.keys()];
  }

  request(input: Omit<ElicitationRequest, "id">, signal: AbortSignal): Promise<ElicitationResponse> {
    const request = { ...input, id: `trellis-elicitation-${++this.#counter}` };
    const key = `${request.server}\0${request.id}`;
    const event = {
      type: "mcp.elicitation" as const,
      server: request.server,
      id: request.id,
      mode: request.mode,
    };
    // Every elicitation is reported, also one the policy answers without asking (#13, #14 item 10).
    const immediate = this.#policyDecision(input);
    if (immediate) {
      this.events({ ...event, message: request.message, action: immediate.action });
      return Promise.resolve(immediate);
    }
    this.events({ ...event, message: request.message });
    return new Promise<ElicitationResponse>((resolve) => {
      const settle = (response: ElicitationResponse) => {
        if (!this.#waiters.delete(key)) return;
        signal.removeEventListener("abort", onAbort);
        this.events({ ...event, message: request.message, action: response.action });
        resolve(response);
      };
      const onAbort = () => settle({ action: "cancel" });
      this.#waiters.set(key, { resolve: settle });
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.responder.respond(request, signal).then(settle, () => settle({ action: "cancel" }));
    });
  }

  /** Delivers an answer from outside (an event-channel client); false when nothing waits under that id. */
  answer(server: string, id: string, response: ElicitationResponse): boolean {
    const waiter = this.#waiters.get(`${server}\0${id}`);
    waiter?.resolve(response);
    return waiter !== undefined;
  }

  /** MCP-15 steps 1–3; undefined means ask the responder (steps 4–5). */
  #policyDecision(input: Omit<ElicitationRequest, "id">): ElicitationResponse | undefined {
    if (this.policy.autoDeny) return { action: "decline" };
    if (this.policy.autoApprove && input.mode === "form" && !hasRequiredFields(input.schema)) {
      return { action: "accept", content: {} };
    }
    if (this.policy.approvalPolicy === "never") return { action: "decline" };
    return undefined;
  }
}

function hasRequiredFields(schema: Record<string, unknown> | undefined): boolean {
  const required = schema?.required;
  return Array.isArray(required) && required.length > 0;
}
