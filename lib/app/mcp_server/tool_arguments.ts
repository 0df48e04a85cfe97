import { memo, z } from "../../shared/mod.ts";

/**
 * The arguments of the `trellis` and `trellis-reply` tools: Codex's `codex` / `codex-reply`
 * (codex-rs/mcp-server/src/codex_tool_config.rs) under Trellis's names. Field names are Codex's
 * (kebab-case; `threadId`, with the deprecated `conversationId` still accepted). An unknown field
 * is an error naming it, never silently dropped: `approval_policy` for `approval-policy` would
 * otherwise run with the default policy.
 */

export const APPROVAL_POLICIES = ["untrusted", "on-failure", "on-request", "never"] as const;
export const SANDBOX_MODES = ["read-only", "workspace-write", "danger-full-access"] as const;

export interface TrellisArguments {
  prompt: string;
  model?: string;
  profile?: string;
  cwd?: string;
  "approval-policy"?: (typeof APPROVAL_POLICIES)[number];
  sandbox?: (typeof SANDBOX_MODES)[number];
  config?: Record<string, unknown>;
  "base-instructions"?: string;
}

export interface ReplyArguments {
  threadId: string;
  prompt: string;
}

const promptSchema = () => z.string().check(z.minLength(1, "must not be empty"));

const trellisSchema = memo(() =>
  z.strictObject({
    prompt: promptSchema(),
    model: z.optional(z.string()),
    profile: z.optional(z.string()),
    cwd: z.optional(z.string()),
    "approval-policy": z.optional(z.enum(APPROVAL_POLICIES)),
    sandbox: z.optional(z.enum(SANDBOX_MODES)),
    config: z.optional(z.record(z.string(), z.unknown())),
    "base-instructions": z.optional(z.string()),
  })
);

const replySchema = memo(() =>
  z.strictObject({
    threadId: z.optional(z.string()),
    conversationId: z.optional(z.string()),
    prompt: promptSchema(),
  })
);

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export function parseTrellisArguments(args: unknown): Parsed<TrellisArguments> {
  const parsed = z.safeParse(trellisSchema(), args);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: describe("trellis", parsed.error) };
}

export function parseReplyArguments(args: unknown): Parsed<ReplyArguments> {
  const parsed = z.safeParse(replySchema(), args);
  if (!parsed.success) return { ok: false, error: describe("trellis-reply", parsed.error) };
  const threadId = parsed.data.threadId ?? parsed.data.conversationId;
  if (threadId === undefined) {
    return {
      ok: false,
      error: 'Invalid arguments for trellis-reply: "threadId": required (the id `trellis` returned)',
    };
  }
  return { ok: true, value: { threadId, prompt: parsed.data.prompt } };
}

/** Each problem with the field it is about: `"approval-policy": Invalid option: expected one of …`. */
function describe(tool: string, error: { issues: z.core.$ZodIssue[] }): string {
  const problems = error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => `"${key}": unknown field`).join("; ");
    }
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "arguments";
    const missing = issue.code === "invalid_type" && issue.message.endsWith("received undefined");
    return `"${field}": ${missing ? "required" : issue.message}`;
  });
  return `Invalid arguments for ${tool}: ${problems.join("; ")}`;
}
