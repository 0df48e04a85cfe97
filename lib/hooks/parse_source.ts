import { type Diagnostic, warning } from "../shared/mod.ts";
import { eventLabel, eventUsesMatcher, HOOK_EVENTS, type HookEventName, isHookEvent } from "./event_names.ts";
import type { DeclaredHandler, HookSource } from "./hook_handler.ts";
import { compileMatcher } from "./matcher.ts";

export const DEFAULT_TIMEOUT_SEC = 600;

/** Keys of a `[hooks]` table that are settings, not events. */
const SETTING_KEYS = new Set(["state", "claude_code", "allow_managed_hooks_only"]);

/**
 * Reads the event arrays of one source. Lenient per item: an unknown event, a malformed group, a
 * bad regex or an unsupported handler is a warning naming the file, and only that item is dropped.
 */
export function parseHookSource(
  source: HookSource,
  options: { windows?: boolean } = {},
): { handlers: DeclaredHandler[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const handlers: DeclaredHandler[] = [];
  const file = source.path;
  for (const name of Object.keys(source.events)) {
    if (!isHookEvent(name) && !SETTING_KEYS.has(name)) {
      diagnostics.push(warning(`unknown hook event "${name}" in ${file} (ignored)`, { file, field: name }));
    }
  }
  for (const event of HOOK_EVENTS) {
    const groups = source.events[event];
    if (groups === undefined) continue;
    if (!Array.isArray(groups)) {
      diagnostics.push(
        warning(`invalid hooks for ${event} in ${file}: expected an array`, { file, field: event }),
      );
      continue;
    }
    groups.forEach((group, groupIndex) => {
      const where = { file, field: `${event}[${groupIndex}]` };
      const parsed = parseGroup(source, event, group, groupIndex, options, diagnostics, where);
      handlers.push(...parsed);
    });
  }
  return { handlers, diagnostics };
}

function parseGroup(
  source: HookSource,
  event: HookEventName,
  group: unknown,
  groupIndex: number,
  options: { windows?: boolean },
  diagnostics: Diagnostic[],
  where: { file: string; field: string },
): DeclaredHandler[] {
  const file = source.path;
  if (!isRecord(group) || !Array.isArray(group.hooks)) {
    diagnostics.push(
      warning(`invalid hook group ${where.field} in ${file}: expected { hooks: [...] }`, where),
    );
    return [];
  }
  let matcher: string | undefined;
  if (eventUsesMatcher(event) && group.matcher !== undefined && group.matcher !== null) {
    if (typeof group.matcher !== "string") {
      diagnostics.push(
        warning(`invalid matcher ${JSON.stringify(group.matcher)} in ${file}: not a string`, where),
      );
      return [];
    }
    const compiled = compileMatcher(group.matcher);
    if (!compiled.ok) {
      diagnostics.push(warning(`invalid matcher "${group.matcher}" in ${file}: ${compiled.error}`, where));
      return [];
    }
    matcher = group.matcher;
  }
  const keySource = source.keySource ?? source.path;
  const out: DeclaredHandler[] = [];
  group.hooks.forEach((raw: unknown, handlerIndex: number) => {
    const fields = parseHandlerFields(raw, file, options, diagnostics, where);
    if (!fields) return;
    const key = `${keySource}:${eventLabel(event)}:${groupIndex}:${handlerIndex}`;
    out.push({
      key,
      event,
      ...(matcher !== undefined ? { matcher } : {}),
      groupIndex,
      handlerIndex,
      ...fields,
    });
  });
  return out;
}

function parseHandlerFields(
  raw: unknown,
  file: string,
  options: { windows?: boolean },
  diagnostics: Diagnostic[],
  where: { file: string; field: string },
): Pick<DeclaredHandler, "command" | "timeoutSec" | "statusMessage" | "onFailure"> | undefined {
  if (!isRecord(raw)) {
    diagnostics.push(warning(`invalid hook handler in ${file}: expected a table`, where));
    return undefined;
  }
  const type = raw.type ?? "command";
  if (type === "prompt" || type === "agent") {
    diagnostics.push(warning(`skipping ${type} hook in ${file}: ${type} hooks are not supported yet`, where));
    return undefined;
  }
  if (type !== "command") {
    diagnostics.push(warning(`skipping hook of unknown type ${JSON.stringify(type)} in ${file}`, where));
    return undefined;
  }
  if (raw.async === true) {
    diagnostics.push(warning(`skipping async hook in ${file}: async hooks are not supported yet`, where));
    return undefined;
  }
  const windowsCommand = raw.commandWindows ?? raw.command_windows;
  const command = options.windows && typeof windowsCommand === "string" ? windowsCommand : raw.command;
  if (typeof command !== "string" || command.trim() === "") {
    diagnostics.push(warning(`skipping empty hook command in ${file}`, where));
    return undefined;
  }
  const timeout = raw.timeout ?? raw.timeoutSec ?? raw.timeout_sec ?? DEFAULT_TIMEOUT_SEC;
  if (typeof timeout !== "number" || !Number.isFinite(timeout)) {
    diagnostics.push(
      warning(`skipping hook with invalid timeout ${JSON.stringify(timeout)} in ${file}`, where),
    );
    return undefined;
  }
  const onFailure = raw.on_failure ?? raw.onFailure ?? "ignore";
  if (onFailure !== "ignore" && onFailure !== "block") {
    diagnostics.push(
      warning(`invalid on_failure ${JSON.stringify(onFailure)} in ${file}: use "block"`, where),
    );
  }
  const fields: Pick<DeclaredHandler, "command" | "timeoutSec" | "statusMessage" | "onFailure"> = {
    command,
    timeoutSec: Math.max(1, Math.floor(timeout)),
    onFailure: onFailure === "block" ? "block" : "ignore",
  };
  if (typeof raw.statusMessage === "string") fields.statusMessage = raw.statusMessage;
  return fields;
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
