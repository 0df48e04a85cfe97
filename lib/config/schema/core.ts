import { z } from "zod";
import { memo } from "./lazy.ts";

const wireApiSchema = memo(() => z.enum(["responses", "chat"]));

const modelProviderSchema = memo(() =>
  z.strictObject({
    name: z.string().optional(),
    base_url: z.string().optional(),
    env_key: z.string().optional(),
    env_key_instructions: z.string().optional(),
    wire_api: wireApiSchema().optional(),
    http_headers: z.record(z.string(), z.string()).optional(),
    env_http_headers: z.record(z.string(), z.string()).optional(),
    query_params: z.record(z.string(), z.string()).optional(),
    request_max_retries: z.number().int().min(0).optional(),
    stream_max_retries: z.number().int().min(0).optional(),
    stream_idle_timeout_ms: z.number().int().positive().optional(),
  })
);

const sandboxModeSchema = memo(() => z.enum(["read-only", "workspace-write", "danger-full-access"]));
const approvalPolicySchema = memo(() => z.enum(["untrusted", "on-request", "on-failure", "never"]));

const sandboxWorkspaceWriteSchema = () =>
  z.strictObject({
    writable_roots: z.array(z.string()).optional(),
    network_access: z.boolean().optional(),
    exclude_tmpdir_env_var: z.boolean().optional(),
    exclude_slash_tmp: z.boolean().optional(),
  });

const projectEntrySchema = () =>
  z.strictObject({
    trust_level: z.enum(["trusted", "untrusted"]).optional(),
  });

/** Keys a profile may set (Codex's profile keys). */
const profileSchema = () =>
  z.strictObject({
    model: z.string().optional(),
    model_provider: z.string().optional(),
    model_context_window: z.number().int().positive().optional(),
    model_reasoning_effort: z.string().optional(),
    approval_policy: approvalPolicySchema().optional(),
    sandbox_mode: sandboxModeSchema().optional(),
    instructions: z.string().optional(),
  });

/** Each top-level key's schema, built when a layer sets the key (see lazy.ts). */
export const coreSections = {
  model: () => z.string(),
  model_provider: () => z.string(),
  model_providers: () => z.record(z.string(), modelProviderSchema()),
  model_context_window: () => z.number().int().positive(),
  model_reasoning_effort: () => z.string(),
  approval_policy: approvalPolicySchema,
  sandbox_mode: sandboxModeSchema,
  sandbox_workspace_write: sandboxWorkspaceWriteSchema,
  profile: () => z.string(),
  profiles: () => z.record(z.string(), profileSchema()),
  projects: () => z.record(z.string(), projectEntrySchema()),
  project_root_markers: () => z.array(z.string()),
  instructions: () => z.string(),
  tool_output_max_bytes: () => z.number().int().positive(),
  max_steps: () => z.number().int().positive(),
  /** How long a turn waits for optional MCP servers before its first step (required ones: always). */
  mcp_startup_grace_sec: () => z.number().min(0),
};
