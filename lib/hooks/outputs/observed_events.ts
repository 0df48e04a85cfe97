import { memo, z } from "../../shared/mod.ts";
import type { HookEventName } from "../hook_events.ts";
import {
  baseEffect,
  commonOutputShape,
  failed,
  type HookEffect,
  isBlank,
  ok,
  type ParseOutcome,
  specificOutput,
  stopOf,
  validateOutput,
} from "./hook_effect.ts";

/**
 * The stdout contracts of the events #24 item 1 added, as Claude Code documents them: which of
 * `decision:"block"`, `additionalContext` and event fields each reads. Side-effect events read only
 * the universal fields (and `systemMessage`).
 */
interface ObservedContract {
  /** `decision: "block"` + `reason` blocks (the expansion, the config change) or feeds back. */
  block?: boolean;
  /** `hookSpecificOutput.additionalContext` reaches the model. */
  context?: boolean;
  /** Event fields of `hookSpecificOutput` beyond additionalContext. */
  specific?: () => Record<string, z.ZodMiniType>;
  read?: (specific: Record<string, unknown>) => Partial<HookEffect>;
}

const elicitationShape = () => ({
  action: z.optional(z.enum(["accept", "decline", "cancel"])),
  content: z.optional(z.record(z.string(), z.unknown())),
});
const readElicitation = (specific: Record<string, unknown>): Partial<HookEffect> =>
  specific.action === undefined ? {} : {
    elicitation: {
      action: specific.action as "accept" | "decline" | "cancel",
      ...(specific.content !== undefined ? { content: specific.content as Record<string, unknown> } : {}),
    },
  };

export const OBSERVED_CONTRACTS: Partial<Record<HookEventName, ObservedContract>> = {
  SessionEnd: {},
  Notification: {},
  PostToolUseFailure: { context: true },
  UserPromptExpansion: { block: true, context: true },
  StopFailure: {},
  PermissionDenied: {
    specific: () => ({ retry: z.optional(z.boolean()) }),
    read: (specific) => (specific.retry === true ? { retry: true } : {}),
  },
  PostToolBatch: { block: true, context: true },
  Elicitation: { specific: elicitationShape, read: readElicitation },
  ElicitationResult: { specific: elicitationShape, read: readElicitation },
  InstructionsLoaded: {},
  ConfigChange: { block: true },
  // `watchPaths` is read and named as not applied (Trellis watches no files yet).
  CwdChanged: {},
  Interrupt: {},
};

const schemas = new Map<HookEventName, () => z.ZodMiniType>();

/** The strict schema of one observed event's stdout (unread fields are set aside against it). */
export function observedOutputSchema(event: HookEventName): () => z.ZodMiniType {
  let schema = schemas.get(event);
  if (!schema) {
    const contract = OBSERVED_CONTRACTS[event] ?? {};
    schema = memo(() =>
      z.strictObject({
        ...commonOutputShape(),
        ...(contract.block
          ? { decision: z.optional(z.literal("block")), reason: z.optional(z.string()) }
          : {}),
        hookSpecificOutput: z.optional(specificOutput(event, {
          ...(contract.context ? { additionalContext: z.optional(z.string()) } : {}),
          ...(contract.specific?.() ?? {}),
        })),
      })
    );
    schemas.set(event, schema);
  }
  return schema;
}

export function parseObservedOutput(event: HookEventName, value: unknown): ParseOutcome {
  const checked = validateOutput(event, observedOutputSchema(event)(), value);
  if (!checked.ok) return failed(checked.error);
  const out = checked.data as {
    continue?: boolean;
    stopReason?: string;
    systemMessage?: string;
    decision?: "block";
    reason?: string;
    hookSpecificOutput?: Record<string, unknown>;
  };
  const contract = OBSERVED_CONTRACTS[event] ?? {};
  const specific = out.hookSpecificOutput ?? {};
  const effect: Partial<HookEffect> = {
    ...baseEffect(out, specific.additionalContext as string | undefined),
    ...stopOf(event, out),
    ...(contract.read?.(specific) ?? {}),
  };
  if (out.decision === "block") {
    if (isBlank(out.reason)) return failed(`${event} hook returned decision:block without a reason`);
    effect.block = { reason: out.reason!.trim() };
  } else if (out.reason !== undefined) {
    return failed(`${event} hook returned a reason without a decision`);
  }
  return ok(effect);
}
