import { digestHex } from "../platform/mod.ts";
import { eventLabel } from "./hook_events.ts";
import type { HandlerIdentity } from "./hook_handler.ts";

/** Events whose matcher Codex leaves out of the identity (it ignores a matcher there). */
const MATCHERLESS_EVENTS: ReadonlySet<string> = new Set(["UserPromptSubmit", "Stop"]);

/**
 * Codex's `command_hook_hash`: `{event_name, matcher?, hooks:[{type, command, timeout, async,
 * statusMessage?}]}` with keys sorted recursively, serialized compactly, SHA-256. The identity is
 * built from parsed values, so the same hook written in JSON or TOML (any whitespace) hashes the same.
 * `onFailure` joins the identity only when set, so Codex-compatible hooks keep Codex's hash while
 * weakening a guard from "block" to "ignore" still needs a new review. `if` joins it the same way:
 * two handlers differing only in their `if` get different hashes, and every hook without one keeps
 * the hash it had before `if` was read. `async` is the declared field, as in Codex (asyncRewake and
 * the rewake texts change when the output arrives, not what runs).
 */
export function hookTrustHash(handler: HandlerIdentity): string {
  const normalized: Record<string, unknown> = {
    type: handler.type ?? "command",
    ...definition(handler),
    timeout: handler.timeoutSec,
    async: handler.async === true,
  };
  if (handler.once === true) normalized.once = true;
  if (handler.statusMessage !== undefined) normalized.statusMessage = handler.statusMessage;
  if (handler.onFailure === "block") normalized.onFailure = "block";
  if (handler.ifRule !== undefined) normalized.if = handler.ifRule;
  // A Gemini or Copilot hook's contract, directory and variables are part of what runs (#24 item 3).
  if (handler.dialect !== undefined) normalized.dialect = handler.dialect;
  if (handler.cwd !== undefined) normalized.cwd = handler.cwd;
  if (handler.env !== undefined) normalized.env = handler.env;
  const identity: Record<string, unknown> = { event_name: eventLabel(handler.event), hooks: [normalized] };
  // Codex drops the matcher of events that ignore it (`hook_event_uses_matcher`: its prompt and stop
  // events), so a Codex-trusted UserPromptSubmit or Stop hook keeps its hash whatever matcher it has.
  if (handler.matcher !== undefined && !MATCHERLESS_EVENTS.has(handler.event)) {
    identity.matcher = handler.matcher;
  }
  return `sha256:${digestHex("sha256", canonicalText(identity))}`;
}

/** canonicalJson's text, written natively by JSON.stringify whenever that gives the same bytes. */
export function canonicalText(value: unknown): string {
  const sorted = sortedCopy(value);
  return sorted === UNFIT ? canonicalJson(value) : JSON.stringify(sorted);
}

/**
 * What a handler runs (#24 item 2): a command (with `args`/`shell` when set, so a command hook
 * without them keeps Codex's hash), an http hook's URL and headers, a prompt's text and model, an
 * MCP tool's server, tool and input. Changing any of them makes the hook `modified`.
 */
function definition(handler: HandlerIdentity): Record<string, unknown> {
  switch (handler.type ?? "command") {
    case "http":
      return {
        url: handler.http?.url ?? handler.command,
        ...(handler.http?.headers ? { headers: handler.http.headers } : {}),
        ...(handler.http?.allowedEnvVars ? { allowedEnvVars: handler.http.allowedEnvVars } : {}),
      };
    case "prompt":
    case "agent":
      return {
        prompt: handler.prompt?.text ?? handler.command,
        ...(handler.prompt?.model ? { model: handler.prompt.model } : {}),
      };
    case "mcp_tool":
      return {
        server: handler.mcpTool?.server,
        tool: handler.mcpTool?.tool,
        ...(handler.mcpTool?.input ? { input: handler.mcpTool.input } : {}),
      };
    default:
      return {
        command: handler.command,
        ...(handler.args ? { args: handler.args } : {}),
        ...(handler.shell ? { shell: handler.shell } : {}),
      };
  }
}

/** The identity as Codex serializes it (serde_json over sorted maps): keys sorted at every depth. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value).sort().map((k) =>
      `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`
    );
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

const UNFIT: unique symbol = Symbol("unfit");

/**
 * A copy of `value` whose objects have their keys in sorted order, so that `JSON.stringify` (native)
 * writes exactly `canonicalJson`'s text; UNFIT where it would not: an `undefined` (canonicalJson
 * writes `undefined` in an object and nothing in an array, JSON.stringify drops it or writes null),
 * a key that is an array index (JSON.stringify writes those first, in numeric order), `__proto__`
 * (assigning it sets a prototype), a function, symbol or bigint. Any other object is copied by its
 * own enumerable keys, as canonicalJson reads it (a date is `{}` both ways).
 *
 * Measured in the compiled binary (cold, as every start is): 90 hooks' identities take 0.85 ms to
 * write through canonicalJson's string building, 0.4–0.7 ms this way (#24's session-start figure).
 */
function sortedCopy(value: unknown): unknown {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return value;
    case "object": {
      if (value === null) return value;
      if (Array.isArray(value)) {
        const out: unknown[] = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          const item = sortedCopy(value[i]);
          if (item === UNFIT) return UNFIT;
          out[i] = item;
        }
        return out;
      }
      const keys = Object.keys(value);
      if (!inOrder(keys)) keys.sort();
      const out: Record<string, unknown> = {};
      for (const key of keys) {
        if (key === "__proto__" || isIndexLike(key)) return UNFIT;
        const copy = sortedCopy((value as Record<string, unknown>)[key]);
        if (copy === UNFIT) return UNFIT;
        out[key] = copy;
      }
      return out;
    }
    default:
      return UNFIT;
  }
}

function inOrder(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return false;
  return true;
}

/** Digits only: an array index to JSON.stringify's key order (or a number past one: left to canonicalJson). */
function isIndexLike(key: string): boolean {
  if (key.length === 0) return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
