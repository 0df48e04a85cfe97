import type { Platform } from "../platform/mod.ts";
import { runHandler } from "./handler_runner.ts";
import type { HookServices } from "./handler_services.ts";
import type { HookEventName } from "./hook_events.ts";
import { basePayload } from "./stdin_payloads.ts";
import { syntheticFields } from "./synthetic_payloads.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";
import { interpretRun } from "./interpret_run.ts";
import { DIALECT_NAMES } from "./vendor_events.ts";
import { vendorPayload } from "./vendor_stdin.ts";

export interface DoctorFinding {
  key: string;
  event: HookEventName;
  command: string;
  ok: boolean;
  /** Why the guard cannot run: spawn error, timeout, bad exit, invalid output. */
  problem?: string;
  /** A Gemini or Copilot CLI hook: that CLI and its event name, e.g. "Gemini CLI BeforeTool" (#24 item 3). */
  vendor?: string;
  durationMs: number;
}

export interface DoctorOptions {
  platform: Platform;
  cwd: string;
  baseEnv?: Record<string, string>;
  wrapCommand?: (argv: string[]) => string[];
  /** Model, MCP servers and the http allowlist, for the other handler types (#24 item 2). */
  services?: HookServices;
  /** Doctor never waits longer than this per hook (default 10 s), whatever the handler's timeout. */
  maxTimeoutSec?: number;
}

/**
 * Spawns every runnable handler once, concurrently, with a synthetic payload for its event and
 * reports the ones that cannot run. A block (exit 2 or a deny) is a working guard, not a problem.
 */
export async function doctorHooks(
  handlers: HookHandlerInfo[],
  options: DoctorOptions,
): Promise<DoctorFinding[]> {
  const cap = options.maxTimeoutSec ?? 10;
  return await Promise.all(
    handlers.filter((h) => h.runnable).map(async (h) => {
      const probe = { ...h, timeoutSec: Math.min(h.timeoutSec, cap), onFailure: "ignore" as const };
      const payload = syntheticPayload(h.event, options.cwd);
      // A Gemini or Copilot CLI hook is probed with its own CLI's stdin (#24 item 3).
      const input = JSON.stringify(h.dialect ? vendorPayload(h, payload) : payload);
      const result = await runHandler(probe, { ...options, input, ...(h.cwd ? { cwd: h.cwd } : {}) });
      const effect = interpretRun(h.event, probe, result, payload.tool_input);
      const finding: DoctorFinding = {
        key: h.key,
        event: h.event,
        command: h.command,
        ok: effect.error === undefined,
        durationMs: Math.round(result.durationMs),
      };
      if (effect.error !== undefined) finding.problem = effect.error;
      if (h.dialect) finding.vendor = `${DIALECT_NAMES[h.dialect]} ${h.vendorEvent ?? h.event}`;
      return finding;
    }),
  );
}

function syntheticPayload(event: HookEventName, cwd: string): Record<string, unknown> {
  const payload = basePayload(event, {
    sessionId: "trellis-hooks-doctor",
    turnId: "doctor-turn",
    cwd,
    model: "doctor",
    permissionMode: "default",
    transcriptPath: null,
    signal: new AbortController().signal,
  });
  return { ...payload, ...syntheticFields(event, cwd) };
}
