import type { CommandResult } from "../platform/mod.ts";
import { parseContextlessText, parseHookJson } from "./parse_hook_output.ts";
import { eventSpec, type HookEventName } from "./hook_events.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";
import type { HookEffect } from "./outputs/hook_effect.ts";
import { readVendorResult } from "./vendor_outputs.ts";

/**
 * Exit codes (§2.8), then the event's stdout contract (§2.7) — a Gemini or Copilot CLI hook's by its
 * own CLI's (#24 item 3); `on_failure = "block"` last. `toolInput`: the call's arguments, on tool events.
 */
export function interpretRun(
  event: HookEventName,
  handler: HookHandlerInfo,
  result: CommandResult & { problem?: string },
  toolInput?: unknown,
): HookEffect {
  const effect = readResult(event, handler, result, toolInput);
  const unanswered = result.aborted || (result.code === null && result.signal !== null && !result.timedOut);
  if (unanswered && eventSpec(event).guard) {
    // Ctrl-C while a guard runs must not let the call through (#13): no answer is not an allow.
    return { ...effect, block: { reason: `${event} hook ${handler.key} did not answer (${effect.error})` } };
  }
  if (effect.error !== undefined && handler.onFailure === "block" && eventSpec(event).failureCanBlock) {
    return {
      ...effect,
      block: { reason: `hook ${handler.key} failed and is configured to block: ${effect.error}` },
    };
  }
  return effect;
}

function readResult(
  event: HookEventName,
  handler: HookHandlerInfo,
  result: CommandResult & { problem?: string },
  toolInput: unknown,
): HookEffect {
  const fail = (error: string): HookEffect => ({ additionalContexts: [], error });
  if (result.problem !== undefined) return fail(result.problem);
  if (result.error !== undefined) return fail(`hook failed to start: ${result.error}`);
  if (result.timedOut) return fail(`hook timed out after ${handler.timeoutSec}s`);
  if (result.aborted) return fail("hook was cancelled");
  if (result.code === null) {
    return fail(`hook exited without a status code${result.signal ? ` (killed by ${result.signal})` : ""}`);
  }
  if (handler.dialect) {
    if (result.stdoutTruncated) return fail("hook output exceeded the output size cap and was cut");
    return readVendorResult(handler, result, toolInput);
  }
  if (result.code === 2) {
    const reason = result.stderr.trim();
    if (!eventSpec(event).exit2Blocks) return fail(`hook exited with code 2${reason ? `: ${reason}` : ""}`);
    if (reason === "") {
      return fail(`${event} hook exited with code 2 but did not write a blocking reason to stderr`);
    }
    return { additionalContexts: [], block: { reason } };
  }
  if (result.code !== 0) {
    const detail = result.stderr.trim().slice(0, 500);
    return fail(`hook exited with code ${result.code}${detail ? `: ${detail}` : ""}`);
  }
  if (result.stdoutTruncated) return fail("hook output exceeded the output size cap and was cut");
  const text = result.stdout.trim();
  if (text === "") return { additionalContexts: [] };
  if (!text.startsWith("{") && !text.startsWith("[")) return parseContextlessText(event, text);
  const json = readJsonOutput(text);
  if (!json.ok) return fail(`hook returned invalid ${event} JSON output`);
  const parsed = parseHookJson(event, json.value);
  if (!parsed.ok) return fail(parsed.error);
  const ignored = [...parsed.effect.ignored ?? [], ...json.otherLines];
  return { ...parsed.effect, ...(ignored.length > 0 ? { ignored } : {}) };
}

/**
 * The output object: the whole stdout if it is one JSON value; otherwise, as Claude Code scans it, the
 * first line that is a JSON object other than an `{"async": true}` declaration. Other JSON lines (a
 * trailing `{"metrics": …}`) are set aside and named by line number.
 */
export function readJsonOutput(
  text: string,
): { ok: true; value: unknown; otherLines: string[] } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text), otherLines: [] };
  } catch {
    // several lines: scan them
  }
  let value: unknown;
  const otherLines: string[] = [];
  text.split("\n").forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed.startsWith("{")) {
      if (trimmed !== "") otherLines.push(`line ${index + 1}`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      otherLines.push(`line ${index + 1}`);
      return;
    }
    const isAsync = (parsed as { async?: unknown }).async === true;
    if (value === undefined && !isAsync) value = parsed;
    else otherLines.push(`line ${index + 1}${isAsync ? " (async declaration)" : ""}`);
  });
  return value === undefined ? { ok: false } : { ok: true, value, otherLines };
}
