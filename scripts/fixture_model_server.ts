/**
 * A scripted model server for tests, benchmarks and the demo. It speaks the OpenAI Responses API
 * (`POST /v1/responses`), Chat Completions (`POST /v1/chat/completions`) and the Anthropic Messages
 * API (`POST /v1/messages`), all streaming SSE, and answers the n-th request with the n-th scripted
 * step, whichever endpoint it arrives on. `POST /v1/messages/count_tokens` answers the estimate
 * (characters / 4) without advancing the script.
 *
 * Script format (YAML, `fixtures/models/*.yaml`): a list of steps, or `{ steps: [...] }`.
 *
 * ```yaml
 * steps:
 *   - reasoning: "Looking at the file first."   # streamed as a reasoning summary, before the text
 *     text: "Done."                             # assistant text, streamed word by word
 *     tool_calls:                               # one or several (parallel) calls; call ids generated
 *       - name: read_file
 *         arguments: { path: notes.md }         # an object (sent JSON-encoded) or a string (sent as is)
 *     usage: { input_tokens: 12, cached_tokens: 0, output_tokens: 3, reasoning_tokens: 0 }
 *     delay_ms: 0          # wait before answering
 *     event_delay_ms: 0    # wait between SSE events (for cancellation tests)
 *     fail: { status: 500, body: "oops", headers: { retry-after: "1" }, times: 1 }
 *                          # answer the first `times` requests that reach this step with this error,
 *                          # then the step's normal reply; `times` omitted = every request fails
 *     garbage: true        # 200 with a body that is not valid SSE/JSON
 *     drop_after_events: 3 # close the stream after this many SSE events, before it completes
 *     stall_after_events: 3 # after this many SSE events send only keep-alive comments, forever
 *     keepalive_ms: 20     # a `: keep-alive` comment this often while stalled (default 20)
 *     endless: true        # after the text, stream text deltas forever and never complete
 *     repeat: 200          # the step stands for this many identical consecutive steps
 *     signature: false     # Messages: the thinking block comes without its signature_delta
 *     redacted_thinking: "opaque"  # Messages: a redacted_thinking block with this data, first
 *     stop_reason: pause_turn      # Messages: the stop reason sent (default end_turn / tool_use)
 *     stream_error: { type: overloaded_error, message: Overloaded }  # Messages: an `error` event
 *                          # right after message_start, instead of any content
 *         namespace: multi_agent_v1         # Responses: the call's `namespace` (sent when given)
 *     # `{output.agent_id}` in arguments: that key of the last JSON tool output in the request
 * replies:                 # answered whenever they match, without advancing `steps` (for requests
 *                          # a script cannot place, such as a compaction's summary request)
 *   - when_input_contains: "Context compaction:"   # matched against the request's last input item
 *     text: "Summary {n}"  # any step field; {n} in the text counts this entry's answers from 1
 * (a U+E000 in any text is sent as the byte 0xFF: invalid UTF-8 from a model)
 * context_window: 4000     # a request estimated (characters / 4) over this many tokens gets OpenAI's
 *                          # HTTP 400 context_length_exceeded, without advancing the script
 * ```
 *
 * As the real API does, a Responses request with `include: ["reasoning.encrypted_content"]` gets
 * its reasoning items with an `encrypted_content` (`enc:` + the base64 of the summary), and a
 * request with `store: false` whose input carries a reasoning item with an `id` or without its
 * `encrypted_content` is refused (HTTP 400): nothing is stored server-side to resolve it against.
 *
 * Like the Responses API, the server refuses (HTTP 400) a request with a `function_call_output`
 * whose `function_call` is not in the input before it.
 *
 * On the Messages wire `reasoning` streams as a `thinking` block whose signature is `sig:` + the
 * base64 of its text, and, as the real API does, the server refuses (HTTP 400) a request without an
 * `anthropic-version` header or `max_tokens`, a `tool_result` whose `tool_use` is not in the message
 * before it, a thinking block whose signature is not the one it gave, and — with thinking enabled —
 * a final assistant tool-use message that does not start with its thinking block. Over
 * `context_window` it answers Anthropic's "prompt is too long" 400. A `fail` body that is not given
 * is Anthropic-shaped there (`{type: "error", error: {type, message}}`).
 *
 * `usage` defaults to rough counts (characters / 4). Once the script is exhausted every request gets
 * the text "(fixture script exhausted)". Any other path answers 404.
 *
 * CLI: `deno run -A scripts/fixture_model_server.ts --script fixtures/models/x.yaml [--port 0]
 * [--hostname 127.0.0.1] [--log requests.jsonl]` prints the base URL (ending in /v1) as its first
 * stdout line, appends each request body to the log as one JSON line, and runs until SIGINT/SIGTERM.
 */
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { platform } from "../lib/platform/mod.ts";

const toolCallSchema = z.strictObject({
  name: z.string(),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).default({}),
  id: z.string().optional(),
  /** Responses: the call's `namespace` (a tool of a `type: "namespace"` group, as Codex declares them). */
  namespace: z.string().optional(),
  /** Responses: a freeform call (`custom_tool_call`, as to Codex's `apply_patch`): `arguments` is its input text. */
  custom: z.boolean().optional(),
});

const stepSchema = z.strictObject({
  text: z.string().optional(),
  reasoning: z.string().optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  usage: z.strictObject({
    input_tokens: z.number().int().optional(),
    cached_tokens: z.number().int().optional(),
    output_tokens: z.number().int().optional(),
    reasoning_tokens: z.number().int().optional(),
  }).optional(),
  delay_ms: z.number().int().min(0).optional(),
  event_delay_ms: z.number().int().min(0).optional(),
  fail: z.strictObject({
    status: z.number().int().min(400).max(599),
    body: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    times: z.number().int().positive().optional(),
  }).optional(),
  garbage: z.boolean().optional(),
  drop_after_events: z.number().int().min(0).optional(),
  stall_after_events: z.number().int().min(0).optional(),
  keepalive_ms: z.number().int().positive().optional(),
  endless: z.boolean().optional(),
  repeat: z.number().int().positive().optional(),
  signature: z.boolean().optional(),
  redacted_thinking: z.string().optional(),
  stop_reason: z.string().optional(),
  stream_error: z.strictObject({ type: z.string(), message: z.string() }).optional(),
});

const replySchema = stepSchema.extend({ when_input_contains: z.string().min(1) });

const scriptSchema = z.union([
  z.array(stepSchema),
  z.strictObject({
    steps: z.array(stepSchema),
    replies: z.array(replySchema).optional(),
    context_window: z.number().int().positive().optional(),
  }),
]);

export type FixtureStep = z.input<typeof stepSchema>;
export type FixtureScript = z.input<typeof scriptSchema>;
type Step = z.output<typeof stepSchema>;
type Reply = z.output<typeof replySchema>;
type Script = { steps: Step[]; replies: Reply[]; contextWindow?: number };

export interface FixtureModelServer {
  /** Base URL ending in `/v1`. */
  url: string;
  /** Every request body received, in order (failed and retried ones included). */
  requests: unknown[];
  close(): Promise<void>;
}

export interface FixtureServerOptions {
  /** A parsed script, or the path (or file URL) of a YAML script. */
  script: string | URL | FixtureScript;
  hostname?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** A JSONL file each request body is appended to. */
  log?: string;
  /**
   * Called once per request with the milliseconds from its arrival to the last byte of its
   * response handed to the connection: the model side of a turn, for benchmarks.
   */
  onServed?: (ms: number) => void;
  /**
   * Awaited before each chunk of a streamed body is sent (`request` and `chunk` count from 0), so
   * a test can hold a response mid-stream until something it observes has happened (output seen,
   * a reader gone) instead of sleeping.
   */
  hold?: (request: number, chunk: number) => Promise<void> | void;
  /** Called as each request's body has been read, before it is answered (time to first request). */
  onRequest?: (body: unknown) => void;
}

const EXHAUSTED: Step = { text: "(fixture script exhausted)" };
const encoder = new TextEncoder();

export async function startFixtureModelServer(options: FixtureServerOptions): Promise<FixtureModelServer> {
  const script = await loadScript(options.script);
  const steps = expandSteps(script.steps);
  const requests: unknown[] = [];
  const failuresServed = new Map<number, number>();
  const repliesServed = new Map<Reply, number>();
  const shutdown = new AbortController();
  let cursor = 0;

  const handle = async (request: Request): Promise<Response> => {
    const arrived = performance.now();
    const response = await answer(request);
    const onServed = options.onServed;
    if (!onServed) return response;
    let reported = false;
    const served = () => {
      if (!reported) onServed(performance.now() - arrived);
      reported = true;
    };
    if (!response.body) {
      served();
      return response;
    }
    // Done when the last chunk is out, or when the client stops reading (a client may stop at the
    // stream's final event without waiting for the end of the body).
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          served();
          controller.close();
        } else controller.enqueue(value);
      },
      async cancel(reason) {
        served();
        await reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };

  const answer = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const wire = WIRES[path];
    if (request.method !== "POST" || !wire) return jsonError(404, `Not found: ${request.method} ${path}`);
    let body: Record<string, unknown>;
    try {
      body = await request.json();
    } catch {
      return jsonError(400, "Request body is not JSON");
    }
    if (wire === "count_tokens") {
      if (!request.headers.get("anthropic-version")) {
        return anthropicError(400, "invalid_request_error", "anthropic-version: header is required");
      }
      return Response.json({ input_tokens: estimateTokens(body) });
    }
    requests.push(body);
    const requestIndex = requests.length - 1;
    options.onRequest?.(body);
    if (options.log) await platform.fs.appendTextFile(options.log, `${JSON.stringify(body)}\n`);
    if (wire === "messages") {
      const invalid = invalidMessagesRequest(request.headers, body);
      if (invalid) return anthropicError(400, "invalid_request_error", invalid);
    }
    const refusal = wire === "responses" ? unresolvableReasoning(body) : undefined;
    if (refusal) return jsonError(400, refusal);
    const orphan = wire === "responses" ? orphanOutput(body) : undefined;
    if (orphan) return jsonError(400, `No tool call found for function call output with call_id ${orphan}.`);
    if (script.contextWindow !== undefined && estimateTokens(body) > script.contextWindow) {
      return wire === "messages"
        ? anthropicError(
          400,
          "invalid_request_error",
          `prompt is too long: ${estimateTokens(body)} tokens > ${script.contextWindow} maximum`,
        )
        : contextExceeded(estimateTokens(body), script.contextWindow);
    }
    const reply = script.replies.find((r) => lastInputText(body).includes(r.when_input_contains));
    if (reply) return await answerReply(reply, body, wire);
    const index = cursor;
    const step = steps[index] ?? EXHAUSTED;
    if (step.delay_ms) await wait(step.delay_ms, shutdown.signal);
    const served = failuresServed.get(index) ?? 0;
    if (step.fail && (step.fail.times === undefined || served < step.fail.times)) {
      failuresServed.set(index, served + 1);
      return failureResponse(step.fail, wire);
    }
    if (index < steps.length) cursor++;
    if (step.garbage) {
      return sse([{
        text: '<html>this is not an event stream</html>\n\ndata: {"type": oops\n\n',
        delayMs: 0,
      }]);
    }
    return sse(stepChunks(wire, step, body), shutdown.signal, (chunk) => options.hold?.(requestIndex, chunk));
  };

  const server = await platform.serveHttp(handle, {
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port,
  });
  const host = server.hostname.includes(":") ? `[${server.hostname}]` : server.hostname;
  return {
    url: `http://${host}:${server.port}/v1`,
    requests,
    close: async () => {
      shutdown.abort();
      await server.close();
    },
  };

  /** A reply entry's answer: its failures first (`fail.times`), then its step, `{n}` counted. */
  async function answerReply(
    reply: Reply,
    body: Record<string, unknown>,
    wire: Wire,
  ): Promise<Response> {
    const served = (repliesServed.get(reply) ?? 0) + 1;
    repliesServed.set(reply, served);
    if (reply.delay_ms) await wait(reply.delay_ms, shutdown.signal);
    if (reply.fail && (reply.fail.times === undefined || served <= reply.fail.times)) {
      return failureResponse(reply.fail, wire);
    }
    const failures = reply.fail?.times ?? 0;
    const step = { ...reply, text: reply.text?.replaceAll("{n}", String(served - failures)) };
    return sse(stepChunks(wire, step, body), shutdown.signal);
  }
}

type Wire = "responses" | "chat" | "messages";

const WIRES: Record<string, Wire | "count_tokens"> = {
  "/v1/responses": "responses",
  "/v1/chat/completions": "chat",
  "/v1/messages": "messages",
  "/v1/messages/count_tokens": "count_tokens",
};

/** What `usage` reports by default, and what `context_window` is checked against. */
function estimateTokens(body: unknown): number {
  return Math.ceil(JSON.stringify(body).length / 4);
}

/** The text of the request's last input item (Responses `input`, Chat and Messages `messages`). */
function lastInputText(body: Record<string, unknown>): string {
  const list = Array.isArray(body.input) ? body.input : Array.isArray(body.messages) ? body.messages : [];
  return list.length > 0 ? JSON.stringify(list.at(-1)) : "";
}

/**
 * `{output.KEY}` in a tool call's arguments is the value of KEY in the last JSON tool output of the
 * request that has it (`{output.KEY.N}`: the N-th, from 1) — for ids only the run knows, such as the
 * `agent_id` a `spawn_agent` returned.
 */
function withEarlierOutputs(step: Step, body: Record<string, unknown>): Step {
  if (!step.tool_calls?.some((c) => JSON.stringify(c.arguments).includes("{output."))) return step;
  const values = new Map<string, string[]>();
  for (const text of toolOutputTexts(body)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    if (!parsed || typeof parsed !== "object") continue;
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value === "string") values.set(key, [...values.get(key) ?? [], value]);
    }
  }
  const fill = (text: string) =>
    text.replace(/\{output\.([A-Za-z_]+)(?:\.(\d+))?\}/g, (whole, key: string, n?: string) => {
      const list = values.get(key) ?? [];
      return (n ? list[Number(n) - 1] : list.at(-1)) ?? whole;
    });
  return {
    ...step,
    tool_calls: step.tool_calls.map((c) => ({
      ...c,
      arguments: typeof c.arguments === "string"
        ? fill(c.arguments)
        : JSON.parse(fill(JSON.stringify(c.arguments))),
    })),
  };
}

/** Every tool output's text in a request: Responses `function_call_output`, Messages `tool_result`, Chat `tool`. */
function toolOutputTexts(body: Record<string, unknown>): string[] {
  const texts: string[] = [];
  const list = Array.isArray(body.input) ? body.input : Array.isArray(body.messages) ? body.messages : [];
  for (const item of list) {
    if (
      (item?.type === "function_call_output" || item?.type === "custom_tool_call_output") &&
      typeof item.output === "string"
    ) texts.push(item.output);
    if (item?.role === "tool" && typeof item.content === "string") texts.push(item.content);
    for (const block of Array.isArray(item?.content) ? item.content : []) {
      if (block?.type !== "tool_result") continue;
      if (typeof block.content === "string") texts.push(block.content);
      for (const part of Array.isArray(block.content) ? block.content : []) {
        if (typeof part?.text === "string") texts.push(part.text);
      }
    }
  }
  return texts;
}

/** A `function_call_output` whose call is not in the input before it: the Responses API refuses it. */
function orphanOutput(body: Record<string, unknown>): string | undefined {
  const calls = new Set<unknown>();
  for (const item of Array.isArray(body.input) ? body.input : []) {
    if (item?.type === "function_call") calls.add(item.call_id);
    if (item?.type === "custom_tool_call") calls.add(`custom:${item.call_id}`);
    if (item?.type === "function_call_output" && !calls.has(item.call_id)) return String(item.call_id);
    // A freeform call is answered by a custom_tool_call_output, as the API insists.
    if (item?.type === "custom_tool_call_output" && !calls.has(`custom:${item.call_id}`)) {
      return String(item.call_id);
    }
  }
  return undefined;
}

/** OpenAI's answer to a request over the model's window. */
function contextExceeded(tokens: number, window: number): Response {
  return Response.json({
    error: {
      message: `Your input exceeds the context window of this model (${tokens} > ${window} tokens). ` +
        "Please adjust your input and try again.",
      type: "invalid_request_error",
      param: "input",
      code: "context_length_exceeded",
    },
  }, { status: 400 });
}

async function loadScript(script: FixtureServerOptions["script"]): Promise<Script> {
  let raw: unknown = script;
  if (typeof script === "string" || script instanceof URL) {
    const path = script instanceof URL ? decodeURIComponent(script.pathname) : script;
    raw = parseYaml(await platform.fs.readTextFile(path)) ?? [];
  }
  const parsed = scriptSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `Cannot load fixture script "${String(script)}": ${issue.path.join(".")} ${issue.message}`,
    );
  }
  if (Array.isArray(parsed.data)) return { steps: parsed.data, replies: [] };
  const { steps, replies, context_window } = parsed.data;
  return { steps, replies: replies ?? [], ...(context_window ? { contextWindow: context_window } : {}) };
}

function expandSteps(steps: Step[]): Step[] {
  return steps.flatMap((step) => Array.from({ length: step.repeat ?? 1 }, () => step));
}

function jsonError(status: number, message: string): Response {
  return Response.json({ error: { message, type: "invalid_request_error", code: null } }, { status });
}

function failureResponse(fail: NonNullable<Step["fail"]>, wire: Wire): Response {
  const fallback = wire === "messages"
    ? {
      type: "error",
      error: { type: anthropicErrorType(fail.status), message: `fixture failure ${fail.status}` },
    }
    : { error: { message: `fixture failure ${fail.status}`, type: "fixture" } };
  const body = typeof fail.body === "string" ? fail.body : JSON.stringify(fail.body ?? fallback);
  return new Response(body, {
    status: fail.status,
    headers: { "content-type": "application/json", ...fail.headers },
  });
}

/** One piece of a streamed body, sent `delayMs` after the previous one. */
interface Chunk {
  text: string;
  delayMs: number;
}

/**
 * The step's body, produced lazily as the client reads: the scripted events (cut at
 * `drop_after_events` or `stall_after_events`), then keep-alive comments or endless deltas.
 */
function* stepChunks(
  wire: Wire,
  scripted: Step,
  body: Record<string, unknown>,
): Generator<Chunk> {
  const step = withEarlierOutputs(scripted, body);
  const events = wire === "responses"
    ? responsesEvents(step, body)
    : wire === "messages"
    ? messagesEvents(step, body)
    : chatEvents(step, body);
  const delayMs = step.event_delay_ms ?? 0;
  const cut = step.drop_after_events ?? step.stall_after_events ??
    // Endless text goes on inside the open text block: before its content_block_stop on Messages.
    (step.endless ? events.length - (wire === "messages" ? 3 : 2) : undefined);
  for (const text of events.slice(0, cut)) yield { text, delayMs };
  if (step.stall_after_events !== undefined) {
    for (;;) yield { text: ": keep-alive\n\n", delayMs: step.keepalive_ms ?? 20 };
  }
  if (step.endless && step.drop_after_events === undefined) {
    const text = step.text || "more ";
    for (;;) yield { text: textDeltaEvent(wire, body, text), delayMs };
  }
}

/** One more text delta in the wire's format (for endless streams). */
function textDeltaEvent(wire: Wire, body: Record<string, unknown>, delta: string): string {
  if (wire === "messages") {
    const data = { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: delta } };
    return `event: content_block_delta\ndata: ${JSON.stringify(data)}\n\n`;
  }
  if (wire === "chat") {
    const chunk = {
      object: "chat.completion.chunk",
      model: body.model,
      choices: [{ index: 0, delta: { content: delta } }],
    };
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }
  const type = "response.output_text.delta";
  return `event: ${type}\ndata: ${JSON.stringify({ type, output_index: 0, content_index: 0, delta })}\n\n`;
}

/** Why a Responses API server that stores nothing could not resolve this input, if it could not. */
function unresolvableReasoning(body: Record<string, unknown>): string | undefined {
  if (body.store !== false || !Array.isArray(body.input)) return undefined;
  for (const item of body.input as Record<string, unknown>[]) {
    if (item?.type !== "reasoning") continue;
    if (typeof item.id === "string") {
      return `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false.`;
    }
    if (typeof item.encrypted_content !== "string") {
      return "A reasoning item sent back with store: false needs its encrypted_content.";
    }
  }
  return undefined;
}

/** Streams the chunks; stops early when the client goes away or the server closes. */
/** U+E000 (bytes EE 80 80) in a script's text goes out as the byte 0xFF: invalid UTF-8 from a model. */
function withInvalidBytes(bytes: Uint8Array): Uint8Array {
  if (!bytes.some((b, i) => b === 0xee && bytes[i + 1] === 0x80 && bytes[i + 2] === 0x80)) return bytes;
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0xee && bytes[i + 1] === 0x80 && bytes[i + 2] === 0x80) {
      out.push(0xff);
      i += 2;
    } else out.push(bytes[i]);
  }
  return new Uint8Array(out);
}

function sse(
  chunks: Iterable<Chunk>,
  shutdown?: AbortSignal,
  hold?: (chunk: number) => Promise<void> | void,
): Response {
  const stop = new AbortController();
  const onShutdown = () => stop.abort();
  shutdown?.addEventListener("abort", onShutdown, { once: true });
  const source = chunks[Symbol.iterator]();
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = source.next();
      if (!next.done && sent > 0 && next.value.delayMs > 0) await wait(next.value.delayMs, stop.signal);
      if (!next.done) await hold?.(sent);
      sent++;
      if (next.done || stop.signal.aborted) {
        shutdown?.removeEventListener("abort", onShutdown);
        controller.close();
        return;
      }
      controller.enqueue(withInvalidBytes(encoder.encode(next.value.text)));
    },
    cancel() {
      stop.abort();
      shutdown?.removeEventListener("abort", onShutdown);
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

function words(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

function argumentsText(call: Step["tool_calls"] extends (infer C)[] | undefined ? C : never): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

interface Usage {
  input_tokens: number;
  cached_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
}

function usageFor(step: Step, body: unknown): Usage {
  const produced = (step.text ?? "") + (step.tool_calls ?? []).map(argumentsText).join("");
  return {
    input_tokens: step.usage?.input_tokens ?? Math.ceil(JSON.stringify(body).length / 4),
    cached_tokens: step.usage?.cached_tokens ?? 0,
    output_tokens: step.usage?.output_tokens ?? Math.ceil(produced.length / 4),
    reasoning_tokens: step.usage?.reasoning_tokens ?? Math.ceil((step.reasoning ?? "").length / 4),
  };
}

function randomId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

/** The Responses API event sequence for one step. */
function responsesEvents(step: Step, body: Record<string, unknown>): string[] {
  const responseId = randomId("resp");
  const base = {
    id: responseId,
    object: "response",
    model: body.model,
    created_at: Math.floor(Date.now() / 1000),
  };
  const out: string[] = [];
  const output: unknown[] = [];
  const emit = (type: string, data: Record<string, unknown>) =>
    out.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: out.length, ...data })}\n\n`);
  emit("response.created", { response: { ...base, status: "in_progress", output: [] } });
  const finishItem = (item: Record<string, unknown>) => {
    emit("response.output_item.done", { output_index: output.length, item });
    output.push(item);
  };
  if (step.reasoning) {
    const id = randomId("rs");
    emit("response.output_item.added", {
      output_index: output.length,
      item: { id, type: "reasoning", summary: [] },
    });
    for (const delta of words(step.reasoning)) {
      emit("response.reasoning_summary_text.delta", {
        item_id: id,
        output_index: output.length,
        summary_index: 0,
        delta,
      });
    }
    const include = Array.isArray(body.include) ? body.include : [];
    const encrypted = include.includes("reasoning.encrypted_content")
      ? { encrypted_content: `enc:${btoa(String.fromCharCode(...encoder.encode(step.reasoning)))}` }
      : {};
    finishItem({
      id,
      type: "reasoning",
      summary: [{ type: "summary_text", text: step.reasoning }],
      ...encrypted,
    });
  }
  if (step.text !== undefined) {
    const id = randomId("msg");
    emit("response.output_item.added", {
      output_index: output.length,
      item: { id, type: "message", role: "assistant", status: "in_progress", content: [] },
    });
    for (const delta of words(step.text)) {
      emit("response.output_text.delta", {
        item_id: id,
        output_index: output.length,
        content_index: 0,
        delta,
      });
    }
    const content = [{ type: "output_text", text: step.text, annotations: [] }];
    finishItem({ id, type: "message", role: "assistant", status: "completed", content });
  }
  for (const call of step.tool_calls ?? []) {
    if (call.custom) {
      const item = {
        id: randomId("ctc"),
        type: "custom_tool_call",
        call_id: call.id ?? randomId("call"),
        name: call.name,
        input: argumentsText(call),
        status: "completed",
      };
      emit("response.output_item.added", { output_index: output.length, item: { ...item, input: "" } });
      emit("response.custom_tool_call_input.delta", {
        item_id: item.id,
        output_index: output.length,
        delta: item.input,
      });
      finishItem(item);
      continue;
    }
    const item = {
      id: randomId("fc"),
      type: "function_call",
      call_id: call.id ?? randomId("call"),
      name: call.name,
      ...(call.namespace ? { namespace: call.namespace } : {}),
      arguments: argumentsText(call),
      status: "completed",
    };
    emit("response.output_item.added", { output_index: output.length, item: { ...item, arguments: "" } });
    emit("response.function_call_arguments.delta", {
      item_id: item.id,
      output_index: output.length,
      delta: item.arguments,
    });
    finishItem(item);
  }
  const usage = usageFor(step, body);
  emit("response.completed", {
    response: {
      ...base,
      status: "completed",
      output,
      usage: {
        input_tokens: usage.input_tokens,
        input_tokens_details: { cached_tokens: usage.cached_tokens },
        output_tokens: usage.output_tokens,
        output_tokens_details: { reasoning_tokens: usage.reasoning_tokens },
        total_tokens: usage.input_tokens + usage.output_tokens,
      },
    },
  });
  return out;
}

/** The Chat Completions chunk sequence for one step; tool call arguments arrive in two fragments. */
function chatEvents(step: Step, body: Record<string, unknown>): string[] {
  const base = { id: randomId("chatcmpl"), object: "chat.completion.chunk", created: 0, model: body.model };
  const out: string[] = [];
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    out.push(
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  chunk({ role: "assistant", content: "" });
  for (const delta of words(step.reasoning ?? "")) chunk({ reasoning_content: delta });
  for (const delta of words(step.text ?? "")) chunk({ content: delta });
  (step.tool_calls ?? []).forEach((call, index) => {
    const args = argumentsText(call);
    const half = Math.floor(args.length / 2);
    const id = call.id ?? randomId("call");
    chunk({
      tool_calls: [{
        index,
        id,
        type: "function",
        function: { name: call.name, arguments: args.slice(0, half) },
      }],
    });
    chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
  });
  chunk({}, step.tool_calls?.length ? "tool_calls" : "stop");
  const usage = usageFor(step, body);
  const wireUsage = {
    prompt_tokens: usage.input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.input_tokens + usage.output_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoning_tokens },
  };
  out.push(`data: ${JSON.stringify({ ...base, choices: [], usage: wireUsage })}\n\n`);
  out.push("data: [DONE]\n\n");
  return out;
}

/** The Messages API's error body. */
function anthropicError(status: number, type: string, message: string): Response {
  return Response.json({ type: "error", error: { type, message } }, { status });
}

function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
  };
  return types[status] ?? "api_error";
}

/** The signature the server gives a thinking block, and checks when the block comes back. */
function thinkingSignature(text: string): string {
  return `sig:${btoa(String.fromCharCode(...encoder.encode(text)))}`;
}

/** Why the real Messages API would refuse this request (400), if it would. */
function invalidMessagesRequest(headers: Headers, body: Record<string, unknown>): string | undefined {
  if (!headers.get("anthropic-version")) return "anthropic-version: header is required";
  if (typeof body.max_tokens !== "number") return "max_tokens: Field required";
  const messages = Array.isArray(body.messages) ? body.messages as Record<string, any>[] : [];
  if (messages.length === 0) return "messages: at least one message is required";
  let previousToolUses = new Set<string>();
  for (const [i, message] of messages.entries()) {
    const blocks: Record<string, any>[] = Array.isArray(message.content) ? message.content : [];
    for (const block of blocks) {
      if (block?.type === "tool_result" && !previousToolUses.has(block.tool_use_id)) {
        return `messages.${i}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. ` +
          "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.";
      }
      if (block?.type === "thinking" && block.signature !== thinkingSignature(String(block.thinking ?? ""))) {
        return `messages.${i}.content: Invalid \`signature\` in \`thinking\` block`;
      }
    }
    previousToolUses = new Set(
      blocks.filter((b) => b?.type === "tool_use").map((b) => String(b.id)),
    );
  }
  const thinking = (body.thinking as { type?: string } | undefined)?.type === "enabled";
  const lastAssistant = messages.findLast((m) => m.role === "assistant");
  const lastBlocks: Record<string, any>[] = Array.isArray(lastAssistant?.content)
    ? lastAssistant.content
    : [];
  if (thinking && lastBlocks.some((b) => b?.type === "tool_use")) {
    const first = lastBlocks[0]?.type;
    if (first !== "thinking" && first !== "redacted_thinking") {
      return "messages: Expected `thinking` or `redacted_thinking`, but found `" + first +
        "`. When `thinking` is enabled, a final `assistant` message must start with a thinking block.";
    }
  }
  return undefined;
}

/** The Messages API event sequence for one step; a tool call's JSON arrives in two fragments. */
function messagesEvents(step: Step, body: Record<string, unknown>): string[] {
  const out: string[] = [];
  const emit = (type: string, data: Record<string, unknown>) =>
    out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const usage = usageFor(step, body);
  emit("message_start", {
    message: {
      id: randomId("msg"),
      type: "message",
      role: "assistant",
      model: body.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens - usage.cached_tokens,
        cache_read_input_tokens: usage.cached_tokens,
        cache_creation_input_tokens: 0,
        output_tokens: 1,
      },
    },
  });
  if (step.stream_error) {
    emit("error", { error: step.stream_error });
    return out;
  }
  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
    emit("content_block_start", { index, content_block: start });
    for (const delta of deltas) emit("content_block_delta", { index, delta });
    emit("content_block_stop", { index });
    index++;
  };
  if (step.redacted_thinking !== undefined) {
    block({ type: "redacted_thinking", data: step.redacted_thinking }, []);
  }
  if (step.reasoning) {
    const deltas: Record<string, unknown>[] = words(step.reasoning).map((thinking) => ({
      type: "thinking_delta",
      thinking,
    }));
    if (step.signature !== false) {
      deltas.push({ type: "signature_delta", signature: thinkingSignature(step.reasoning) });
    }
    block({ type: "thinking", thinking: "", signature: "" }, deltas);
  }
  if (step.text !== undefined) {
    block(
      { type: "text", text: "" },
      words(step.text).map((text) => ({ type: "text_delta", text })),
    );
  }
  for (const call of step.tool_calls ?? []) {
    const args = argumentsText(call);
    const half = Math.floor(args.length / 2);
    block(
      { type: "tool_use", id: call.id ?? randomId("toolu"), name: call.name, input: {} },
      [
        { type: "input_json_delta", partial_json: args.slice(0, half) },
        { type: "input_json_delta", partial_json: args.slice(half) },
      ],
    );
  }
  out.splice(1, 0, `event: ping\ndata: {"type": "ping"}\n\n`);
  const stopReason = step.stop_reason ?? (step.tool_calls?.length ? "tool_use" : "end_turn");
  emit("message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens + usage.reasoning_tokens },
  });
  emit("message_stop", {});
  return out;
}

function cliOption(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

async function main(): Promise<void> {
  const args = platform.args();
  const script = cliOption(args, "--script");
  if (!script) {
    platform.writeStderr(
      "usage: fixture_model_server.ts --script FILE.yaml [--port N] [--hostname H] [--log FILE]\n",
    );
    platform.exit(2);
  }
  const server = await startFixtureModelServer({
    script,
    port: Number(cliOption(args, "--port") ?? 0),
    hostname: cliOption(args, "--hostname"),
    log: cliOption(args, "--log"),
  });
  await platform.writeStdout(`${server.url}\n`);
  const stop = async () => {
    await server.close();
    platform.exit(0);
  };
  platform.onSignal("SIGINT", stop);
  platform.onSignal("SIGTERM", stop);
}

if (import.meta.main) await main();
