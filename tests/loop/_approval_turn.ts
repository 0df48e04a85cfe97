import { type Approver, runTurn, ttyApprover, type TurnOptions } from "../../lib/loop/mod.ts";
import type { SandboxStatus } from "../../lib/platform/mod.ts";
import type { ConversationItem } from "../../lib/shared/mod.ts";
import type { PermissionProfile } from "../../lib/tools/mod.ts";
import { catalogOf, hooksWith, recorder, scriptedModel, type ScriptedStep } from "./_fakes.ts";
import { type Box, realSandbox, realTools } from "./_real_tools.ts";

/**
 * One turn through the loop with the real built-in tools under real bwrap and a terminal approver
 * that answers from a list: what the approval tests of #13 and #20 drive.
 */

const sandbox = await realSandbox();

/** A terminal approver answering `answers` in order; `io.prompts` counts the questions asked. */
export function tty(answers: string[]) {
  const io = {
    screen: "",
    prompts: 0,
    readLine: () => Promise.resolve(answers.length ? answers.shift()! : null),
    write(text: string) {
      io.screen += text;
      if (text.includes("Answer (")) io.prompts++;
    },
    columns: () => 200,
  };
  return { io, approver: ttyApprover(io) };
}

export async function approvalTurn(
  box: Box,
  steps: ScriptedStep[],
  setup: {
    profile: Partial<PermissionProfile>;
    approver: Approver;
    sandbox?: SandboxStatus;
    hooks?: Parameters<typeof hooksWith>[0];
  },
) {
  const rec = recorder();
  const tools = realTools(box, setup.profile, setup.sandbox ?? sandbox);
  const options: TurnOptions = {
    turnId: "t1",
    model: scriptedModel(steps),
    modelName: "m",
    instructions: "",
    history: [],
    prompt: "go",
    injected: [],
    captureTools: catalogOf(tools),
    hooks: hooksWith(setup.hooks ?? {}),
    hookContext: { sessionId: "s", cwd: box.ws, model: "m", permissionMode: "default", transcriptPath: null },
    approver: setup.approver,
    approvalPolicy: setup.profile.approvalPolicy ?? "on-request",
    sandboxed: (setup.profile.sandboxMode ?? "workspace-write") !== "danger-full-access",
    events: rec.sink,
    record: rec.record,
    maxSteps: 10,
    signal: new AbortController().signal,
    cwd: box.ws,
  };
  const result = await runTurn(options);
  const outputs = rec.items.flatMap((i: ConversationItem) =>
    i.type === "function_call_output" ? [{ id: i.callId, status: i.status, output: i.output }] : []
  );
  const decided = rec.events.flatMap((e) =>
    e.type === "approval.decided" ? [[e.call_id, e.decision, e.by]] : []
  );
  return { result, outputs, decided, events: rec.events };
}
