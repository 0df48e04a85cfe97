import { z } from "zod";

export const wireApiSchema = z.enum(["responses", "chat"]);

export const modelProviderSchema = z.strictObject({
  name: z.string().optional(),
  base_url: z.string().optional(),
  env_key: z.string().optional(),
  env_key_instructions: z.string().optional(),
  wire_api: wireApiSchema.optional(),
  http_headers: z.record(z.string(), z.string()).optional(),
  env_http_headers: z.record(z.string(), z.string()).optional(),
  query_params: z.record(z.string(), z.string()).optional(),
  request_max_retries: z.number().int().min(0).optional(),
  stream_max_retries: z.number().int().min(0).optional(),
  stream_idle_timeout_ms: z.number().int().positive().optional(),
});

export const sandboxModeSchema = z.enum(["read-only", "workspace-write", "danger-full-access"]);
export const approvalPolicySchema = z.enum(["untrusted", "on-request", "on-failure", "never"]);

export const sandboxWorkspaceWriteSchema = z.strictObject({
  writable_roots: z.array(z.string()).optional(),
  network_access: z.boolean().optional(),
  exclude_tmpdir_env_var: z.boolean().optional(),
  exclude_slash_tmp: z.boolean().optional(),
});

export const projectEntrySchema = z.strictObject({
  trust_level: z.enum(["trusted", "untrusted"]).optional(),
});

/** Keys a profile may set (Codex's profile keys). */
export const profileSchema = z.strictObject({
  model: z.string().optional(),
  model_provider: z.string().optional(),
  model_context_window: z.number().int().positive().optional(),
  model_reasoning_effort: z.string().optional(),
  approval_policy: approvalPolicySchema.optional(),
  sandbox_mode: sandboxModeSchema.optional(),
  instructions: z.string().optional(),
});

export const coreShape = {
  model: z.string().optional(),
  model_provider: z.string().optional(),
  model_providers: z.record(z.string(), modelProviderSchema).optional(),
  model_context_window: z.number().int().positive().optional(),
  model_reasoning_effort: z.string().optional(),
  approval_policy: approvalPolicySchema.optional(),
  sandbox_mode: sandboxModeSchema.optional(),
  sandbox_workspace_write: sandboxWorkspaceWriteSchema.optional(),
  profile: z.string().optional(),
  profiles: z.record(z.string(), profileSchema).optional(),
  projects: z.record(z.string(), projectEntrySchema).optional(),
  project_root_markers: z.array(z.string()).optional(),
  instructions: z.string().optional(),
  tool_output_max_bytes: z.number().int().positive().optional(),
  max_steps: z.number().int().positive().optional(),
  /** How long a turn waits for optional MCP servers before its first step (required ones: always). */
  mcp_startup_grace_sec: z.number().min(0).optional(),
};
