import { type HookHandlerInfo, hookTrustHash } from "../../lib/hooks/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { HookTurnContext, TrellisEventBody } from "../../lib/shared/mod.ts";

/** A runnable user handler; tests override what they care about. */
export function handler(
  overrides: Partial<HookHandlerInfo> & Pick<HookHandlerInfo, "command">,
): HookHandlerInfo {
  const base = {
    key: `/tmp/hooks.json:pre_tool_use:0:${overrides.displayOrder ?? 0}`,
    event: "PreToolUse" as const,
    timeoutSec: 30,
    onFailure: "ignore" as const,
    sourcePath: "/tmp/hooks.json",
    sourceKind: "user" as const,
    managed: false,
    groupIndex: 0,
    handlerIndex: overrides.displayOrder ?? 0,
    displayOrder: 0,
    trust: "trusted" as const,
    enabled: true,
    runnable: true,
    ...overrides,
  };
  return { ...base, hash: overrides.hash ?? hookTrustHash(base) };
}

export function turnContext(cwd: string, overrides: Partial<HookTurnContext> = {}): HookTurnContext {
  return {
    sessionId: "session-1",
    turnId: "turn-1",
    cwd,
    model: "gpt-test",
    permissionMode: "default",
    transcriptPath: null,
    signal: new AbortController().signal,
    ...overrides,
  };
}

export async function tempDir(): Promise<string> {
  return await platform.fs.realPath(await platform.fs.makeTempDir("trellis-hooks-test-"));
}

/** The environment hook commands start from in tests: explicit, never the test process's own. */
export function testEnv(): Record<string, string> {
  return { PATH: platform.env("PATH") ?? "/usr/bin:/bin", SHELL: "/bin/sh" };
}

export function eventLog(): { events: TrellisEventBody[]; sink: (e: TrellisEventBody) => void } {
  const events: TrellisEventBody[] = [];
  return { events, sink: (e) => events.push(e) };
}
