import * as path from "node:path";
import { type Diagnostic, shellWord, warning } from "../shared/mod.ts";
import { hydrateExtensionVars } from "../config/mod.ts";
import type { HookEventName } from "./hook_events.ts";
import type { HookSource, HookSourceKind } from "./hook_handler.ts";
import { DIALECT_NAMES, GEMINI_SETTING_KEYS, type HookDialect, lookupVendorEvent } from "./vendor_events.ts";

/** Gemini CLI's default hook timeout (hookRunner.ts: 60 s) and Copilot CLI's (`timeoutSec`: 30 s). */
const GEMINI_DEFAULT_TIMEOUT_MS = 60_000;
const COPILOT_DEFAULT_TIMEOUT_SEC = 30;

/** Handler fields Gemini documents that only label a hook: read, not run. */
const GEMINI_LABEL_FIELDS = new Set(["name", "description"]);
/** Copilot fields read elsewhere (`bash`, `exec`/`args`) or meant for another platform (`powershell`). */
const COPILOT_COMMAND_FIELDS = new Set([
  "bash",
  "powershell",
  "command",
  "exec",
  "args",
  "timeoutSec",
  "matcher",
]);

export interface VendorSourceOptions {
  kind: HookSourceKind;
  file: string;
  /** A relative `cwd` of a handler resolves against this (the project root, as Copilot does). */
  baseDir: string;
  /** Roots whose files a command names are covered by its content hash (an extension's folder). */
  contentRoots?: string[];
  /** `${extensionPath}` of a Gemini extension's hooks. */
  extensionPath?: string;
}

/**
 * A Gemini CLI `hooks` object (settings.json's, or an extension's `hooks/hooks.json`) as a Trellis
 * source: event names translated, `timeout` from milliseconds to seconds, `hooksConfig.disabled`
 * honoured, one warning naming the events Trellis does not fire.
 */
export function geminiSource(
  hooks: Record<string, unknown>,
  options: VendorSourceOptions & { disabled?: readonly string[] },
  diagnostics: Diagnostic[],
): HookSource | undefined {
  const events: Record<string, unknown> = {};
  const vendorEvents: Partial<Record<HookEventName, string>> = {};
  const notFired: string[] = [];
  for (const [name, groups] of Object.entries(hooks)) {
    if (GEMINI_SETTING_KEYS.has(name)) continue;
    const found = lookupVendorEvent("gemini", name);
    if (found.kind !== "fired") {
      noteEvent("gemini", found.kind, name, options.file, notFired, diagnostics);
      continue;
    }
    vendorEvents[found.event] = name;
    events[found.event] = Array.isArray(groups)
      ? groups.map((group) => geminiGroup(group, options, options.disabled ?? []))
      : groups;
  }
  warnNotFired("gemini", notFired, options.file, diagnostics);
  return sourceOf("gemini", options, events, vendorEvents);
}

function geminiGroup(group: unknown, options: VendorSourceOptions, disabled: readonly string[]): unknown {
  if (!isRecord(group) || !Array.isArray(group.hooks)) return group;
  const { sequential: _sequential, ...rest } = group;
  return {
    ...rest,
    hooks: group.hooks.filter((h) => !isDisabled(h, disabled)).map((h) => geminiHandler(h, options)),
  };
}

/** `hooksConfig.disabled` lists hooks by `name`, else by command, as Gemini's registry matches them. */
function isDisabled(handler: unknown, disabled: readonly string[]): boolean {
  if (!isRecord(handler) || disabled.length === 0) return false;
  const name = typeof handler.name === "string" && handler.name !== "" ? handler.name : handler.command;
  return typeof name === "string" && disabled.includes(name);
}

function geminiHandler(handler: unknown, options: VendorSourceOptions): unknown {
  if (!isRecord(handler)) return handler;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(handler)) {
    if (!GEMINI_LABEL_FIELDS.has(key) && key !== "timeout") out[key] = value;
  }
  const timeout = handler.timeout ?? GEMINI_DEFAULT_TIMEOUT_MS;
  out.timeout = typeof timeout === "number" ? Math.ceil(timeout / 1000) : timeout;
  if (typeof handler.command === "string" && options.extensionPath !== undefined) {
    out.command = hydrateExtensionVars(handler.command, options.extensionPath);
  }
  if (typeof handler.name === "string") out.statusMessage = handler.name;
  return out;
}

/**
 * One Copilot CLI hook file (`{ "version": 1, "hooks": { "preToolUse": [ {…} ] } }`) as a Trellis
 * source: a file without `version: 1` is not loaded (Copilot rejects it whole), `disableAllHooks`
 * skips it, each flat entry becomes its own group with its `matcher` anchored as Copilot anchors it.
 */
export function copilotSource(
  parsed: unknown,
  options: VendorSourceOptions,
  diagnostics: Diagnostic[],
): HookSource | undefined {
  const file = options.file;
  if (!isRecord(parsed)) {
    diagnostics.push(warning(`Cannot load hooks "${file}": expected a JSON object`, { file }));
    return undefined;
  }
  if (parsed.version !== 1) {
    const what = parsed.version === undefined
      ? `it has no "version" (Copilot CLI hook files declare "version": 1)`
      : `"version" is ${JSON.stringify(parsed.version)}, not 1`;
    diagnostics.push(warning(`Cannot load hooks "${file}": ${what}; not loaded`, { file, field: "version" }));
    return undefined;
  }
  if (parsed.disableAllHooks === true) {
    diagnostics.push({ level: "info", message: `Skipped hooks in ${file}: it sets disableAllHooks`, file });
    return undefined;
  }
  if (!isRecord(parsed.hooks)) {
    diagnostics.push(
      warning(`Cannot load hooks "${file}": expected a "hooks" object`, { file, field: "hooks" }),
    );
    return undefined;
  }
  const events: Record<string, unknown> = {};
  const vendorEvents: Partial<Record<HookEventName, string>> = {};
  const notFired: string[] = [];
  for (const [name, entries] of Object.entries(parsed.hooks)) {
    const found = lookupVendorEvent("copilot", name);
    if (found.kind !== "fired") {
      noteEvent("copilot", found.kind, name, file, notFired, diagnostics);
      continue;
    }
    vendorEvents[found.event] = name;
    events[found.event] = Array.isArray(entries) ? entries.map((e) => copilotGroup(e, options)) : entries;
  }
  warnNotFired("copilot", notFired, file, diagnostics);
  return sourceOf("copilot", options, events, vendorEvents);
}

function copilotGroup(entry: unknown, options: VendorSourceOptions): unknown {
  if (!isRecord(entry)) return { hooks: [entry] };
  const handler: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (!COPILOT_COMMAND_FIELDS.has(key) && key !== "timeout") handler[key] = value;
  }
  handler.type = entry.type ?? "command";
  const command = copilotCommand(entry);
  if (command !== undefined) handler.command = command;
  handler.timeout = entry.timeoutSec ?? entry.timeout ?? COPILOT_DEFAULT_TIMEOUT_SEC;
  if (typeof entry.cwd === "string") handler.cwd = path.resolve(options.baseDir, entry.cwd);
  const group: Record<string, unknown> = { hooks: [handler] };
  if (typeof entry.matcher === "string" && entry.matcher !== "") group.matcher = anchored(entry.matcher);
  else if (entry.matcher !== undefined) group.matcher = entry.matcher;
  return group;
}

/** `bash`, else the cross-platform `command`, else `exec` with its `args` quoted for the shell. */
function copilotCommand(entry: Record<string, unknown>): string | undefined {
  if (typeof entry.bash === "string") return entry.bash;
  if (typeof entry.command === "string") return entry.command;
  if (typeof entry.exec !== "string") return undefined;
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === "string") : [];
  return [entry.exec, ...args].map(shellWord).join(" ");
}

/**
 * Copilot compiles a matcher as `^(?:PATTERN)$`. A plain name list is already whole-name in Trellis;
 * anything else is wrapped so it is too.
 */
function anchored(matcher: string): string {
  return /^[A-Za-z0-9_|]+$/.test(matcher) || matcher === "*" ? matcher : `^(?:${matcher})$`;
}

function noteEvent(
  dialect: HookDialect,
  kind: "not_fired" | "unknown",
  name: string,
  file: string,
  notFired: string[],
  diagnostics: Diagnostic[],
): void {
  if (kind === "not_fired") {
    notFired.push(name);
    return;
  }
  diagnostics.push(
    warning(`unknown ${DIALECT_NAMES[dialect]} hook event "${name}" in ${file} (ignored)`, {
      file,
      field: name,
    }),
  );
}

/** One warning per file naming every event of that CLI Trellis has no counterpart for. */
function warnNotFired(dialect: HookDialect, names: string[], file: string, diagnostics: Diagnostic[]): void {
  if (names.length === 0) return;
  diagnostics.push(warning(
    `hooks for ${DIALECT_NAMES[dialect]} events Trellis does not fire in ${file} (not run): ${
      names.join(", ")
    }`,
    { file, field: names[0] },
  ));
}

function sourceOf(
  dialect: HookDialect,
  options: VendorSourceOptions,
  events: Record<string, unknown>,
  vendorEvents: Partial<Record<HookEventName, string>>,
): HookSource | undefined {
  if (Object.keys(events).length === 0) return undefined;
  return {
    kind: options.kind,
    path: options.file,
    managed: false,
    events,
    dialect,
    vendorEvents,
    ...(options.contentRoots ? { contentRoots: options.contentRoots } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
