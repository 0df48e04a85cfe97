/**
 * Model providers: resolves `model_provider` against config and the built-ins, and streams
 * provider-neutral events from the OpenAI Responses API, Chat Completions or the Anthropic Messages
 * API, with retries, idle timeout, cancellation and one-line typed errors.
 *
 * @example
 * ```ts
 * import { createModelClient, resolveProvider } from "./mod.ts";
 * import { platform } from "../platform/mod.ts";
 * const provider = resolveProvider({ model_provider: "ollama" }, platform.env);
 * const client = createModelClient(provider);
 * const request = { model: "llama3", instructions: "", input: [], tools: [], parallelToolCalls: true };
 * for await (const event of client.stream(request, new AbortController().signal)) {
 *   if (event.type === "text_delta") console.log(event.delta);
 * }
 * ```
 * @module
 */
export { createModelClient } from "./model_client.ts";
export type { ModelClient } from "./model_client.ts";
export type { ModelClientOptions, RetryInfo } from "./client_settings.ts";
export { resolveProvider } from "./provider.ts";
export type { ResolvedProvider, WireApi } from "./provider.ts";
export { toResponsesBody, toResponsesJson } from "./responses_request.ts";
export { toChatBody } from "./chat_request.ts";
export { thinkingBudget, toMessagesBody } from "./messages_request.ts";
export { createSseParser } from "./sse_parser.ts";
export type { SseEvent } from "./sse_parser.ts";
export { knownContextWindow, knownTokenizer } from "./model_families.ts";
export { messagesImageBlock } from "./image_parts.ts";
export { hostedMessagesTools } from "./hosted_tools.ts";
