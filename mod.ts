/**
 * Trellis as a library: open a directory's configuration, inspect its extensions (MCP servers and
 * their tools, skills, hooks, plugins), and run sessions of turns, with the config layers, project
 * trust, sandbox, approvals and hooks that `trellis exec` has. Events are the objects
 * `trellis exec --json` prints.
 *
 * @example Run one turn
 * ```ts
 * import { Trellis } from "./mod.ts";
 *
 * const trellis = await Trellis.open({ config: ['model="gpt-5.1"'] });
 * // SessionStart hooks have run when openSession returns.
 * const session = await trellis.openSession({
 *   events: (event) => {
 *     if (event.type === "item.completed" && event.item.type === "agent_message") console.log(event.item.text);
 *   },
 *   // The model-facing name: gpt-5.1 gets Codex's tools (tool_set = "auto"), commands as exec_command.
 *   approve: (question) => Promise.resolve(question.tool === "exec_command"),
 * });
 * try {
 *   const outcome = await session.runTurn("List the files in this directory.", { maxSteps: 20 });
 *   console.log(outcome.status, outcome.usage.outputTokens);
 * } finally {
 *   await session.close();
 * }
 * ```
 *
 * @example Inspect extensions
 * ```ts
 * import { Trellis } from "./mod.ts";
 *
 * const trellis = await Trellis.open({ cwd: "." });
 * for (const m of trellis.configMessages()) console.error(`${m.level}: ${m.message}`);
 * console.log((await trellis.mcpServers()).map((s) => s.name));
 * console.log((await trellis.skills()).filter((s) => s.enabled).map((s) => s.name));
 * console.log((await trellis.hooks()).map((h) => `${h.event} ${h.trust}`));
 * console.log((await trellis.plugins()).filter((p) => p.active).map((p) => p.id));
 * ```
 * @module
 */
export { Trellis, TrellisSession } from "./lib/app/mod.ts";
export type {
  ApprovalQuestion,
  ConfigMessage,
  FileRestore,
  HookInfo,
  LiveRewindRequest,
  McpServerInfo,
  McpToolInfo,
  OpenOptions,
  PluginInfo,
  RewindOutcome,
  RewindPlan,
  RewindPoint,
  SessionOpenOptions,
  SessionRewindOutcome,
  SkillInfo,
  SubagentInfo,
  TokenUsage,
  TurnOptions,
  TurnOutcome,
} from "./lib/app/mod.ts";
export type {
  ApprovalSubject,
  CallFields,
  CallStatus,
  CommandSandbox,
  ErrnoCode,
  ErrorData,
  EventUsage,
  NamedFileState,
  ThreadItem,
  TrellisErrorCode,
  TrellisEventBody as TrellisEvent,
} from "./lib/shared/mod.ts";
export { TrellisError, UsageError } from "./lib/shared/mod.ts";
export { VERSION } from "./lib/cli/version.ts";
