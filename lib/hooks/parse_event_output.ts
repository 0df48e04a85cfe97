import type { HookEventName } from "./event_names.ts";
import { parseCompactOutput } from "./outputs/compact.ts";
import {
  parseSessionStartOutput,
  parseSubagentStartOutput,
  parseUserPromptSubmitOutput,
} from "./outputs/context_events.ts";
import type { HookEffect, ParseOutcome } from "./outputs/hook_effect.ts";
import { parsePermissionRequestOutput } from "./outputs/permission_request.ts";
import { parsePostToolUseOutput } from "./outputs/post_tool_use.ts";
import { parsePreToolUseOutput } from "./outputs/pre_tool_use.ts";
import { parseStopOutput } from "./outputs/stop.ts";

/** The stdout JSON contract of each event. */
export function parseHookJson(event: HookEventName, value: unknown): ParseOutcome {
  switch (event) {
    case "PreToolUse":
      return parsePreToolUseOutput(value);
    case "PermissionRequest":
      return parsePermissionRequestOutput(value);
    case "PostToolUse":
      return parsePostToolUseOutput(value);
    case "PreCompact":
    case "PostCompact":
      return parseCompactOutput(event, value);
    case "SessionStart":
      return parseSessionStartOutput(value);
    case "UserPromptSubmit":
      return parseUserPromptSubmitOutput(value);
    case "SubagentStart":
      return parseSubagentStartOutput(value);
    case "SubagentStop":
    case "Stop":
      return parseStopOutput(event, value);
  }
}

/** Plain-text stdout with exit 0: context for SessionStart, SubagentStart and UserPromptSubmit; else ignored. */
export function parseContextlessText(event: HookEventName, text: string): HookEffect {
  const isContext = event === "SessionStart" || event === "SubagentStart" || event === "UserPromptSubmit";
  return { additionalContexts: isContext ? [text] : [] };
}
