import { memo, z } from "../../shared/mod.ts";

// Owned by the MCP subsystem: `[mcp_servers.<name>]` with exactly Codex's fields (codex-formats §4.1).
// Unknown keys must be ERRORS naming server and field, while validateLayer turns zod's
// `unrecognized_keys` into warnings: hence a loose object plus custom issues from superRefine.

export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]+$/;

const pinningSchema = () => z.enum(["block", "warn", "off"]);
const approvalModeSchema = () => z.enum(["auto", "prompt", "approve"]);
const stringMap = () => z.record(z.string(), z.string());

const envVarSchema = () =>
  z.union([
    z.string(),
    z.looseObject({ name: z.string(), source: z.optional(z.string()) }),
  ]);

const serverFields = () => ({
  command: z.optional(z.string().check(z.minLength(1))),
  args: z.optional(z.array(z.string())),
  env: z.optional(stringMap()),
  env_vars: z.optional(z.array(envVarSchema())),
  cwd: z.optional(z.string()),
  url: z.optional(z.string().check(z.minLength(1))),
  bearer_token_env_var: z.optional(z.string()),
  bearer_token: z.optional(z.unknown()),
  http_headers: z.optional(stringMap()),
  env_http_headers: z.optional(stringMap()),
  enabled: z.optional(z.boolean()),
  required: z.optional(z.boolean()),
  startup_timeout_sec: z.optional(z.number().check(z.nonnegative())),
  startup_timeout_ms: z.optional(z.number().check(z.int(), z.nonnegative())),
  tool_timeout_sec: z.optional(z.number().check(z.nonnegative())),
  /** Hard cap on one call, progress notifications or not (issue #13). */
  tool_max_sec: z.optional(z.number().check(z.positive())),
  /** Pinned tool definitions (issue #17); honoured only from user, system and `-c` layers. */
  mcp_tool_pinning: z.optional(pinningSchema()),
  enabled_tools: z.optional(z.array(z.string())),
  disabled_tools: z.optional(z.array(z.string())),
  default_tools_approval_mode: z.optional(approvalModeSchema()),
  tools: z.optional(
    z.record(z.string(), z.strictObject({ approval_mode: z.optional(approvalModeSchema()) })),
  ),
  supports_parallel_tool_calls: z.optional(z.boolean()),
  scopes: z.optional(z.array(z.string())),
  oauth: z.optional(z.looseObject({ client_id: z.optional(z.string()) })),
  oauth_resource: z.optional(z.string()),
  name: z.optional(z.string()),
  experimental_environment: z.optional(z.string()),
  sampling: z.optional(z.enum(["deny", "prompt", "allow"])),
  sampling_max_tokens: z.optional(z.number().check(z.int(), z.positive())),
  /** The bwrap profile a stdio server runs in (#17 item 2); default "none". */
  sandbox: z.optional(z.enum(["none", "read-only", "workspace-write"])),
  /** Whether a confined server may use the network (default false). */
  sandbox_network: z.optional(z.boolean()),
  /** Directories a confined server may write besides its mode's (relative to its cwd; `~/`). */
  sandbox_writable: z.optional(z.array(z.string().check(z.minLength(1)))),
});

/** The field names a `[mcp_servers.<name>]` table may use (readers of other formats map onto them). */
export const mcpServerFieldNames = memo(() => new Set(Object.keys(serverFields())));

const NOT_FOR_STDIO = [
  "url",
  "bearer_token_env_var",
  "bearer_token",
  "http_headers",
  "env_http_headers",
  "oauth",
  "oauth_resource",
];
const NOT_FOR_HTTP = [
  "args",
  "env",
  "env_vars",
  "cwd",
  "bearer_token",
  "sandbox_network",
  "sandbox_writable",
];

/**
 * A table that only sets `enabled`: not a definition but a switch over a server of that name defined
 * elsewhere (Codex's or Claude Code's files, a project's `.mcp.json`, a plugin) — "off for Trellis
 * only" (issue #21 item 9). The MCP subsystem applies it after every definition is read.
 */
export function isVeto(table: Record<string, unknown>): boolean {
  const keys = Object.keys(table).filter((k) => table[k] !== undefined);
  return keys.length === 1 && keys[0] === "enabled" && typeof table.enabled === "boolean";
}

export interface McpTableProblem {
  field: string;
  message: string;
  /** Key path inside the server table when deeper than `field`. */
  path?: (string | number)[];
}

/**
 * Codex's transport rules, as (field, message) pairs; empty when the table is valid. `known` is the
 * set of field names the server schema declares.
 */
function mcpServerTableProblems(table: Record<string, unknown>, known: Set<string>): McpTableProblem[] {
  const problems: McpTableProblem[] = [];
  for (const key of Object.keys(table)) {
    if (!known.has(key)) problems.push({ field: key, message: `unknown field \`${key}\`` });
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
    // Only a process can be confined: a remote server runs elsewhere.
    if (table.sandbox !== undefined && table.sandbox !== "none") {
      problems.push({ field: "sandbox", message: "sandbox is not supported for streamable_http" });
    }
  } else if (!isVeto(table)) {
    problems.push({
      field: "command",
      message: "invalid transport: set command (stdio) or url (streamable HTTP); a table with only " +
        "`enabled` switches a server defined elsewhere (Codex's or Claude Code's files, .mcp.json)",
    });
  }
  const confined = table.sandbox === "read-only" || table.sandbox === "workspace-write";
  for (const f of ["sandbox_network", "sandbox_writable"].filter(present)) {
    if (!confined && present("command")) {
      problems.push({ field: f, message: `${f} needs sandbox = "read-only" or "workspace-write"` });
    }
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

// A fast yes for the common table, before zod: building the ~40 field schemas and running them
// was the largest part of `mcp list` (~4 ms of its ~20 ms start). It answers true only where the
// schema accepts; anything it does not recognise goes to zod, which words the error.
const isString = (v: unknown): v is string => typeof v === "string";
const isNonEmpty = (v: unknown) => isString(v) && v.length > 0;
const isBool = (v: unknown) => typeof v === "boolean";
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) &&
  [Object.prototype, null].includes(Object.getPrototypeOf(v));
const stringsArray = (v: unknown) => Array.isArray(v) && v.every(isString);
const stringsMap = (v: unknown) => isPlain(v) && Object.values(v).every(isString);
const oneOf = (...values: string[]) => (v: unknown) => isString(v) && values.includes(v);
const approval = oneOf("auto", "prompt", "approve");
const FIELD_CHECKS: Record<string, (v: unknown) => boolean> = {
  command: isNonEmpty,
  args: stringsArray,
  env: stringsMap,
  env_vars: (v) =>
    Array.isArray(v) &&
    v.every((e) =>
      isString(e) || (isPlain(e) && isString(e.name) && (e.source === undefined || isString(e.source)))
    ),
  cwd: isString,
  url: isNonEmpty,
  bearer_token_env_var: isString,
  http_headers: stringsMap,
  env_http_headers: stringsMap,
  enabled: isBool,
  required: isBool,
  startup_timeout_sec: (v) => isNumber(v) && v >= 0,
  startup_timeout_ms: (v) => isNumber(v) && Number.isSafeInteger(v) && v >= 0,
  tool_timeout_sec: (v) => isNumber(v) && v >= 0,
  tool_max_sec: (v) => isNumber(v) && v > 0,
  mcp_tool_pinning: oneOf("block", "warn", "off"),
  enabled_tools: stringsArray,
  disabled_tools: stringsArray,
  default_tools_approval_mode: approval,
  tools: (v) =>
    isPlain(v) &&
    Object.values(v).every((t) =>
      isPlain(t) && Object.keys(t).every((k) => k === "approval_mode") &&
      (t.approval_mode === undefined || approval(t.approval_mode))
    ),
  supports_parallel_tool_calls: isBool,
  scopes: stringsArray,
  oauth: (v) => isPlain(v) && (v.client_id === undefined || isString(v.client_id)),
  oauth_resource: isString,
  name: isString,
  experimental_environment: isString,
  sampling: oneOf("deny", "prompt", "allow"),
  sampling_max_tokens: (v) => isNumber(v) && Number.isSafeInteger(v) && v > 0,
  sandbox: oneOf("none", "read-only", "workspace-write"),
  sandbox_network: isBool,
  sandbox_writable: (v) => Array.isArray(v) && v.every(isNonEmpty),
};

/** True only when mcpServerSchema would accept `table` (bearer_token, any value there, goes to zod). */
export function plainlyValid(table: unknown): boolean {
  if (!isPlain(table)) return false;
  for (const [key, value] of Object.entries(table)) {
    const check = FIELD_CHECKS[key];
    if (!check || !check(value)) return false;
  }
  return mcpServerTableProblems(table, KNOWN_FIELDS).length === 0;
}

const KNOWN_FIELDS = new Set(Object.keys(FIELD_CHECKS));

export const mcpServerSchema = memo(() => {
  const fields = serverFields();
  const known = new Set(Object.keys(fields));
  return z.looseObject(fields).check(z.superRefine((table, ctx) => {
    for (const problem of mcpServerTableProblems(table, known)) {
      ctx.addIssue({ code: "custom", message: problem.message, path: problem.path ?? [problem.field] });
    }
  }));
});

const mcpServersSchema = () =>
  z.pipe(
    z.record(z.string(), z.unknown()).check(z.superRefine((servers, ctx) => {
      for (const [name, table] of Object.entries(servers)) {
        if (!MCP_SERVER_NAME.test(name)) {
          ctx.addIssue({
            code: "custom",
            message: `invalid server name "${name}": use only letters, digits, "_" and "-"`,
            path: [name],
          });
          continue;
        }
        if (plainlyValid(table)) continue;
        const parsed = mcpServerSchema().safeParse(table);
        if (parsed.success) continue;
        for (const issue of parsed.error.issues) {
          ctx.addIssue({ code: "custom", message: issue.message, path: [name, ...issue.path] });
        }
      }
    })),
    // Each table was checked above against mcpServerSchema, which has no defaults or transforms (its
    // output is its input): checking all of them again here would double the start's cost per server.
    z.record(z.string(), z.custom<z.output<ReturnType<typeof mcpServerSchema>>>()),
  );

export const mcpSections = {
  mcp_servers: mcpServersSchema,
  tool_search: () => z.boolean(),
  /** Default for every server's pinned tool definitions (issue #17); project layers cannot set it. */
  mcp_tool_pinning: pinningSchema,
  /** Refuse plugin and project stdio servers without a sandbox profile (#17 item 2); user layer only. */
  mcp_require_sandbox: () => z.boolean(),
  /** Share of model_context_window MCP tool declarations may take before tool search turns on. */
  tool_search_context_share: () => z.number().check(z.gt(0), z.lte(1)),
};
