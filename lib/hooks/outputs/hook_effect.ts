import { memo, z } from "../../shared/mod.ts";
import type { HookEventName } from "../hook_events.ts";

/** What one handler's run asks for, after its exit code and stdout were read. */
export interface HookEffect {
  additionalContexts: string[];
  /** PreToolUse/UserPromptSubmit block, PostToolUse feedback, Stop continuation, PermissionRequest deny. */
  block?: { reason: string };
  /** PermissionRequest allow. */
  allow?: boolean;
  /** PreToolUse rewrite (only with permissionDecision:"allow"). */
  updatedInput?: { value: unknown };
  /** PreToolUse `permissionDecision: "ask"`: the call goes to the approval prompt (#24 item 2). */
  ask?: { reason?: string };
  /** PreToolUse `permissionDecision: "defer"`: the call is not run and the turn ends, pending. */
  defer?: { reason?: string };
  /** PostToolUse `updatedMCPToolOutput`: replaces an MCP tool's output the model sees. */
  replacedOutput?: { value: unknown };
  /** PermissionDenied `retry: true`: the model is told it may try the call again. */
  retry?: boolean;
  /** Elicitation / ElicitationResult: the hook answers (or overrides the answer to) an MCP form. */
  elicitation?: { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };
  /** continue:false. */
  stop?: { reason: string };
  /** Shown to the user as a warning, never to the model. */
  systemMessage?: string;
  /** Set when the run failed: nothing else of it is applied (fail-open) unless on_failure = "block". */
  error?: string;
  /** Trellis's own warnings about this run (a documented field it cannot apply); the rest still applies. */
  notes?: string[];
  /** Output fields nobody documents for this event (`metrics` …): ignored as Claude Code ignores them. */
  ignored?: string[];
}

export type ParseOutcome = { ok: true; effect: HookEffect } | { ok: false; error: string };

export const failed = (error: string): ParseOutcome => ({ ok: false, error });
export const ok = (effect: Partial<HookEffect>): ParseOutcome => ({
  ok: true,
  effect: { additionalContexts: [], ...effect },
});

/** Fields every event's stdout JSON may carry (§2.7); built on first use, like every schema here. */
export const commonOutputShape = memo(() => ({
  continue: z.optional(z.boolean()),
  stopReason: z.optional(z.string()),
  suppressOutput: z.optional(z.boolean()),
  systemMessage: z.optional(z.string()),
}));

/** `hookSpecificOutput` must name its event. */
export function specificOutput<E extends HookEventName, S extends z.core.$ZodLooseShape>(event: E, shape: S) {
  return z.strictObject({ hookEventName: z.literal(event), ...shape });
}

/**
 * Validation of an output whose unread fields were already set aside (see `readEventOutput`): a
 * problem names the field path; the whole output is then invalid and the run fails.
 */
export function validateOutput<T>(
  event: HookEventName,
  schema: z.core.$ZodType<T>,
  value: unknown,
): { ok: true; data: T } | { ok: false; error: string } {
  const result = z.safeParse(schema, value);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  const at = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const key = [...issue.path.map(String), (issue as { keys: string[] }).keys[0]].join(".");
    return { ok: false, error: `${event} hook returned unsupported field "${key}"` };
  }
  return {
    ok: false,
    error: `${event} hook returned invalid JSON output: ${at || "(top level)"}: ${issue.message}`,
  };
}

export function isBlank(text: string | undefined): boolean {
  return text === undefined || text.trim() === "";
}

/** systemMessage and the optional additionalContext shared by most events. */
export function baseEffect(
  output: { systemMessage?: string },
  context?: string,
): Pick<HookEffect, "additionalContexts" | "systemMessage"> {
  return {
    additionalContexts: context !== undefined && context.trim() !== "" ? [context] : [],
    ...(output.systemMessage !== undefined ? { systemMessage: output.systemMessage } : {}),
  };
}

/** continue:false ends the turn with stopReason (or a default naming the event). */
export function stopOf(
  event: string,
  out: { continue?: boolean; stopReason?: string },
): Pick<HookEffect, "stop"> {
  if (out.continue !== false) return {};
  return {
    stop: { reason: isBlank(out.stopReason) ? `${event} hook stopped the turn` : out.stopReason!.trim() },
  };
}
