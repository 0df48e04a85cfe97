/**
 * The hook events that fire when the session needs a person (#24 item 1): Elicitation and
 * ElicitationResult around an MCP form, and the Notification kinds Claude Code sends when the agent
 * waits (`elicitation_dialog`, `agent_needs_input`, `idle_prompt`) or an agent finished
 * (`agent_completed`). Each wraps the port it observes; with no hooks it is the port unchanged.
 */
import type { ElicitationResponder, ElicitationResponse } from "../mcp/mod.ts";
import type { HookTurnContext, LifecycleHooks, UserQuestioner } from "../shared/mod.ts";

/** The engine and the moment's hook context, read at each firing (the session is built later). */
export interface AttentionHooks {
  hooks(): LifecycleHooks | undefined;
  context(): HookTurnContext;
}

/** Claude Code waits this long at an idle prompt before `idle_prompt` (its messageIdleNotifThresholdMs). */
export const IDLE_PROMPT_MS = 60_000;

export type NotificationType =
  | "permission_prompt"
  | "idle_prompt"
  | "elicitation_dialog"
  | "agent_needs_input"
  | "agent_completed";

/** Fires Notification; observers only: a failing hook never stops what it announces. */
export async function notify(
  at: AttentionHooks,
  type: NotificationType,
  message: string,
  title: string,
  agent?: { id: string; type: string },
): Promise<void> {
  const named = agent ? { agent_id: agent.id, agent_type: agent.type } : {};
  await at.hooks()?.fire?.(at.context(), "Notification", {
    message,
    title,
    notification_type: type,
    ...named,
  })
    .catch(() => {});
}

/**
 * Elicitation fires before the form is shown: a hook's `action` (with `content`) answers it and no
 * one is asked; a block declines it. ElicitationResult fires with the answer, whoever gave it: its
 * `action` overrides the answer, a block turns it into a decline (Claude Code's contract).
 */
export function hookedElicitation(inner: ElicitationResponder, at: AttentionHooks): ElicitationResponder {
  return {
    async respond(request, signal) {
      const fire = at.hooks()?.fire;
      if (!fire) return await inner.respond(request, signal);
      // Inside a child, every hook payload names it (#22 item 4), as Claude Code's do.
      const ids = {
        mcp_server_name: request.server,
        elicitation_id: request.id,
        ...(request.agent ? { agent_id: request.agent.id, agent_type: request.agent.type } : {}),
      };
      const before = await fire(at.context(), "Elicitation", {
        ...ids,
        message: request.message,
        mode: request.mode,
        ...(request.url !== undefined ? { url: request.url } : {}),
        ...(request.schema !== undefined ? { requested_schema: request.schema } : {}),
      });
      let response: ElicitationResponse;
      if (before.block) response = { action: "decline" };
      else if (before.elicitation) response = answer(before.elicitation);
      else {
        await notify(
          at,
          "elicitation_dialog",
          `${request.server} asks: ${request.message}`,
          "MCP input needed",
          request.agent,
        );
        response = await inner.respond(request, signal);
      }
      const after = await fire(at.context(), "ElicitationResult", {
        ...ids,
        mode: request.mode,
        action: response.action,
        ...(response.content !== undefined ? { content: response.content } : {}),
      });
      if (after.block) return { action: "decline" };
      return after.elicitation ? answer(after.elicitation) : response;
    },
  };
}

function answer(given: ElicitationResponse): ElicitationResponse {
  return given.action === "accept" && given.content ? given : { action: given.action };
}

/** request_user_input: `agent_needs_input` fires as the questions are put to the person. */
export function notifyingQuestioner(inner: UserQuestioner, at: AttentionHooks): UserQuestioner {
  return {
    async ask(questions, signal) {
      const first = questions[0]?.question ?? "";
      await notify(at, "agent_needs_input", `Trellis needs your input: ${first}`, "Input needed");
      return await inner.ask(questions, signal);
    },
  };
}
