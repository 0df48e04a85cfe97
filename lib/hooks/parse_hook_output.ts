import { z } from "../shared/mod.ts";
import { eventSpec, type HookEventName, OBSERVED_EVENTS } from "./hook_events.ts";
import { observedOutputSchema, parseObservedOutput } from "./outputs/observed_events.ts";
import { compactOutputSchema, parseCompactOutput } from "./outputs/compact.ts";
import {
  parseSessionStartOutput,
  parseSubagentStartOutput,
  parseUserPromptSubmitOutput,
  sessionStartOutputSchema,
  subagentStartOutputSchema,
  userPromptSubmitOutputSchema,
} from "./outputs/context_events.ts";
import type { HookEffect, ParseOutcome } from "./outputs/hook_effect.ts";
import { parsePermissionRequestOutput, permissionRequestOutputSchema } from "./outputs/permission_request.ts";
import { parsePostToolUseOutput, postToolUseOutputSchema } from "./outputs/post_tool_use.ts";
import { parsePreToolUseOutput, preToolUseOutputSchema } from "./outputs/pre_tool_use.ts";
import { parseStopOutput, stopOutputSchema } from "./outputs/stop.ts";

/**
 * Output fields Claude Code documents that Trellis reads but cannot apply: each is named in a
 * warning and the rest of the output applies (HK-8). Any other unread field is ignored quietly, as
 * Claude Code ignores it (`metrics` of Anthropic's security-guidance), and listed by `hooks test`.
 */
const DOCUMENTED_UNAPPLIED = new Set([
  "terminalSequence",
  "hookSpecificOutput.updatedToolOutput",
  "hookSpecificOutput.sessionTitle",
  "hookSpecificOutput.reloadSkills",
  "hookSpecificOutput.watchPaths",
]);

/** The stdout JSON contract of each event, read as Claude Code reads it: unread fields set aside first. */
export function parseHookJson(event: HookEventName, value: unknown): ParseOutcome {
  const contract = OUTPUT_CONTRACTS[event];
  const { value: read, unread } = setAsideUnread(contract.schema(), value);
  const parsed = contract.parse(read);
  if (!parsed.ok || unread.length === 0) return parsed;
  const notes = unread.filter((f) => DOCUMENTED_UNAPPLIED.has(f)).map((f) =>
    `${event} hook returned ${f}, which Trellis does not apply (ignored)`
  );
  const ignored = unread.filter((f) => !DOCUMENTED_UNAPPLIED.has(f));
  return {
    ok: true,
    effect: {
      ...parsed.effect,
      ...(notes.length > 0 ? { notes: [...parsed.effect.notes ?? [], ...notes] } : {}),
      ...(ignored.length > 0 ? { ignored } : {}),
    },
  };
}

/** Plain-text stdout with exit 0: context for SessionStart, SubagentStart and UserPromptSubmit; else ignored. */
export function parseContextlessText(event: HookEventName, text: string): HookEffect {
  return { additionalContexts: eventSpec(event).textIsContext ? [text] : [] };
}

/** Each event's stdout contract: its strict schema (to set unread fields aside) and its parser. */
const OUTPUT_CONTRACTS: Record<
  HookEventName,
  { schema: () => z.ZodMiniType; parse: (value: unknown) => ParseOutcome }
> = {
  ...Object.fromEntries(
    OBSERVED_EVENTS.map((event) => [event, {
      schema: () => observedOutputSchema(event)(),
      parse: (value: unknown) => parseObservedOutput(event, value),
    }]),
  ) as Record<
    (typeof OBSERVED_EVENTS)[number],
    { schema: () => z.ZodMiniType; parse: (value: unknown) => ParseOutcome }
  >,
  PreToolUse: { schema: preToolUseOutputSchema, parse: parsePreToolUseOutput },
  PermissionRequest: { schema: permissionRequestOutputSchema, parse: parsePermissionRequestOutput },
  PostToolUse: { schema: postToolUseOutputSchema, parse: parsePostToolUseOutput },
  PreCompact: { schema: compactOutputSchema, parse: (value) => parseCompactOutput("PreCompact", value) },
  PostCompact: { schema: compactOutputSchema, parse: (value) => parseCompactOutput("PostCompact", value) },
  SessionStart: { schema: sessionStartOutputSchema, parse: parseSessionStartOutput },
  UserPromptSubmit: { schema: userPromptSubmitOutputSchema, parse: parseUserPromptSubmitOutput },
  SubagentStart: { schema: subagentStartOutputSchema, parse: parseSubagentStartOutput },
  SubagentStop: { schema: stopOutputSchema, parse: (value) => parseStopOutput("SubagentStop", value) },
  Stop: { schema: stopOutputSchema, parse: (value) => parseStopOutput("Stop", value) },
};

/**
 * Removes the fields the event's (strict) schema does not know, at any depth, and names them by
 * path. Other problems are left for the event's parser to report.
 */
function setAsideUnread(schema: z.ZodMiniType, value: unknown): { value: unknown; unread: string[] } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { value, unread: [] };
  const current: unknown = structuredClone(value);
  const unread: string[] = [];
  // Each pass removes every unrecognized key zod reported; nested objects surface one level per pass.
  for (let pass = 0; pass < 4; pass++) {
    const result = z.safeParse(schema, current);
    if (result.success) break;
    const issues = result.error.issues.filter((i) => i.code === "unrecognized_keys");
    if (issues.length === 0) break;
    for (const issue of issues) {
      const holder = issue.path.reduce<any>((obj, key) => obj?.[key as string], current);
      for (const key of (issue as { keys: string[] }).keys) {
        delete holder?.[key];
        unread.push([...issue.path.map(String), key].join("."));
      }
    }
  }
  return { value: current, unread };
}
