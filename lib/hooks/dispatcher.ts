import { type CommandResult, notStarted, type Platform } from "../platform/mod.ts";
import type { EventSink } from "../shared/mod.ts";
import type { HookCommandResult } from "./command_runner.ts";
import type { HookServices } from "./handler_services.ts";
import { type HandlerResult, runHandler } from "./handler_runner.ts";
import { commandText, namedFilesUnchanged } from "./content_trust.ts";
import { eventLabel, eventUsesMatcher, type HookEventName } from "./hook_events.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";
import { type IfRule, judgeIfRule, parseIfRule } from "./if_rule.ts";
import { interpretRun } from "./interpret_run.ts";
import { type CompiledMatcher, compileMatcher, matcherMatches } from "./matcher.ts";
import type { HookEffect } from "./outputs/hook_effect.ts";
import { vendorToolName } from "./vendor_events.ts";
import { vendorPayload } from "./vendor_stdin.ts";

/** `background`: an async handler (or one that declared itself async) still running after dispatch. */
export type HookRunStatus = "completed" | "failed" | "blocked" | "stopped" | "background";

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

/** A run that goes on after dispatch returned (HK-5); `done` never rejects. */
export interface BackgroundRun {
  runId: string;
  handler: HookHandlerInfo;
  done: Promise<{ record: HookRunRecord; result: CommandResult }>;
}

export interface DispatchRequest {
  event: HookEventName;
  /** Tool name + aliases, session source, compaction trigger, agent type; ignored for Stop/UserPromptSubmit. */
  matchValues: string[];
  payload: Record<string, unknown>;
  cwd: string;
  signal?: AbortSignal;
  toolUseId?: string;
  /** Tool events: the hook-facing tool_input an `if` rule is judged against. */
  toolInput?: unknown;
}

export interface DispatcherOptions {
  handlers: HookHandlerInfo[];
  platform: Platform;
  events: EventSink;
  baseEnv?: Record<string, string>;
  /** Opt-in confinement of one handler (argv in, argv out); undefined: it runs as the user (HK-6). */
  confine?: (handler: HookHandlerInfo) => ((argv: string[]) => string[]) | undefined;
  /** Receives every run that continues in the background. */
  onBackground?: (run: BackgroundRun) => void;
  /** Model, subagents, MCP servers and the http allowlist for the non-command types (#24 item 2). */
  services?: HookServices;
}

export type Dispatch = (request: DispatchRequest) => Promise<HookRunRecord[]>;

/** Matching runnable handlers run concurrently; each runs at most once however many aliases match. */
export function createDispatcher(options: DispatcherOptions): Dispatch & ScopedHandlers {
  const compiled = new Map<HookHandlerInfo, { matcher: CompiledMatcher; rule?: IfRule } | null>();
  const compiledOf = (h: HookHandlerInfo) => {
    if (!compiled.has(h)) {
      const matcher = compileMatcher(h.matcher);
      const rule = h.ifRule !== undefined ? parseIfRule(h.ifRule) : undefined;
      compiled.set(
        h,
        matcher.ok && rule?.ok !== false
          ? { matcher: matcher.matcher, ...(rule?.ok ? { rule: rule.rule } : {}) }
          : null,
      );
    }
    return compiled.get(h);
  };
  // Handlers registered for the length of an activity (a skill's or command's frontmatter hooks).
  // An agent's frontmatter hooks (#22 item 4) carry its id: they run for that child's events only,
  // never for its siblings' running at the same time or the parent's.
  const scoped = new Map<HookHandlerInfo[], string | undefined>();
  // The runnable configured handlers of each event, in configured order: a dispatch looks at its
  // event's only (with 90 hooks, every SessionStart and UserPromptSubmit judged all 90 before).
  const configuredByEvent = new Map<string, HookHandlerInfo[]>();
  for (const h of options.handlers) {
    if (!h.runnable) continue;
    const list = configuredByEvent.get(h.event);
    if (list) list.push(h);
    else configuredByEvent.set(h.event, [h]);
  }
  const candidates = (request: DispatchRequest): HookHandlerInfo[] => {
    const configured = configuredByEvent.get(request.event) ?? [];
    if (scoped.size === 0) return configured;
    const active = [...scoped].filter(([, agentId]) =>
      agentId === undefined || request.payload.agent_id === agentId
    )
      .flatMap(([entry]) => entry).filter((h) => h.runnable && h.event === request.event);
    return active.length === 0 ? configured : [...configured, ...active];
  };
  // `once: true`: keys that already ran in this session (Claude Code: at most once per session).
  const ranOnce = new Set<string>();
  const home = options.baseEnv?.HOME ?? options.platform.homeDir();
  const selects = async (h: HookHandlerInfo, request: DispatchRequest) => {
    const c = compiledOf(h);
    if (!h.runnable || h.event !== request.event || !c) return false;
    if (h.once && ranOnce.has(h.key)) return false;
    if (eventUsesMatcher(h.event) && !matcherMatches(c.matcher, matchValuesFor(h, request))) return false;
    if (!c.rule) return true;
    // An `if` is judged on tool calls only (HK-5); elsewhere its handler never runs.
    if (request.toolInput === undefined) return false;
    const verdict = await judgeIfRule(c.rule, {
      names: request.matchValues,
      input: request.toolInput,
      cwd: request.cwd,
      home,
    });
    if (verdict.unjudged !== undefined) {
      options.events({
        type: "warning",
        message: `hook ${h.key} runs: its "if" ${JSON.stringify(c.rule.text)} cannot judge this command ` +
          `(${verdict.unjudged}), and a command it cannot read counts as matching`,
        subject: h.key,
      });
    }
    return verdict.matches;
  };
  const dispatch = async (request: DispatchRequest) => {
    const handlers = candidates(request);
    if (handlers.length === 0) return [];
    const chosen = await Promise.all(handlers.map((h) => selects(h, request)));
    const selected = handlers.filter((_, i) => chosen[i]);
    if (selected.length === 0) return [];
    for (const h of selected) if (h.once) ranOnce.add(h.key);
    const input = JSON.stringify(request.payload);
    // A Gemini or Copilot CLI hook reads its own CLI's stdin (#24 item 3).
    const inputFor = (h: HookHandlerInfo) =>
      h.dialect ? JSON.stringify(vendorPayload(h, request.payload)) : input;
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
      const background = handler.async === true || handler.rewake !== undefined;
      const confine = options.confine?.(handler);
      const changed = contentChangedSinceLoad(handler);
      const running: Promise<HookCommandResult> = changed
        ? Promise.resolve(notRun(changed))
        : runHandler(handler, {
          platform: options.platform,
          ...(options.services ? { services: options.services } : {}),
          ...(options.baseEnv ? { baseEnv: options.baseEnv } : {}),
          ...(confine ? { wrapCommand: confine } : {}),
          input: inputFor(handler),
          ...(typeof request.payload.session_id === "string"
            ? { sessionId: request.payload.session_id }
            : {}),
          cwd: handler.cwd ?? request.cwd,
          signal: request.signal,
          detachOnAsyncLine: !background,
        });
      const complete = (result: HandlerResult) => {
        const record = recordOf(
          runId,
          handler,
          result,
          background ? "ignore-decisions" : "apply",
          finished++,
          request.toolInput,
        );
        options.events(completedEvent(record));
        return { record, result };
      };
      if (background) {
        options.onBackground?.({ runId, handler, done: running.then(complete) });
        return backgroundRecord(runId, handler, finished++);
      }
      const result = await running;
      if (result.detached) {
        options.onBackground?.({ runId, handler, done: result.detached.completion.then(complete) });
        return backgroundRecord(runId, handler, finished++);
      }
      return complete(result).record;
    });
    const records = await Promise.all(runs);
    return records.sort((a, b) => a.handler.displayOrder - b.handler.displayOrder);
  };
  return Object.assign(dispatch, {
    handles: (event: string) =>
      configuredByEvent.has(event) ||
      [...scoped.keys()].some((entry) => entry.some((h) => h.runnable && h.event === event)),
    addScoped(handlers: HookHandlerInfo[], scope?: { agentId: string }) {
      const entry = [...handlers];
      scoped.set(entry, scope?.agentId);
      return () => void scoped.delete(entry);
    },
  });
}

/** Handlers that run only while an activity lasts; the returned function ends their scope. */
export interface ScopedHandlers {
  addScoped(handlers: HookHandlerInfo[], scope?: { agentId: string }): () => void;
  /** Whether a runnable handler (configured, or scoped now) is for `event`. */
  handles(event: string): boolean;
}

/**
 * What a handler's matcher is tested against: the tool's names (or the source, trigger, agent type),
 * plus, for a Gemini or Copilot CLI hook on a tool event, the tool's name in that CLI.
 */
function matchValuesFor(handler: HookHandlerInfo, request: DispatchRequest): string[] {
  if (!handler.dialect || request.toolInput === undefined || request.matchValues.length === 0) {
    return request.matchValues;
  }
  return [...request.matchValues, vendorToolName(handler.dialect, request.matchValues[0])];
}

/**
 * A trusted hook's named files are read again before each run (#20 item 7): one the model rewrote
 * mid-session is reported as a failed run (a blocking guard then blocks) and is never started.
 */
function contentChangedSinceLoad(handler: HookHandlerInfo): string | undefined {
  if (!handler.contentFiles || handler.trust === "managed") return undefined;
  if (namedFilesUnchanged(commandText(handler), handler.contentFiles, handler.plugin?.pluginRoot)) {
    return undefined;
  }
  return "not run: a file it runs changed since it was trusted (trellis hooks list, then trellis hooks trust KEY)";
}

function notRun(error: string): CommandResult {
  return notStarted(0, error);
}

function recordOf(
  runId: string,
  handler: HookHandlerInfo,
  result: CommandResult,
  mode: "apply" | "ignore-decisions",
  completionIndex: number,
  toolInput?: unknown,
): HookRunRecord {
  let effect = interpretRun(handler.event, handler, result, toolInput);
  if (mode === "ignore-decisions") {
    // Claude Code: a background hook cannot block or decide anything; only its context and messages count.
    const { block: _block, allow: _allow, updatedInput: _input, stop: _stop, ...kept } = effect;
    effect = kept;
  }
  return {
    runId,
    handler,
    status: statusOf(effect),
    effect,
    durationMs: Math.round(result.durationMs),
    completionIndex,
    exitCode: result.code,
    entries: entriesOf(effect),
  };
}

function backgroundRecord(runId: string, handler: HookHandlerInfo, completionIndex: number): HookRunRecord {
  return {
    runId,
    handler,
    status: "background",
    effect: { additionalContexts: [] },
    durationMs: 0,
    completionIndex,
    exitCode: null,
    entries: [],
  };
}

function completedEvent(record: HookRunRecord) {
  return {
    type: "hook.completed" as const,
    run_id: record.runId,
    event: record.handler.event,
    source: record.handler.sourcePath,
    // A completion is never "background": that status only marks a run still going.
    status: record.status as Exclude<HookRunStatus, "background">,
    duration_ms: record.durationMs,
    display_order: record.handler.displayOrder,
    entries: record.entries,
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
  for (const note of effect.notes ?? []) entries.push({ kind: "warning", text: note });
  return entries;
}
