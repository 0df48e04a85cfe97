/**
 * What a session is opened from: its model client (the configured provider's, or a replaced one that
 * still counts through the provider), one tool-less request for prompt hooks, its transcript, and
 * who answers MCP forms.
 */
import * as path from "node:path";
import { DEFAULT_MODEL } from "../config/mod.ts";
import { type ModelClient, type Transcript, TranscriptStore } from "../loop/mod.ts";
import { type ElicitationResponder, noUiElicitationResponder, ttyElicitationResponder } from "../mcp/mod.ts";
import { createModelClient, resolveProvider } from "../model/mod.ts";
import type { SessionOptions } from "./session_types.ts";

/** Who answers an MCP server's form: the caller's responder, else the terminal or a decline. */
export function elicitationFor(options: SessionOptions): ElicitationResponder {
  if (options.elicitation) return options.elicitation;
  return options.interactive
    ? ttyElicitationResponder({
      readLine: () => options.platform.readLine(),
      write: (t) => options.platform.writeStderr(t),
    })
    : noUiElicitationResponder;
}

/** The session's model client: the configured provider's, or the given one (counting through the provider when asked). */
export function modelFor(options: SessionOptions): ModelClient {
  if (!options.model) return openModel(options);
  if (!options.countWithProvider) return options.model;
  let counter: ModelClient["countTokens"];
  try {
    const provider = resolveProvider(options.loaded.config, options.platform.env, { requireKey: false });
    counter = createModelClient(provider).countTokens;
  } catch {
    // An unknown provider is `debug prompt`'s to report; the ledger then keeps its estimate.
  }
  return counter ? { ...options.model, countTokens: counter } : options.model;
}

function openModel(options: SessionOptions): ModelClient {
  const { platform, loaded: { config }, events } = options;
  const provider = resolveProvider(config, platform.env, { requireKey: !options.preview });
  // The connection to the provider opens while the session loads, where the runtime can (preconnect).
  if (!options.preview) platform.preconnect(provider.baseUrl);
  return createModelClient(provider, {
    ...(platform.collectGarbage ? { afterLargeRequest: () => platform.collectGarbage!() } : {}),
    ...(config.model_reasoning_effort
      ? { reasoning: { effort: config.model_reasoning_effort, summary: "auto" as const } }
      : {}),
    onRetry: (r) =>
      events({
        type: "notice",
        message: `model: ${r.reason}, retrying ${r.attempt}/${r.maxRetries} in ${r.delayMs} ms`,
      }),
  });
}

/** One model request with no tools and nothing recorded; resolves to the answer's text. */
export async function askModel(
  model: ModelClient,
  modelName: string,
  request: { instructions: string; prompt: string; signal: AbortSignal },
): Promise<string> {
  let text = "";
  const body = {
    model: modelName,
    instructions: request.instructions,
    input: [{ type: "message" as const, role: "user" as const, content: request.prompt }],
    tools: [],
    parallelToolCalls: false,
  };
  for await (const event of model.stream(body, request.signal)) {
    if (event.type === "text_delta") text += event.delta;
    if (event.type === "item_done" && event.item.type === "message" && event.item.role === "assistant") {
      text = event.item.content;
    }
  }
  return text;
}
/** The thread's transcript: the one resumed, or a new one under `$TRELLIS_HOME/sessions`. */
export async function openTranscript(options: SessionOptions): Promise<Transcript> {
  const { platform, loaded } = options;
  const store = new TranscriptStore(platform.fs, path.join(loaded.paths.home, "sessions"));
  if (options.resume) return await store.open(options.resume);
  return await store.create({ ephemeral: options.preview }, {
    id: newThreadId(),
    created: new Date().toISOString(),
    cwd: loaded.paths.cwd,
    model: loaded.config.model ?? DEFAULT_MODEL,
  });
}

function newThreadId(): string {
  const time = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  return `${time}-${crypto.randomUUID().slice(0, 8)}`;
}
