/**
 * How a background subagent's answer reaches its parent's model (#22 item 2), in the two shapes the
 * models were trained on:
 * - Codex 0.171: a user message `<subagent_notification>\n{"agent_path": ID, "status": STATUS}\n
 *   </subagent_notification>` (captured from its requests), STATUS as wait_agent reports it
 *   (`{"completed": "last message"}`, `{"errored": …}`, `"shutdown"`).
 * - Claude Code 2.1.332: a user message `<task-notification>` with `<task-id>`, `<tool-use-id>`,
 *   `<output-file>`, `<status>` (completed | failed | killed), `<summary>` and `<result>`, each
 *   tag on its own line (read from its source).
 */
export function codexNotification(agentId: string, status: unknown): string {
  return `<subagent_notification>\n${
    JSON.stringify({ agent_path: agentId, status })
  }\n</subagent_notification>`;
}

export function taskNotification(n: {
  taskId: string;
  toolUseId: string;
  outputFile: string | null;
  status: "completed" | "failed" | "killed";
  description: string;
  result: string | null;
  error?: string;
}): string {
  const summary = n.status === "completed"
    ? `Agent "${n.description}" finished`
    : n.status === "killed"
    ? `Agent "${n.description}" was stopped`
    : `Agent "${n.description}" failed: ${n.error ?? "no answer"}`;
  const lines = [
    "<task-notification>",
    `<task-id>${escape(n.taskId)}</task-id>`,
    `<tool-use-id>${escape(n.toolUseId)}</tool-use-id>`,
    ...(n.outputFile ? [`<output-file>${escape(n.outputFile)}</output-file>`] : []),
    `<status>${n.status}</status>`,
    `<summary>${escape(summary)}</summary>`,
    ...(n.result ? [`<result>${escape(n.result)}</result>`] : []),
    "</task-notification>",
  ];
  return lines.join("\n");
}

/** A result cannot close the notification early (Claude Code escapes a closing tag the same way). */
function escape(text: string): string {
  return text.replaceAll(/<(?=\s*\/\s*task-notification\b)/gi, "&lt;");
}

/** Names a spawned Codex agent is called by (Codex gives each a nickname). */
export const NICKNAMES = [
  "Ada",
  "Babbage",
  "Curie",
  "Darwin",
  "Euclid",
  "Faraday",
  "Gauss",
  "Hopper",
  "Kepler",
  "Lovelace",
  "Noether",
  "Pascal",
];
