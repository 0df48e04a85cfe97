import { memo, z } from "../../shared/mod.ts";
import { APPROVAL_POLICIES, SANDBOX_MODES } from "./policies.ts";

const wireApiSchema = memo(() => z.enum(["responses", "chat", "messages"]));

const modelProviderSchema = memo(() =>
  z.strictObject({
    name: z.optional(z.string()),
    base_url: z.optional(z.string()),
    env_key: z.optional(z.string()),
    env_key_instructions: z.optional(z.string()),
    wire_api: z.optional(wireApiSchema()),
    http_headers: z.optional(z.record(z.string(), z.string())),
    env_http_headers: z.optional(z.record(z.string(), z.string())),
    query_params: z.optional(z.record(z.string(), z.string())),
    request_max_retries: z.optional(z.number().check(z.int(), z.minimum(0))),
    stream_max_retries: z.optional(z.number().check(z.int(), z.minimum(0))),
    stream_idle_timeout_ms: z.optional(z.number().check(z.int(), z.positive())),
    stream_max_bytes: z.optional(z.number().check(z.int(), z.positive())),
    stream_max_duration_ms: z.optional(z.number().check(z.int(), z.positive())),
    /**
     * Responses wire: whether the endpoint takes freeform (`type: "custom"`) tools, as OpenAI's does.
     * false declares them (Codex's apply_patch) as functions taking `{input}` (#23 item 2).
     */
    supports_custom_tools: z.optional(z.boolean()),
  })
);

const sandboxModeSchema = memo(() => z.enum(SANDBOX_MODES));
const approvalPolicySchema = memo(() => z.enum(APPROVAL_POLICIES));

const sandboxWorkspaceWriteSchema = () =>
  z.strictObject({
    writable_roots: z.optional(z.array(z.string())),
    network_access: z.optional(z.boolean()),
    exclude_tmpdir_env_var: z.optional(z.boolean()),
    exclude_slash_tmp: z.optional(z.boolean()),
    allow_unix_sockets: z.optional(z.array(z.string())),
  });

const projectEntrySchema = () =>
  z.strictObject({
    trust_level: z.optional(z.enum(["trusted", "untrusted"])),
    /** Trellis: `trellis project trust` records each layer file's hash (path relative to the project). */
    layer_hashes: z.optional(z.record(z.string(), z.string())),
  });

/** Keys a profile may set (Codex's profile keys). */
const profileSchema = () =>
  z.strictObject({
    model: z.optional(z.string()),
    model_provider: z.optional(z.string()),
    model_context_window: z.optional(z.number().check(z.int(), z.positive())),
    model_reasoning_effort: z.optional(z.string()),
    approval_policy: z.optional(approvalPolicySchema()),
    sandbox_mode: z.optional(sandboxModeSchema()),
    instructions: z.optional(z.string()),
  });

/** Each top-level key's schema, built when a layer sets the key (parseConfigTable in mod.ts). */
export const coreSections = {
  model: () => z.string(),
  model_provider: () => z.string(),
  model_providers: () => z.record(z.string(), modelProviderSchema()),
  model_context_window: () => z.number().check(z.int(), z.positive()),
  model_reasoning_effort: () => z.string(),
  approval_policy: approvalPolicySchema,
  sandbox_mode: sandboxModeSchema,
  sandbox_workspace_write: sandboxWorkspaceWriteSchema,
  profile: () => z.string(),
  profiles: () => z.record(z.string(), profileSchema()),
  projects: () => z.record(z.string(), projectEntrySchema()),
  project_root_markers: () => z.array(z.string()),
  instructions: () => z.string(),
  /** Codex: total bytes of project AGENTS.md files read (default 32 KiB; 0 turns them off). */
  project_doc_max_bytes: () => z.number().check(z.int(), z.minimum(0)),
  /** Codex: more file names tried in each directory after AGENTS.override.md and AGENTS.md. */
  project_doc_fallback_filenames: () => z.array(z.string()),
  /** Trellis: also read Claude Code's CLAUDE.md files and their `@path` imports (default true). */
  project_doc_claude_md: () => z.boolean(),
  tool_output_max_bytes: () => z.number().check(z.int(), z.positive()),
  max_steps: () => z.number().check(z.int(), z.positive()),
  /**
   * Whose tool names and argument shapes the model sees (#23 item 2): `auto` (each family its own
   * CLI's: Claude models Claude Code's, GPT-5 models Codex's, others Trellis's), or one set for all.
   */
  tool_set: () => z.enum(["auto", "codex", "claude", "trellis"]),
  /** Codex's: compact automatically when the context reaches this many tokens (default: 90% of the window). */
  model_auto_compact_token_limit: () => z.number().check(z.int(), z.positive()),
  /** Codex's: the prompt of the summarization request a compaction sends. */
  compact_prompt: () => z.string().check(z.minLength(1)),
  /** An automatic compaction first elides tool outputs older than the last N user turns (0: never). */
  elide_tool_outputs_after_turns: () => z.number().check(z.int(), z.minimum(0)),
  /** How long a turn waits for optional MCP servers before its first step (required ones: always). */
  mcp_startup_grace_sec: () => z.number().check(z.minimum(0)),
};
