import { type Diagnostic, warning } from "../shared/mod.ts";
import {
  CLAUDE_ONLY_EVENTS,
  eventLabel,
  eventSpec,
  eventUsesMatcher,
  HOOK_EVENTS,
  type HookEventName,
  isHookEvent,
  isToolEvent,
} from "./hook_events.ts";
import type { DeclaredHandler, HookHandlerType, HookSource, HttpHandlerSpec } from "./hook_handler.ts";
import { parseIfRule } from "./if_rule.ts";
import { compileMatcher } from "./matcher.ts";

export const DEFAULT_TIMEOUT_SEC = 600;

/** Keys of a `[hooks]` table that are settings, not events. */
export const SETTING_KEYS = new Set([
  "state",
  "claude_code",
  "allow_managed_hooks_only",
  "sandbox",
  "allowed_http_hook_urls",
]);

/** Fields every handler type reads. */
const COMMON_FIELDS = [
  "type",
  "timeout",
  "timeoutSec",
  "timeout_sec",
  "statusMessage",
  "on_failure",
  "onFailure",
  "if",
  "once",
];

/**
 * Handler fields Trellis reads, per type (#24 item 2); anything else is named in one warning per
 * handler (never dropped silently).
 */
const HANDLER_FIELDS: Record<HookHandlerType, Set<string>> = {
  command: new Set([
    ...COMMON_FIELDS,
    "command",
    "commandWindows",
    "command_windows",
    "args",
    "shell",
    "async",
    "asyncRewake",
    "rewakeMessage",
    "rewakeSummary",
  ]),
  http: new Set([...COMMON_FIELDS, "url", "headers", "allowedEnvVars", "async"]),
  prompt: new Set([...COMMON_FIELDS, "prompt", "model"]),
  agent: new Set([...COMMON_FIELDS, "prompt", "model"]),
  mcp_tool: new Set([...COMMON_FIELDS, "server", "tool", "input"]),
};

/** Claude Code's default timeouts per type (seconds). */
const DEFAULT_TIMEOUTS: Record<HookHandlerType, number> = {
  command: DEFAULT_TIMEOUT_SEC,
  http: 30,
  prompt: 30,
  agent: 60,
  mcp_tool: 60,
};

const HANDLER_TYPES = new Set(Object.keys(HANDLER_FIELDS));

type HandlerFields = Pick<
  DeclaredHandler,
  | "type"
  | "command"
  | "args"
  | "shell"
  | "once"
  | "http"
  | "prompt"
  | "mcpTool"
  | "timeoutSec"
  | "statusMessage"
  | "onFailure"
  | "ifRule"
  | "async"
  | "rewake"
  | "cwd"
  | "env"
>;

/** Fields only a Gemini or Copilot CLI hook has (#24 item 3). */
const VENDOR_HANDLER_FIELDS = new Set(["cwd", "env"]);

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
  const claudeOnly: string[] = [];
  for (const name of Object.keys(source.events)) {
    if (CLAUDE_ONLY_EVENTS.has(name)) claudeOnly.push(name);
    else if (!isHookEvent(name) && !SETTING_KEYS.has(name)) {
      diagnostics.push(warning(`unknown hook event "${name}" in ${file} (ignored)`, { file, field: name }));
    }
  }
  if (claudeOnly.length > 0) {
    diagnostics.push(warning(
      `hooks for Claude Code events Trellis does not fire yet in ${file} (not run): ${claudeOnly.join(", ")}`,
      { file, field: claudeOnly[0] },
    ));
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
  const fieldOptions = { ...options, vendor: !!source.dialect };
  group.hooks.forEach((raw: unknown, handlerIndex: number) => {
    const at = { file, field: `${where.field}.hooks[${handlerIndex}]` };
    const fields = parseHandlerFields(event, raw, file, fieldOptions, diagnostics, at);
    if (!fields) return;
    const key = `${keySource}:${eventLabel(event)}:${groupIndex}:${handlerIndex}`;
    const vendorEvent = source.vendorEvents?.[event];
    out.push({
      key,
      event,
      ...(matcher !== undefined ? { matcher } : {}),
      groupIndex,
      handlerIndex,
      ...fields,
      ...(source.dialect ? { dialect: source.dialect } : {}),
      ...(vendorEvent !== undefined ? { vendorEvent } : {}),
    });
  });
  return out;
}

function parseHandlerFields(
  event: HookEventName,
  raw: unknown,
  file: string,
  options: { windows?: boolean; vendor?: boolean },
  diagnostics: Diagnostic[],
  where: { file: string; field: string },
): HandlerFields | undefined {
  if (!isRecord(raw)) {
    diagnostics.push(warning(`invalid hook handler in ${file}: expected a table`, where));
    return undefined;
  }
  const type = raw.type ?? "command";
  if (typeof type !== "string" || !HANDLER_TYPES.has(type)) {
    diagnostics.push(warning(`skipping hook of unknown type ${JSON.stringify(type)} in ${file}`, where));
    return undefined;
  }
  const kind = type as HookHandlerType;
  const read = HANDLER_FIELDS[kind];
  const unread: string[] = [];
  for (const k in raw) {
    if (Object.hasOwn(raw, k) && !read.has(k) && !(options.vendor && VENDOR_HANDLER_FIELDS.has(k))) {
      unread.push(k);
    }
  }
  if (unread.length > 0) {
    diagnostics.push(warning(
      `hook ${where.field} in ${file}: field${unread.length > 1 ? "s" : ""} ${
        unread.map((k) => `"${k}"`).join(", ")
      } not supported yet (ignored)`,
      { file, field: `${where.field}.${unread[0]}` },
    ));
  }
  const definition = typeFields(kind, raw, file, options, diagnostics, where);
  if (!definition) return undefined;
  const timeout = raw.timeout ?? raw.timeoutSec ?? raw.timeout_sec ?? DEFAULT_TIMEOUTS[kind];
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
  const fields: HandlerFields = {
    ...definition,
    timeoutSec: Math.max(1, Math.floor(timeout)),
    onFailure: onFailure === "block" ? "block" : "ignore",
  };
  if (typeof raw.statusMessage === "string") fields.statusMessage = raw.statusMessage;
  if (raw.once !== undefined) {
    if (typeof raw.once !== "boolean") {
      diagnostics.push(
        warning(`invalid once ${JSON.stringify(raw.once)} in ${file}: expected true or false`, {
          file,
          field: `${where.field}.once`,
        }),
      );
    } else if (raw.once) {
      fields.once = true;
      if (eventSpec(event).repeats) {
        diagnostics.push(warning(
          `hook ${where.field} in ${file} has once: true on ${event}, which repeats: it runs on the ` +
            `first ${event} of each session only`,
          { file, field: `${where.field}.once` },
        ));
      }
    }
  }
  if (raw.if !== undefined) {
    const rule = parseIfRule(raw.if);
    if (!rule.ok) {
      diagnostics.push(warning(`skipping hook with invalid "if" in ${file}: ${rule.error}`, {
        file,
        field: `${where.field}.if`,
      }));
      return undefined;
    }
    if (!isToolEvent(event)) {
      diagnostics.push(warning(
        `skipping ${event} hook with "if" in ${file}: "if" is only judged on tool events, so it never runs`,
        { file, field: `${where.field}.if` },
      ));
      return undefined;
    }
    fields.ifRule = rule.rule.text;
  }
  if (options.vendor) Object.assign(fields, vendorFields(raw, file, diagnostics, where));
  // Most hooks have none of the background fields: no second pass over them (paid per hook at start).
  const background = raw.async === undefined && raw.asyncRewake === undefined &&
      raw.rewakeMessage === undefined && raw.rewakeSummary === undefined
    ? undefined
    : backgroundFields(raw, file, diagnostics, where);
  return background ? Object.assign(fields, background) : fields;
}

/** The definition of each type: what it runs (and what its trust covers). */
function typeFields(
  type: HookHandlerType,
  raw: Record<string, any>,
  file: string,
  options: { windows?: boolean },
  diagnostics: Diagnostic[],
  where: { file: string; field: string },
): Pick<HandlerFields, "type" | "command" | "args" | "shell" | "http" | "prompt" | "mcpTool"> | undefined {
  const skip = (why: string, field?: string) => {
    diagnostics.push(warning(`skipping ${type} hook in ${file}: ${why}`, {
      file,
      field: field ? `${where.field}.${field}` : where.field,
    }));
    return undefined;
  };
  const text = (name: string) =>
    typeof raw[name] === "string" && raw[name].trim() !== "" ? raw[name] as string : undefined;
  switch (type) {
    case "command": {
      const windowsCommand = raw.commandWindows ?? raw.command_windows;
      const command = options.windows && typeof windowsCommand === "string" ? windowsCommand : raw.command;
      if (typeof command !== "string" || command.trim() === "") {
        diagnostics.push(warning(`skipping empty hook command in ${file}`, where));
        return undefined;
      }
      const out: Pick<HandlerFields, "command" | "args" | "shell"> = { command };
      if (raw.args !== undefined) {
        if (!Array.isArray(raw.args) || raw.args.some((a: unknown) => typeof a !== "string")) {
          return skip(`"args" must be an array of strings`, "args");
        }
        out.args = raw.args;
      }
      if (raw.shell !== undefined) {
        if (typeof raw.shell !== "string" || raw.shell.trim() === "") {
          return skip(`"shell" must be a string`, "shell");
        }
        if (out.args) {
          return skip(`"shell" and "args" exclude each other (args runs without a shell)`, "shell");
        }
        out.shell = raw.shell;
      }
      return out;
    }
    case "http": {
      const url = text("url");
      if (!url) return skip(`missing "url"`, "url");
      try {
        const parsed = new URL(url);
        if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
          return skip(`"url" must be http(s): ${url}`, "url");
        }
      } catch {
        return skip(`invalid "url" ${JSON.stringify(url)}`, "url");
      }
      const http: HttpHandlerSpec = { url };
      if (raw.headers !== undefined) {
        if (!isRecord(raw.headers) || Object.values(raw.headers).some((v) => typeof v !== "string")) {
          return skip(`"headers" must map names to strings`, "headers");
        }
        http.headers = raw.headers as Record<string, string>;
      }
      if (raw.allowedEnvVars !== undefined) {
        if (
          !Array.isArray(raw.allowedEnvVars) || raw.allowedEnvVars.some((v: unknown) => typeof v !== "string")
        ) {
          return skip(`"allowedEnvVars" must be an array of names`, "allowedEnvVars");
        }
        http.allowedEnvVars = raw.allowedEnvVars;
      }
      return { type, command: url, http };
    }
    case "prompt":
    case "agent": {
      const prompt = text("prompt");
      if (!prompt) return skip(`missing "prompt"`, "prompt");
      if (raw.model !== undefined && typeof raw.model !== "string") {
        return skip(`"model" must be a string`, "model");
      }
      return { type, command: prompt, prompt: { text: prompt, ...(raw.model ? { model: raw.model } : {}) } };
    }
    case "mcp_tool": {
      const server = text("server");
      const tool = text("tool");
      if (!server) return skip(`missing "server"`, "server");
      if (!tool) return skip(`missing "tool"`, "tool");
      if (raw.input !== undefined && !isRecord(raw.input)) return skip(`"input" must be an object`, "input");
      return {
        type,
        command: `${server}/${tool}`,
        mcpTool: { server, tool, ...(raw.input !== undefined ? { input: raw.input } : {}) },
      };
    }
  }
}

/** `cwd` (a string) and `env` (string values) of a Gemini or Copilot hook; a wrong type is named. */
function vendorFields(
  raw: Record<string, unknown>,
  file: string,
  diagnostics: Diagnostic[],
  where: { file: string; field: string },
): Pick<HandlerFields, "cwd" | "env"> {
  const out: Pick<HandlerFields, "cwd" | "env"> = {};
  if (typeof raw.cwd === "string") out.cwd = raw.cwd;
  else if (raw.cwd !== undefined) {
    diagnostics.push(warning(`invalid cwd in ${file}: expected a string (ignored)`, {
      file,
      field: `${where.field}.cwd`,
    }));
  }
  if (raw.env === undefined) return out;
  const entries = isRecord(raw.env) ? Object.entries(raw.env) : undefined;
  if (!entries || entries.some(([, v]) => typeof v !== "string")) {
    diagnostics.push(warning(`invalid env in ${file}: expected an object of strings (ignored)`, {
      file,
      field: `${where.field}.env`,
    }));
    return out;
  }
  out.env = Object.fromEntries(entries) as Record<string, string>;
  return out;
}

/** `async`, `asyncRewake`, `rewakeMessage`, `rewakeSummary` (HK-5); a wrong type is named, not guessed. */
function backgroundFields(
  raw: Record<string, unknown>,
  file: string,
  diagnostics: Diagnostic[],
  where: { file: string; field: string },
): Pick<HandlerFields, "async" | "rewake"> {
  const flag = (name: "async" | "asyncRewake") => {
    const value = raw[name];
    if (value === undefined || typeof value === "boolean") return value === true;
    diagnostics.push(warning(`invalid ${name} ${JSON.stringify(value)} in ${file}: expected true or false`, {
      file,
      field: `${where.field}.${name}`,
    }));
    return false;
  };
  const text = (name: "rewakeMessage" | "rewakeSummary") => {
    const value = raw[name];
    if (value === undefined || typeof value === "string") return value;
    diagnostics.push(warning(`invalid ${name} in ${file}: expected a string (ignored)`, {
      file,
      field: `${where.field}.${name}`,
    }));
    return undefined;
  };
  const out: Pick<HandlerFields, "async" | "rewake"> = {};
  if (flag("async")) out.async = true;
  const message = text("rewakeMessage");
  const summary = text("rewakeSummary");
  if (flag("asyncRewake")) {
    out.rewake = {
      ...(message !== undefined ? { message } : {}),
      ...(summary !== undefined ? { summary } : {}),
    };
  } else if (message !== undefined || summary !== undefined) {
    diagnostics.push(warning(
      `hook ${where.field} in ${file}: rewakeMessage/rewakeSummary apply only with asyncRewake: true (ignored)`,
      { file, field: `${where.field}.${message !== undefined ? "rewakeMessage" : "rewakeSummary"}` },
    ));
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
