import {
  type DoctorFinding,
  doctorHooks,
  type HookEventName,
  type HookHandlerInfo,
  type HookRunRecord,
  reviewNotice,
  testHookEvent,
} from "../hooks/mod.ts";
import type { Workspace } from "./workspace.ts";

/**
 * What `trellis hooks test|doctor` do (issue #26 item 2): one command's work each, run on the
 * workspace's own engine and services, so a hook behaves here as in a session.
 */

/** The session-start line for `needsReview` untrusted or modified hooks ("" when there are none). */
export function hookReviewNotice(needsReview: number): string {
  return reviewNotice(needsReview);
}

export interface HookTestReport {
  event: HookEventName;
  runs: HookRunRecord[];
  /** The event's hooks that did not run: untrusted, modified or disabled. */
  skipped: HookHandlerInfo[];
  outcome: unknown;
}

/**
 * `hooks test EVENT [--tool NAME] [--input JSON]`: a synthetic event dispatched through the real
 * engine, in the workspace's directory, with the configured model named in the payload.
 */
export async function testHooks(
  ws: Workspace,
  handlers: HookHandlerInfo[],
  eventName: string,
  options: { tool?: string; input?: unknown },
): Promise<HookTestReport> {
  const engine = ws.hookEngine(handlers, { threadId: "hooks-test" });
  const context = {
    sessionId: "trellis-hooks-test",
    turnId: "hooks-test-turn",
    cwd: ws.loaded.paths.cwd,
    model: ws.loaded.config.model ?? "",
    permissionMode: "default",
    transcriptPath: null,
    signal: new AbortController().signal,
  };
  const result = await testHookEvent(engine, eventName, context, options);
  const skipped = handlers.filter((h) => h.event === result.event && !h.runnable);
  return { ...result, skipped };
}

/** `hooks doctor`: every runnable hook spawned once; `notRun` counts the ones that may not run. */
export async function doctorWorkspaceHooks(
  ws: Workspace,
  handlers: HookHandlerInfo[],
): Promise<{ findings: DoctorFinding[]; notRun: number }> {
  const findings = await doctorHooks(handlers, {
    platform: ws.platform,
    cwd: ws.loaded.paths.cwd,
    services: ws.hookServices(),
  });
  return { findings, notRun: handlers.filter((h) => !h.runnable).length };
}
