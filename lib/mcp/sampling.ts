import type { EventSink } from "../shared/mod.ts";
import type { CreateMessageRequestParams } from "./_sdk.ts";
import type { SamplingPolicy } from "./server_config.ts";

/** One `sampling/createMessage` from a server, as the session's model client receives it. */
export interface SamplingRequest {
  server: string;
  messages: CreateMessageRequestParams["messages"];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: CreateMessageRequestParams["modelPreferences"];
  includeContext?: "none" | "thisServer" | "allServers";
  metadata?: Record<string, unknown>;
}

/** What the model client answers; `usage` (when known) is what the budget is charged. */
export interface SamplingResult {
  role: "assistant";
  content: { type: "text"; text: string };
  model: string;
  stopReason?: string;
  usage?: { inputTokens: number; outputTokens: number };
}

/** `createMcpRuntime({ sampling })`: the session's model plus a way to ask a person. */
export interface SamplingOptions {
  handler(request: SamplingRequest, signal: AbortSignal): Promise<SamplingResult>;
  /**
   * Asks a person whether `server` may sample (policy "prompt"); without it, "prompt" denies, so
   * exec without a TTY never samples unless the server's policy is "allow".
   */
  confirm?(server: string, summary: string, signal: AbortSignal): Promise<boolean>;
}

export type SamplingVerdict =
  | { kind: "allowed"; result: SamplingResult }
  | { kind: "denied"; reason: string };

/**
 * Decides and runs sampling requests: policy (deny | prompt | allow), then the per-server token
 * budget, then the handler. Every request yields one `mcp.sampling` event; prompts and completions
 * never reach the event stream, only counts.
 */
export class SamplingGate {
  #spent = new Map<string, number>();

  constructor(private readonly options: SamplingOptions | undefined, private readonly events: EventSink) {}

  /** Tokens charged to a server so far. */
  spent(server: string): number {
    return this.#spent.get(server) ?? 0;
  }

  async decide(
    policy: { sampling: SamplingPolicy; samplingMaxTokens: number },
    request: SamplingRequest,
    signal: AbortSignal,
  ): Promise<SamplingVerdict> {
    const verdict = await this.#decide(policy, request, signal).catch((error): SamplingVerdict => ({
      kind: "denied",
      reason: `model request failed: ${error instanceof Error ? error.message : String(error)}`,
    }));
    this.events(
      verdict.kind === "allowed"
        ? {
          type: "mcp.sampling",
          server: request.server,
          decision: "allowed",
          tokens: charge(request, verdict),
        }
        : { type: "mcp.sampling", server: request.server, decision: "denied", reason: verdict.reason },
    );
    return verdict;
  }

  async #decide(
    policy: { sampling: SamplingPolicy; samplingMaxTokens: number },
    request: SamplingRequest,
    signal: AbortSignal,
  ): Promise<SamplingVerdict> {
    if (!this.options) return { kind: "denied", reason: "sampling is not available in this session" };
    if (policy.sampling === "deny") return { kind: "denied", reason: "sampling is denied by policy" };
    const used = this.spent(request.server);
    const estimate = estimateInputTokens(request) + request.maxTokens;
    if (used + estimate > policy.samplingMaxTokens) {
      return {
        kind: "denied",
        reason: `sampling budget exceeded: ${used} of ${policy.samplingMaxTokens} tokens used, ` +
          `this request may need ${estimate}`,
      };
    }
    if (policy.sampling === "prompt") {
      const confirm = this.options.confirm;
      if (!confirm) return { kind: "denied", reason: "sampling needs approval and nobody can give it" };
      if (!await confirm(request.server, summarize(request), signal)) {
        return { kind: "denied", reason: "sampling was declined" };
      }
    }
    const result = await this.options.handler(request, signal);
    const verdict: SamplingVerdict = { kind: "allowed", result };
    this.#spent.set(request.server, used + charge(request, verdict));
    return verdict;
  }
}

function charge(request: SamplingRequest, verdict: { result: SamplingResult }): number {
  const usage = verdict.result.usage;
  if (usage) return usage.inputTokens + usage.outputTokens;
  return estimateInputTokens(request) + Math.ceil(verdict.result.content.text.length / 4);
}

/** ~4 characters per token: enough for a budget whose purpose is stopping runaway loops. */
function estimateInputTokens(request: SamplingRequest): number {
  let chars = request.systemPrompt?.length ?? 0;
  for (const message of request.messages) {
    const parts = Array.isArray(message.content) ? message.content : [message.content];
    for (const part of parts) chars += part.type === "text" ? part.text.length : 1000;
  }
  return Math.ceil(chars / 4);
}

/** A one-paragraph description a person can approve: who asks, how much, the last message. */
export function summarize(request: SamplingRequest): string {
  const last = request.messages.at(-1);
  const parts = last ? (Array.isArray(last.content) ? last.content : [last.content]) : [];
  const text = parts.map((p) => p.type === "text" ? p.text : `[${p.type}]`).join(" ");
  const clipped = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return `MCP server '${request.server}' asks the model for up to ${request.maxTokens} tokens: ${clipped}`;
}
