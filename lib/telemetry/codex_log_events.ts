/**
 * Codex's OpenTelemetry log events (`[otel] exporter`, #25 item 4), with the names and attributes
 * codex-rs `otel` emits them (`SessionTelemetry`): `codex.conversation_starts`, `codex.user_prompt`,
 * `codex.api_request`, `codex.sse_event` (its `response.completed` with the token counts),
 * `codex.tool_decision` and `codex.tool_result`, each with the common `event.name`,
 * `event.timestamp`, `conversation.id`, `app.version`, `originator`, `terminal.type`, `model` and
 * `slug`. A dashboard built on Codex's events reads Trellis's. Built from the session's own event
 * stream and model calls; records go through the SDK's batch processor, off the turn's path.
 */
import type { Logger } from "@opentelemetry/api";
import type { ModelStreamEvent, TrellisEventBody } from "../shared/mod.ts";

type Value = string | number | boolean;

export interface CodexLogContext {
  model: string;
  serviceVersion: string;
  logUserPrompt: boolean;
  /** Codex's `terminal.type`: the terminal program as the environment names it, else "unknown". */
  terminalType: string;
  /** What `codex.conversation_starts` says of the session's setup. */
  setup: { provider?: string; approvalPolicy?: string; sandboxMode?: string; reasoningEffort?: string };
}

export class CodexLogEvents {
  #conversation = "";
  #calls = new Map<string, { started: number; name: string; args: string }>();

  constructor(private readonly logger: Logger, private readonly context: CodexLogContext) {}

  observe(event: TrellisEventBody): void {
    switch (event.type) {
      case "thread.started": {
        this.#conversation = event.thread_id;
        const { setup } = this.context;
        this.#emit("codex.conversation_starts", {
          ...(setup.provider ? { provider_name: setup.provider } : {}),
          ...(setup.reasoningEffort ? { reasoning_effort: setup.reasoningEffort } : {}),
          ...(setup.approvalPolicy ? { approval_policy: setup.approvalPolicy } : {}),
          ...(setup.sandboxMode ? { sandbox_policy: setup.sandboxMode } : {}),
        });
        return;
      }
      case "approval.decided":
        this.#emit("codex.tool_decision", {
          tool_name: this.#calls.get(event.call_id)?.name ?? "",
          call_id: event.call_id,
          decision: event.decision,
          // Codex's sources: Config (a policy or rule decided) or User (a person answered).
          source: event.by === "user" || event.by === "session" ? "User" : "Config",
        });
        return;
      case "item.started": {
        const item = event.item as { call_id?: string; name?: string; arguments?: unknown };
        if (item.call_id === undefined || this.#calls.has(item.call_id)) return;
        const args = typeof item.arguments === "string"
          ? item.arguments
          : JSON.stringify(item.arguments ?? {});
        this.#calls.set(item.call_id, { started: performance.now(), name: item.name ?? "", args });
        return;
      }
      case "item.completed": {
        const item = event.item as {
          type: string;
          call_id?: string;
          call_status?: string;
          output?: string;
          server?: string;
        };
        const call = item.call_id === undefined ? undefined : this.#calls.get(item.call_id);
        if (!call || item.call_id === undefined) return;
        this.#calls.delete(item.call_id);
        const mcp = item.type === "mcp_tool_call" ? item.server ?? "" : "";
        this.#emit("codex.tool_result", {
          tool_name: call.name,
          call_id: item.call_id,
          arguments: call.args,
          duration_ms: Math.round(performance.now() - call.started),
          success: item.call_status === "completed" ? "true" : "false",
          output: item.output ?? "",
          mcp_server: mcp,
          mcp_server_origin: mcp ? "trellis" : "",
        });
        return;
      }
      default:
        return;
    }
  }

  /** `codex.user_prompt`: its length, and its text only with `log_user_prompt = true`. */
  prompt(text: string): void {
    this.#emit("codex.user_prompt", {
      prompt_length: [...text].length,
      prompt: this.context.logUserPrompt ? text : "[REDACTED]",
    });
  }

  /** One model request: `codex.api_request` (its time, its error), and the completed stream's tokens. */
  request(durationMs: number, outcome: { error?: string; completed?: ModelStreamEvent }): void {
    this.#emit("codex.api_request", {
      duration_ms: Math.round(durationMs),
      attempt: 1,
      ...(outcome.error ? { "error.message": outcome.error } : {}),
    });
    const done = outcome.completed;
    if (done?.type !== "completed") return;
    this.#emit("codex.sse_event", {
      "event.kind": "response.completed",
      input_token_count: done.usage.inputTokens,
      output_token_count: done.usage.outputTokens,
      cached_token_count: done.usage.cachedInputTokens,
      reasoning_token_count: done.usage.reasoningTokens,
      tool_token_count: 0,
    });
  }

  #emit(name: string, fields: Record<string, Value>): void {
    const timestamp = new Date();
    this.logger.emit({
      eventName: name,
      timestamp,
      body: name,
      attributes: {
        "event.name": name,
        "event.timestamp": timestamp.toISOString(),
        "conversation.id": this.#conversation,
        "app.version": this.context.serviceVersion,
        originator: "trellis",
        "terminal.type": this.context.terminalType,
        model: this.context.model,
        slug: this.context.model,
        ...fields,
      },
    });
  }
}
