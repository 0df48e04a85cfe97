import type { Platform } from "../platform/mod.ts";
import type { EventSink } from "../shared/mod.ts";
import { runHookCommand } from "./command_runner.ts";
import { eventLabel, eventUsesMatcher, type HookEventName } from "./event_names.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";
import type { HookEffect } from "./outputs/hook_effect.ts";
import { interpretRun } from "./interpret_run.ts";
import { type CompiledMatcher, compileMatcher, matcherMatches } from "./matcher.ts";

export type HookRunStatus = "completed" | "failed" | "blocked" | "stopped";

export interface HookRunEntry {
  kind: "context" | "feedback" | "stop" | "warning" | "error";
  text: string;
}

/** One handler's run; the dispatcher returns these in configured (display) order. */
export interface HookRunRecord {
  runId: string;
  handler: HookHandlerInfo;
  status: HookRunStatus;
  effect: HookEffect;
  durationMs: number;
  /** 0 for the first run to finish: later-completed rewrites win (HK-9). */
  completionIndex: number;
  exitCode: number | null;
  entries: HookRunEntry[];
}

export interface DispatchRequest {
  event: HookEventName;
  /** Tool name + aliases, session source, compaction trigger, agent type; ignored for Stop/UserPromptSubmit. */
  matchValues: string[];
  payload: Record<string, unknown>;
  cwd: string;
  signal?: AbortSignal;
  toolUseId?: string;
}

export interface DispatcherOptions {
  handlers: HookHandlerInfo[];
  platform: Platform;
  events: EventSink;
  baseEnv?: Record<string, string>;
  wrapCommand?: (argv: string[]) => string[];
}

export type Dispatch = (request: DispatchRequest) => Promise<HookRunRecord[]>;

/** Matching runnable handlers run concurrently; each runs at most once however many aliases match. */
export function createDispatcher(options: DispatcherOptions): Dispatch {
  const compiled = new Map<string, CompiledMatcher>();
  for (const h of options.handlers) {
    const result = compileMatcher(h.matcher);
    if (result.ok) compiled.set(h.key, result.matcher);
  }
  return async (request) => {
    const selected = options.handlers.filter((h) =>
      h.runnable && h.event === request.event && compiled.has(h.key) &&
      (!eventUsesMatcher(h.event) || matcherMatches(compiled.get(h.key)!, request.matchValues))
    );
    if (selected.length === 0) return [];
    const input = JSON.stringify(request.payload);
    let finished = 0;
    const runs = selected.map(async (handler): Promise<HookRunRecord> => {
      const runId = `${eventLabel(handler.event)}:${handler.displayOrder}:${handler.sourcePath}` +
        (request.toolUseId ? `:${request.toolUseId}` : "");
      options.events({
        type: "hook.started",
        run_id: runId,
        event: handler.event,
        source: handler.sourcePath,
        ...(handler.statusMessage ? { status_message: handler.statusMessage } : {}),
      });
      const result = await runHookCommand(handler, {
        ...options,
        input,
        cwd: request.cwd,
        signal: request.signal,
      });
      const effect = interpretRun(handler.event, handler, result);
      const record: HookRunRecord = {
        runId,
        handler,
        status: statusOf(effect),
        effect,
        durationMs: Math.round(result.durationMs),
        completionIndex: finished++,
        exitCode: result.code,
        entries: entriesOf(effect),
      };
      options.events({
        type: "hook.completed",
        run_id: runId,
        event: handler.event,
        source: handler.sourcePath,
        status: record.status,
        duration_ms: record.durationMs,
        display_order: handler.displayOrder,
        entries: record.entries,
      });
      return record;
    });
    const records = await Promise.all(runs);
    return records.sort((a, b) => a.handler.displayOrder - b.handler.displayOrder);
  };
}

function statusOf(effect: HookEffect): HookRunStatus {
  if (effect.error !== undefined) return "failed";
  if (effect.stop) return "stopped";
  if (effect.block) return "blocked";
  return "completed";
}

function entriesOf(effect: HookEffect): HookRunEntry[] {
  const entries: HookRunEntry[] = effect.additionalContexts.map((text) => ({ kind: "context", text }));
  if (effect.error !== undefined) entries.push({ kind: "error", text: effect.error });
  if (effect.stop) entries.push({ kind: "stop", text: effect.stop.reason });
  if (effect.block && effect.block.reason !== effect.stop?.reason) {
    entries.push({ kind: "feedback", text: effect.block.reason });
  }
  if (effect.systemMessage !== undefined) entries.push({ kind: "warning", text: effect.systemMessage });
  return entries;
}
