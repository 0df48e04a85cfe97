import type { CommandResult } from "../platform/mod.ts";
import type { HookEventName } from "./hook_events.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";
import type { HookEffect } from "./outputs/hook_effect.ts";
import { trellisToolArgs } from "./vendor_events.ts";

type Output = Record<string, unknown>;
type Handler = Pick<HookHandlerInfo, "event" | "dialect" | "vendorEvent" | "key">;

const none = (): HookEffect => ({ additionalContexts: [] });
const fail = (error: string): HookEffect => ({ additionalContexts: [], error });

/** Events whose hook can block, deny, or ask for another turn in Gemini CLI (its hooks reference). */
const GEMINI_BLOCKS = new Set<HookEventName>(["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"]);

/**
 * A finished run of a Gemini or Copilot CLI hook, read by that CLI's contract (#24 item 3). The run
 * started, answered and was not cut (interpret_run.ts checked); `toolInput` is the call's arguments
 * (Gemini's `tool_input` merges over them).
 */
export function readVendorResult(handler: Handler, result: CommandResult, toolInput: unknown): HookEffect {
  return handler.dialect === "copilot"
    ? readCopilot(handler, result)
    : readGemini(handler, result, toolInput);
}

/**
 * Gemini: exit 0 → stdout (else stderr) as JSON, or plain text shown to the user; exit 1 → a
 * warning; exit 2 and above → a block with stderr as the reason, where the event can block.
 */
function readGemini(handler: Handler, result: CommandResult, toolInput: unknown): HookEffect {
  const event = handler.event;
  const name = handler.vendorEvent ?? event;
  const text = result.stdout.trim() || result.stderr.trim();
  if (result.code !== 0) {
    const detail = text.slice(0, 500);
    if (result.code === 1 || !GEMINI_BLOCKS.has(event)) {
      return fail(`hook exited with code ${result.code}${detail ? `: ${detail}` : ""}`);
    }
    return {
      additionalContexts: [],
      block: { reason: detail || `${name} hook blocked (exit ${result.code})` },
    };
  }
  if (text === "") return none();
  const json = parseJsonObject(text);
  if (json === undefined) return { additionalContexts: [], systemMessage: text };
  return geminiOutput(handler, json, toolInput);
}

function geminiOutput(handler: Handler, out: Output, toolInput: unknown): HookEffect {
  const event = handler.event;
  const name = handler.vendorEvent ?? event;
  const effect = none();
  const notes: string[] = [];
  if (typeof out.systemMessage === "string") effect.systemMessage = out.systemMessage;
  const specific = isRecord(out.hookSpecificOutput) ? out.hookSpecificOutput : {};
  const reason = firstText(out.stopReason, out.reason) ?? "No reason provided";
  const flowControl = GEMINI_BLOCKS.has(event);
  if ((out.decision === "deny" || out.decision === "block") && flowControl) {
    effect.block = { reason: firstText(out.reason, out.stopReason) ?? "No reason provided" };
  }
  if (out.decision === "ask") {
    notes.push(`${name} hook returned decision:ask, which Trellis does not apply (ignored)`);
  }
  if (out.continue === false && flowControl) effect.stop = { reason };
  const context = specific.additionalContext;
  if (typeof context === "string" && context.trim() !== "") {
    // Gemini escapes angle brackets so a hook cannot inject tags into the model's context.
    effect.additionalContexts.push(context.replace(/</g, "&lt;").replace(/>/g, "&gt;"));
  }
  if (event === "PreToolUse" && isRecord(specific.tool_input) && !effect.block) {
    effect.updatedInput = { value: { ...(isRecord(toolInput) ? toolInput : {}), ...specific.tool_input } };
  }
  const applied = new Set(["additionalContext", ...(event === "PreToolUse" ? ["tool_input"] : [])]);
  for (const key of Object.keys(specific).filter((k) => !applied.has(k) && k !== "hookEventName")) {
    notes.push(`${name} hook returned hookSpecificOutput.${key}, which Trellis does not apply (ignored)`);
  }
  const known = new Set(["systemMessage", "suppressOutput", "continue", "stopReason", "decision", "reason"]);
  const ignored = Object.keys(out).filter((k) => !known.has(k) && k !== "hookSpecificOutput");
  if (notes.length > 0) effect.notes = notes;
  if (ignored.length > 0) effect.ignored = ignored;
  return effect;
}

/**
 * Copilot: `preToolUse` is fail-closed (exit 2 or any other non-zero exit denies), `permissionRequest`
 * denies on exit 2; elsewhere a non-zero exit is a logged failure. Stdout, its `{"type":"progress"}`
 * lines removed, is one JSON document; output that is not JSON counts as none, as in Copilot.
 */
function readCopilot(handler: Handler, result: CommandResult): HookEffect {
  const event = handler.event;
  const name = handler.vendorEvent ?? event;
  const { value: out, unreadable } = copilotStdout(result.stdout);
  const stderr = result.stderr.trim().slice(0, 500);
  if (result.code !== 0) {
    if (event === "PreToolUse") {
      const why = result.code === 2 ? firstText(out?.permissionDecisionReason) : undefined;
      return {
        additionalContexts: [],
        block: {
          reason: why ??
            `Denied by ${name} hook (hook ${result.code === 2 ? "exited with code 2" : "errored"})`,
        },
      };
    }
    if (event === "PermissionRequest" && result.code === 2) {
      return {
        additionalContexts: [],
        block: { reason: firstText(out?.message) ?? `Denied by ${name} hook` },
      };
    }
    if (String(event) === "PostToolUseFailure" && result.code === 2) {
      return { additionalContexts: result.stdout.trim() ? [result.stdout.trim()] : [] };
    }
    return fail(`hook exited with code ${result.code}${stderr ? `: ${stderr}` : ""}`);
  }
  const effect = out ? copilotOutput(handler, out) : none();
  if (unreadable) effect.ignored = [...effect.ignored ?? [], "stdout (not JSON)"];
  return effect;
}

function copilotOutput(handler: Handler, out: Output): HookEffect {
  const event = handler.event;
  const name = handler.vendorEvent ?? event;
  const effect = none();
  const notes: string[] = [];
  const unapplied = (field: string) =>
    notes.push(`${name} hook returned ${field}, which Trellis does not apply (ignored)`);
  const read = new Set<string>();
  const take = (field: string) => (read.add(field), out[field]);
  switch (event) {
    case "PreToolUse": {
      const decision = take("permissionDecision");
      const reason = firstText(take("permissionDecisionReason"));
      const args = take("modifiedArgs");
      if (decision === "deny") effect.block = { reason: reason ?? `Denied by ${name} hook` };
      else if (isRecord(args)) effect.updatedInput = { value: trellisToolArgs("copilot", args) };
      if (decision === "ask") unapplied('permissionDecision "ask"');
      break;
    }
    case "PermissionRequest": {
      const behavior = take("behavior");
      const message = firstText(take("message"));
      if (behavior === "deny") {
        effect.block = { reason: message ?? `Denied by ${name} hook` };
        if (take("interrupt") === true) effect.stop = { reason: message ?? `${name} hook stopped the agent` };
      } else if (behavior === "allow") effect.allow = true;
      read.add("interrupt");
      break;
    }
    case "Stop":
    case "SubagentStop": {
      if (take("decision") === "block") {
        effect.block = { reason: firstText(take("reason")) ?? `${name} hook asked for another turn` };
      }
      read.add("reason");
      if (event === "SubagentStop" && take("modifiedResponse") !== undefined) unapplied("modifiedResponse");
      break;
    }
    case "PostToolUse":
      if (take("modifiedResult") !== undefined) unapplied("modifiedResult");
      break;
  }
  const contextEvents: HookEventName[] = ["PostToolUse", "SessionStart", "SubagentStart"];
  if (
    contextEvents.includes(event) || String(event) === "Notification" ||
    String(event) === "PostToolUseFailure"
  ) {
    const context = take("additionalContext");
    if (typeof context === "string" && context.trim() !== "") effect.additionalContexts.push(context);
  }
  // userPromptSubmitted, sessionEnd, preCompact, errorOccurred: Copilot drops a command hook's output.
  const ignored = Object.keys(out).filter((k) => !read.has(k));
  if (notes.length > 0) effect.notes = notes;
  if (ignored.length > 0) effect.ignored = ignored;
  return effect;
}

/** Copilot's stdout: progress lines taken out, the rest parsed as one JSON object. */
function copilotStdout(stdout: string): { value?: Output; unreadable: boolean } {
  const kept = stdout.split("\n").filter((line) => !isProgressLine(line.trim())).join("\n").trim();
  if (kept === "") return { unreadable: false };
  const value = parseJsonObject(kept);
  return value === undefined ? { unreadable: true } : { value, unreadable: false };
}

function isProgressLine(line: string): boolean {
  if (!line.startsWith("{")) return false;
  try {
    const value = JSON.parse(line);
    return isRecord(value) && value.type === "progress";
  } catch {
    return false;
  }
}

/** An object from JSON text; Gemini also unwraps a JSON string holding JSON. */
function parseJsonObject(text: string): Output | undefined {
  try {
    let value: unknown = JSON.parse(text);
    if (typeof value === "string") value = JSON.parse(value);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function firstText(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === "string" && v.trim() !== "") return v.trim();
  return undefined;
}

function isRecord(value: unknown): value is Output {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
