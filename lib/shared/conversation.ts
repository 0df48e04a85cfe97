/**
 * Provider-neutral conversation items and model stream events. The model subsystem translates them
 * to and from the wire formats; the loop only ever sees these.
 */

export type JsonSchema = Record<string, unknown>;

/** A part of a tool output beyond plain text (MCP images, audio). */
export type OutputPart =
  | { type: "text"; text: string }
  | { type: "image"; mimeType: string; data: string }
  | { type: "audio"; mimeType: string; data: string };

/**
 * An image sent to the model with a user message (`@picture.png`, a pasted image path, view_image):
 * base64 bytes and the MIME type sniffed from them. Each wire maps it to its own part — Responses'
 * `input_image`, Chat's `image_url`, Messages' `image` block with a base64 `source` (lib/model).
 */
export interface ImageInput {
  mimeType: string;
  data: string;
  /** Where it came from, as the person or the model named it (shown, never sent). */
  source?: string;
}

export type CallOutputStatus = "success" | "error" | "denied" | "aborted";

export type ConversationItem =
  | {
    type: "message";
    role: "user" | "developer" | "system" | "assistant";
    content: string;
    id?: string;
    /** Images after the text (user messages only; #23 item 3). */
    images?: ImageInput[];
  }
  | {
    type: "reasoning";
    /** The summary people may read (empty when the provider gave none). */
    summary: string;
    /**
     * The Responses API's opaque `encrypted_content`: the reasoning itself, sent back on later
     * requests so a reasoning model keeps its chain across tool calls and turns (nothing is stored
     * server-side). Absent for providers and models that do not return it.
     */
    encryptedContent?: string;
    /**
     * Anthropic's `thinking` block signature: the block (`summary` holding its text) goes back
     * verbatim with it on later requests, which the Messages API requires within a tool-use turn.
     */
    signature?: string;
    /** Anthropic's `redacted_thinking` data: opaque, sent back as it came. */
    redactedData?: string;
    id?: string;
  }
  | {
    type: "function_call";
    callId: string;
    name: string;
    arguments: string;
    id?: string;
    /** The Responses namespace the call names (sent back as it came). */
    namespace?: string;
    /** A Responses freeform (`custom_tool_call`) call: `arguments` is its raw input text. */
    custom?: true;
  }
  | {
    type: "function_call_output";
    callId: string;
    output: string;
    status: CallOutputStatus;
    content?: OutputPart[];
    /** Answers a freeform call: the Responses wire sends it as `custom_tool_call_output`. */
    custom?: true;
  };

export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: JsonSchema;
  /**
   * A group the Responses wire declares it in (`type: "namespace"`, as Codex sends its
   * `multi_agent_v1` tools); the other wires declare the function by its name alone.
   */
  namespace?: ToolNamespace;
  /**
   * Declared as a Responses freeform tool (`type: "custom"`) constrained by this grammar, as Codex
   * declares `apply_patch`; the other wires declare the function with its `parameters` (`{input}`).
   */
  freeform?: FreeformFormat;
}

/** A freeform tool's input grammar (the Responses API's `format: {type: "grammar"}`). */
export interface FreeformFormat {
  syntax: "lark";
  definition: string;
}

export interface ToolNamespace {
  name: string;
  description: string;
}

export interface Usage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}

export interface ModelRequest {
  model: string;
  instructions: string;
  input: ConversationItem[];
  tools: ToolDeclaration[];
  parallelToolCalls: boolean;
  /** The provider's own tools to declare beside the functions (`tools.web_search`; #23 item 3). */
  hostedTools?: HostedTools;
  /**
   * `exec --output-schema` (#25 item 3): the JSON Schema the final answer must match, sent the way
   * the wire carries it (Responses `text.format`, Chat `response_format`, Messages a forced tool).
   */
  outputSchema?: Record<string, unknown>;
  /**
   * This request's reasoning effort, over the client's `model_reasoning_effort`: a subagent spawned
   * with Codex's `reasoning_effort` (or an agent's frontmatter `effort`) asks with its own (#22).
   */
  reasoningEffort?: string;
}

/**
 * The tool the Messages wire declares for `outputSchema` (Claude Code's name for its `--json-schema`
 * tool): its call is the final answer, decoded as the assistant's text.
 */
export const STRUCTURED_OUTPUT_TOOL = "StructuredOutput";

/**
 * Tools the provider runs itself. `webSearch`: Codex's `tools.web_search` — "live" searches the web,
 * "cached" only the provider's index (Responses' `external_web_access: false`).
 */
export interface HostedTools {
  webSearch?: "live" | "cached";
}

export type ModelStreamEvent =
  | { type: "text_delta"; delta: string }
  | { type: "reasoning_delta"; delta: string }
  | { type: "item_done"; item: ConversationItem }
  | { type: "completed"; usage: Usage };
