import { notStarted } from "../platform/mod.ts";
import { deadline } from "../shared/mod.ts";
import type { HookServices } from "./handler_services.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";
import type { HandlerRunResult } from "./http_runner.ts";

/** What a prompt or agent hook's model is told; its answer must be this JSON and nothing else. */
export const PROMPT_HOOK_INSTRUCTIONS =
  "You evaluate one event of an agent session for a hook. Answer with one JSON object and nothing " +
  'else: {"ok": true} to let it proceed, or {"ok": false, "reason": "why"} to stop it.';

/** `$ARGUMENTS` becomes the event JSON; a prompt without it gets the JSON appended, as in Claude Code. */
export function promptWithArguments(text: string, input: string): string {
  // A function replacement: a `$&` or `$'` in the event JSON (a command's text) is text, not a pattern.
  return text.includes("$ARGUMENTS") ? text.replaceAll("$ARGUMENTS", () => input) : `${text}\n\n${input}`;
}

/**
 * A `prompt` hook is one model request, an `agent` hook a read-only subagent; either answers
 * `{ok, reason}`. `ok: false` reads as exit 2 with the reason (the event's block, deny or
 * continuation); `ok: true` as exit 0. Any other answer fails the run, named.
 */
export async function runPromptHook(
  handler: HookHandlerInfo,
  options: { input: string; services: HookServices; cwd: string; signal?: AbortSignal },
): Promise<HandlerRunResult> {
  const started = performance.now();
  const kind = handler.type === "agent" ? "agent" : "prompt";
  const fail = (problem: string): HandlerRunResult => ({
    ...notStarted(performance.now() - started),
    problem,
  });
  const run = kind === "agent" ? options.services.runAgent : options.services.ask;
  if (!run) {
    return fail(`${kind} hook not run: no ${kind === "agent" ? "subagent engine" : "model"} in this session`);
  }
  const limit = deadline(options.signal, handler.timeoutSec * 1000);
  let answer: string;
  try {
    answer = await run.call(options.services, {
      ...(handler.prompt?.model ? { model: handler.prompt.model } : {}),
      instructions: PROMPT_HOOK_INSTRUCTIONS,
      prompt: promptWithArguments(handler.prompt!.text, options.input),
      signal: limit.signal,
      cwd: options.cwd,
    });
  } catch (error) {
    const durationMs = performance.now() - started;
    if (limit.timedOut()) return { ...notStarted(durationMs), timedOut: true };
    if (options.signal?.aborted) return { ...notStarted(durationMs), aborted: true };
    return fail(`${kind} hook's model request failed: ${(error as Error).message}`);
  } finally {
    limit.end();
  }
  const verdict = readVerdict(answer);
  if (!verdict.ok) return fail(`${kind} hook's model ${verdict.problem}`);
  const durationMs = performance.now() - started;
  if (verdict.value.ok) return { ...notStarted(durationMs), code: 0 };
  const reason = verdict.value.reason?.trim() || `${kind} hook ${handler.key} answered ok: false`;
  return { ...notStarted(durationMs), code: 2, stderr: reason };
}

function readVerdict(
  answer: string,
): { ok: true; value: { ok: boolean; reason?: string } } | { ok: false; problem: string } {
  // A model may fence its JSON; the fence is not part of the answer.
  const text = answer.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, "$1");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: `answered non-JSON: ${JSON.stringify(answer.trim().slice(0, 120))}` };
  }
  const v = value as { ok?: unknown; reason?: unknown };
  if (typeof value !== "object" || value === null || typeof v.ok !== "boolean") {
    return { ok: false, problem: `answered JSON without a boolean "ok": ${text.slice(0, 120)}` };
  }
  if (v.reason !== undefined && typeof v.reason !== "string") {
    return { ok: false, problem: `answered a "reason" that is not a string` };
  }
  return { ok: true, value: { ok: v.ok, ...(typeof v.reason === "string" ? { reason: v.reason } : {}) } };
}
