import { z } from "zod";
import { memo } from "./lazy.ts";

// Owned by the MCP subsystem: `[mcp_servers.<name>]` with exactly Codex's fields (codex-formats §4.1).
// Unknown keys must be ERRORS naming server and field, while validateLayer turns zod's
// `unrecognized_keys` into warnings: hence a loose object plus custom issues from superRefine.

export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]+$/;

const approvalModeSchema = () => z.enum(["auto", "prompt", "approve"]);
const stringMap = () => z.record(z.string(), z.string());

const envVarSchema = () =>
  z.union([
    z.string(),
    z.looseObject({ name: z.string(), source: z.string().optional() }),
  ]);

const serverFields = () => ({
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: stringMap().optional(),
  env_vars: z.array(envVarSchema()).optional(),
  cwd: z.string().optional(),
  url: z.string().min(1).optional(),
  bearer_token_env_var: z.string().optional(),
  bearer_token: z.unknown().optional(),
  http_headers: stringMap().optional(),
  env_http_headers: stringMap().optional(),
  enabled: z.boolean().optional(),
  required: z.boolean().optional(),
  startup_timeout_sec: z.number().nonnegative().optional(),
  startup_timeout_ms: z.number().int().nonnegative().optional(),
  tool_timeout_sec: z.number().nonnegative().optional(),
  enabled_tools: z.array(z.string()).optional(),
  disabled_tools: z.array(z.string()).optional(),
  default_tools_approval_mode: approvalModeSchema().optional(),
  tools: z.record(z.string(), z.strictObject({ approval_mode: approvalModeSchema().optional() })).optional(),
  supports_parallel_tool_calls: z.boolean().optional(),
  scopes: z.array(z.string()).optional(),
  oauth: z.looseObject({ client_id: z.string().optional() }).optional(),
  oauth_resource: z.string().optional(),
  name: z.string().optional(),
  experimental_environment: z.string().optional(),
  sampling: z.enum(["deny", "prompt", "allow"]).optional(),
  sampling_max_tokens: z.number().int().positive().optional(),
});

const knownFields = memo(() => new Set(Object.keys(serverFields())));
const NOT_FOR_STDIO = [
  "url",
  "bearer_token_env_var",
  "bearer_token",
  "http_headers",
  "env_http_headers",
  "oauth",
  "oauth_resource",
];
const NOT_FOR_HTTP = ["args", "env", "env_vars", "cwd", "bearer_token"];

export interface McpTableProblem {
  field: string;
  message: string;
  /** Key path inside the server table when deeper than `field`. */
  path?: (string | number)[];
}

/** Codex's transport rules, as (field, message) pairs; empty when the table is valid. */
export function mcpServerTableProblems(table: Record<string, unknown>): McpTableProblem[] {
  const problems: McpTableProblem[] = [];
  for (const key of Object.keys(table)) {
    if (!knownFields().has(key)) problems.push({ field: key, message: `unknown field \`${key}\`` });
  }
  const present = (key: string) => table[key] !== undefined;
  if (present("command")) {
    for (const f of NOT_FOR_STDIO.filter(present)) {
      problems.push({ field: f, message: `${f} is not supported for stdio` });
    }
  } else if (present("url")) {
    for (const f of NOT_FOR_HTTP.filter(present)) {
      problems.push({ field: f, message: `${f} is not supported for streamable_http` });
    }
  } else {
    problems.push({ field: "command", message: "invalid transport" });
  }
  const envVars = Array.isArray(table.env_vars) ? table.env_vars : [];
  envVars.forEach((entry, index) => {
    const source = (entry as { source?: unknown } | null)?.source;
    if (typeof entry === "object" && source !== undefined && source !== "local" && source !== "remote") {
      problems.push({
        field: "env_vars",
        path: ["env_vars", index, "source"],
        message: `unsupported env_vars source \`${String(source)}\`; expected \`local\` or \`remote\``,
      });
    }
  });
  return problems;
}

const mcpServerSchema = memo(() =>
  z.looseObject(serverFields()).superRefine((table, ctx) => {
    for (const problem of mcpServerTableProblems(table)) {
      ctx.addIssue({ code: "custom", message: problem.message, path: problem.path ?? [problem.field] });
    }
  })
);

const mcpServersSchema = () =>
  z.record(z.string(), z.unknown()).superRefine((servers, ctx) => {
    for (const [name, table] of Object.entries(servers)) {
      if (!MCP_SERVER_NAME.test(name)) {
        ctx.addIssue({
          code: "custom",
          message: `invalid server name "${name}": use only letters, digits, "_" and "-"`,
          path: [name],
        });
        continue;
      }
      const parsed = mcpServerSchema().safeParse(table);
      if (parsed.success) continue;
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: "custom", message: issue.message, path: [name, ...issue.path] });
      }
    }
  }).pipe(z.record(z.string(), mcpServerSchema()));

export const mcpSections = {
  mcp_servers: mcpServersSchema,
  tool_search: () => z.boolean(),
  /** Share of model_context_window MCP tool declarations may take before tool search turns on. */
  tool_search_context_share: () => z.number().gt(0).lte(1),
};
