import { terminalText } from "../../shared/mod.ts";
import {
  APPROVAL_POLICIES,
  mcpPromptMentionError,
  SANDBOX_MODES,
  type Session,
  sessionContextLedger,
  workingTreeDiff,
} from "../../app/mod.ts";
import type { McpServerOverview } from "../../app/mod.ts";
import { contextLedgerLines } from "../context_ledger_table.ts";
import { mcpOverviewLines } from "./mcp_overview.ts";
import { twoColumns } from "./two_columns.ts";
import type { Platform } from "../../platform/mod.ts";
import type { EventView } from "./event_view.ts";
import { INIT_PROMPT } from "./init_prompt.ts";
import { rewindCommand } from "./rewind_command.ts";
import { agentLine, conversationRows } from "./agents_view.ts";
import { wrap } from "./markdown_render.ts";
import type { Ui } from "./ui.ts";

/** What a slash command may do to the interactive session. */
export interface SlashContext {
  ui: Ui;
  platform: Platform;
  session(): Session;
  view(): EventView;
  /** Starts a turn with this prompt, as if typed. */
  submitPrompt(prompt: string): void;
  newSession(): Promise<void>;
  resumeSession(): Promise<void>;
  /** Runs a `trellis` subcommand in-process, its output printed here. */
  runCli(argv: string[]): Promise<void>;
  /** Runs `work` with the status line showing `label`; Esc / Ctrl-C abort its signal. */
  busy<T>(label: string, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  quit(): void;
}

export interface SlashCommand {
  name: string;
  description: string;
  /** Usage after the name, for /help. */
  args?: string;
  run(args: string, ctx: SlashContext): Promise<void> | void;
}

export const BUILTIN_COMMANDS: SlashCommand[] = [
  { name: "help", description: "list the slash commands", run: (_, ctx) => help(ctx) },
  {
    name: "status",
    description: "model, provider, sandbox, approvals, context used, MCP, skills, hooks",
    run: (_, ctx) => status(ctx),
  },
  {
    name: "model",
    args: "[NAME]",
    description: "show the model, or use NAME for the next requests",
    run(args, ctx) {
      const name = args.trim();
      if (!name) return say(ctx, `model: ${ctx.session().info().model}`);
      ctx.session().setModel(name);
      say(ctx, `model: ${name} from the next request`);
    },
  },
  {
    name: "approvals",
    args: `[${APPROVAL_POLICIES.join("|")}]`,
    description: "show the approval policy, or change it for the next tool call",
    run: (args, ctx) =>
      chooseSetting(ctx, args, {
        label: "approvals",
        what: "approval policy",
        values: APPROVAL_POLICIES,
        current: () => ctx.session().info().approvalPolicy,
        set: (value) => ctx.session().setApprovalPolicy(value),
      }),
  },
  {
    name: "sandbox",
    args: `[${SANDBOX_MODES.join("|")}]`,
    description: "show the sandbox mode, or change it for the next tool call",
    run: (args, ctx) =>
      chooseSetting(ctx, args, {
        label: "sandbox",
        what: "sandbox mode",
        values: SANDBOX_MODES,
        current: () => ctx.session().info().sandboxMode,
        set: (value) => ctx.session().setSandboxMode(value),
        warning: (value) =>
          value === "danger-full-access"
            ? "commands now run unsandboxed and the file tools write anywhere without asking"
            : undefined,
      }),
  },
  { name: "new", description: "start a new session in this directory", run: (_, ctx) => ctx.newSession() },
  {
    name: "rewind",
    args: "[N] [force]",
    description: "put files and/or the conversation back to before a turn",
    run: (args, ctx) => rewindCommand(args, ctx),
  },
  {
    name: "resume",
    description: "pick a recorded session and continue it",
    run: (_, ctx) => ctx.resumeSession(),
  },
  {
    name: "compact",
    args: "[WHAT TO KEEP]",
    description: "summarize the conversation to free context",
    run: (args, ctx) => compact(args, ctx),
  },
  {
    name: "diff",
    description: "the workspace's git diff (untracked files listed)",
    run: (_, ctx) => diff(ctx),
  },
  { name: "mcp", description: "MCP servers and their state", run: (_, ctx) => mcp(ctx) },
  { name: "skills", description: "the enabled skills", run: (_, ctx) => skills(ctx) },
  {
    name: "hooks",
    description: "hooks and their trust state",
    run: (_, ctx) => ctx.runCli(["hooks", "list"]),
  },
  {
    name: "permissions",
    description: "permission rules (allow, ask, deny) and their origin",
    run: (_, ctx) => ctx.runCli(["permissions", "list"]),
  },
  {
    name: "plugins",
    description: "configured and installed plugins",
    run: (_, ctx) => ctx.runCli(["plugin", "list"]),
  },
  {
    name: "agents",
    args: "[N]",
    description: "the session's subagents (state, latest tool call, tokens); N opens one's transcript",
    run: (args, ctx) => agents(args, ctx),
  },
  { name: "init", description: "write an AGENTS.md for this repository", run: (_, ctx) => init(ctx) },
  {
    name: "context",
    description: "what fills the context window, by source (the context ledger)",
    run: (_, ctx) => context(ctx),
  },
  { name: "quit", description: "end the session (also /exit, Ctrl-D)", run: (_, ctx) => ctx.quit() },
  { name: "exit", description: "end the session", run: (_, ctx) => ctx.quit() },
];

/**
 * Every slash command: the built-ins and plugin commands (skills named `plugin:command`, invoked as
 * `$plugin:command args`). MCP prompts come from `mcpPromptCommands` (they need ready servers).
 */
export async function slashCommands(session: Session): Promise<SlashCommand[]> {
  const plugin = (await session.skills().catch(() => []))
    .filter((s) => s.name.includes(":"))
    .map((s): SlashCommand => ({
      name: s.name,
      args: "[ARGS]",
      description: s.description,
      run: (args, ctx) => ctx.submitPrompt(`$${s.name}${args ? ` ${args}` : ""}`),
    }));
  return [...BUILTIN_COMMANDS, ...plugin];
}

/**
 * `/mcp__server__prompt ARGS` for each prompt of a ready MCP server (#15 item 5): the text is sent
 * as the prompt, and the session expands it with `prompts/get` — as `exec` expands
 * `$mcp__server__prompt` — arguments by name (`city=Paris`) or in declared order.
 */
export async function mcpPromptCommands(session: Session): Promise<SlashCommand[]> {
  const prompts = await session.mcpPrompts().catch(() => []);
  return prompts.map((p): SlashCommand => ({
    name: p.modelName,
    args: p.arguments.map((a) => a.required ? a.name.toUpperCase() : `[${a.name.toUpperCase()}]`).join(" "),
    description: p.description || `prompt ${p.name} of MCP server ${p.server}`,
    run: (args, ctx) => {
      // A required argument missing sends nothing (#21 item 6): the turn would carry the bare
      // command to the model with the expansion failed.
      const error = mcpPromptMentionError(p, args);
      if (error !== null) {
        return say(
          ctx,
          ctx.ui.colors.yellow(`${terminalText(error, { lineBreaks: "show" })}: nothing was sent`),
        );
      }
      return ctx.submitPrompt(`/${p.modelName}${args.trim() ? ` ${args.trim()}` : ""}`);
    },
  }));
}

function say(ctx: SlashContext, text: string): void {
  ctx.ui.print(wrap(text, ctx.ui.width() - 1));
}

function help(ctx: SlashContext): void {
  const c = ctx.ui.colors;
  const rows = [
    ...BUILTIN_COMMANDS.filter((cmd) => cmd.name !== "exit").map((cmd) => ({
      name: `/${cmd.name}${cmd.args ? ` ${cmd.args}` : ""}`,
      text: cmd.description,
    })),
    { name: "/plugin:command [ARGS]", text: "a plugin's command (Tab lists them)" },
    { name: "/mcp__server__prompt [ARGS]", text: "an MCP server's prompt (Tab lists them)" },
  ];
  const keys = [
    { name: "Enter", text: "send" },
    { name: "\\ or Alt-Enter", text: "a new line" },
    { name: "Tab", text: "complete /commands, $skills, @files" },
    { name: "Up/Down", text: "prompt history" },
    { name: "Ctrl-O", text: "expand or collapse the running subagents' panel" },
    { name: "Esc, Ctrl-C", text: "interrupt the turn (at a question: Esc declines, Ctrl-C stops the turn)" },
    { name: "Ctrl-C twice, Ctrl-D", text: "quit (on an empty prompt)" },
    { name: "@path, $skill", text: "attach a file's text to the prompt; use a skill" },
  ];
  const style = (name: string) => c.bold(name);
  ctx.ui.print([
    c.bold("Slash commands"),
    ...twoColumns(ctx.ui, rows, { mode: "wrap", style }),
    "",
    c.bold("Keys"),
    ...twoColumns(ctx.ui, keys, { mode: "wrap", style }),
  ]);
}

/**
 * How full the context is: the session's meter (the model's last report plus what came since, an
 * estimate before any report, as after a resume; smaller right after a compaction).
 */
export function contextUsed(session: Session): string | null {
  const { tokens, contextWindow, windowAssumed } = session.context();
  if (!(tokens > 0)) return null;
  return `${Math.round((tokens / contextWindow) * 100)}% (${tokens.toLocaleString("en-US")} of ${
    contextWindow.toLocaleString("en-US")
  } tokens${windowAssumed ? ", an assumed window: set model_context_window" : ""})`;
}

/**
 * `/agents [N]` (#22 item 6): the session's subagents, numbered, each with its state, latest tool
 * call and tokens; with N (or an id), that child's conversation as its transcript holds it now.
 */
async function agents(args: string, ctx: SlashContext): Promise<void> {
  const { ui } = ctx;
  const c = ui.colors;
  const session = ctx.session();
  const children = session.subagents();
  const wanted = args.trim();
  if (!wanted) {
    if (children.length === 0) {
      return ui.print([
        c.dim(
          "No subagents in this session yet: the model starts them with its agent tool (`trellis agents list` shows the types).",
        ),
      ]);
    }
    return ui.print([
      c.bold(`Subagents (${children.length})`),
      ...children.map((a, i) => `  ${i + 1}. ${agentLine(ui, a)}`),
      c.dim("  /agents N opens one's transcript"),
    ]);
  }
  const index = /^\d+$/.test(wanted) ? Number(wanted) - 1 : -1;
  const child = children[index] ?? children.find((a) => a.id === wanted);
  if (!child) {
    return ui.print([
      c.yellow(
        `No subagent ${
          terminalText(wanted, { lineBreaks: "show" })
        } in this session: /agents lists ${children.length}`,
      ),
    ]);
  }
  const items = await session.subagentConversation(child.id);
  const where = child.transcript ? terminalText(child.transcript, { lineBreaks: "show" }) : "not recorded";
  ui.print([
    c.bold(`${terminalText(child.type, { lineBreaks: "show" })} ${child.id}`),
    c.dim(`  ${agentLine(ui, child)} · transcript ${where}`),
    "",
    ...(items ? conversationRows(ui, items, ui.width() - 1) : [c.dim("  (its transcript cannot be read)")]),
  ]);
}

/** `/context`: the ledger of the live session's next request, its real history included (#17 item 3). */
async function context(ctx: SlashContext): Promise<void> {
  const ledger = await sessionContextLedger(ctx.session(), { preview: false });
  const [title, ...rest] = contextLedgerLines(ledger);
  ctx.ui.print([ctx.ui.colors.bold(title), ...rest]);
}

async function status(ctx: SlashContext): Promise<void> {
  const c = ctx.ui.colors;
  const session = ctx.session();
  const info = session.info();
  const servers = [...ctx.view().servers].map(([name, s]) =>
    `${terminalText(name, { lineBreaks: "show" })} ${s.status}${
      s.error ? ` (${terminalText(s.error, { lineBreaks: "show" })})` : ""
    }`
  );
  const skills = await session.skills().catch(() => []);
  const rows: [string, string][] = [
    ["session", `${info.threadId}`],
    ["directory", terminalText(info.cwd, { lineBreaks: "show" })],
    [
      "model",
      `${terminalText(info.model, { lineBreaks: "show" })} (provider ${
        terminalText(info.provider, { lineBreaks: "show" })
      })`,
    ],
    ["sandbox", info.sandboxMode],
    ["approvals", info.approvalPolicy],
    ["context used", contextUsed(session) ?? "unknown until the first reply"],
    ["MCP servers", servers.length ? servers.join(", ") : "none"],
    ["skills", `${skills.length} enabled`],
    ["hooks", terminalText(ctx.view().hooksNeedingReview ?? "none need review", { lineBreaks: "show" })],
    ["transcript", terminalText(info.transcriptFile ?? "(not recorded)", { lineBreaks: "show" })],
  ];
  ctx.ui.print([c.bold("Status"), ...rows.map(([k, v]) => `  ${c.dim(k.padEnd(13))} ${v}`)]);
}

function mcp(ctx: SlashContext): void {
  const c = ctx.ui.colors;
  let overview: McpServerOverview[] = [];
  try {
    overview = ctx.session().mcpServers();
  } catch {
    // No session yet (still opening): the statuses the events reported are all there is.
  }
  if (overview.length > 0) {
    return void ctx.ui.print([c.bold("MCP servers"), ...mcpOverviewLines(overview, c)]);
  }
  const servers = [...ctx.view().servers];
  if (servers.length === 0) {
    return say(ctx, "No MCP servers in this session (trellis mcp add NAME -- COMMAND adds one).");
  }
  ctx.ui.print([
    c.bold("MCP servers"),
    ...servers.map(([name, s]) => {
      const paint = s.status === "ready" ? c.green : s.status === "failed" ? c.red : c.yellow;
      return `  ${terminalText(name, { lineBreaks: "show" })}  ${paint(s.status)}${
        s.error ? `  ${c.dim(terminalText(s.error, { lineBreaks: "show" }))}` : ""
      }`;
    }),
  ]);
}

async function skills(ctx: SlashContext): Promise<void> {
  const c = ctx.ui.colors;
  const list = await ctx.session().skills();
  if (list.length === 0) return say(ctx, "No skills enabled.");
  ctx.ui.print([
    c.bold(`Skills (${list.length})`),
    ...twoColumns(
      ctx.ui,
      list.map((s) => ({
        name: `$${terminalText(s.name, { lineBreaks: "show" })}`,
        text: `[${s.scope}] ${terminalText(s.description, { lineBreaks: "show" })}`,
      })),
      { mode: "cut", style: (name) => c.bold(name) },
    ),
  ]);
}

/**
 * `/compact [instructions]` (#15 item 6): the session's compaction — a summarization request, the
 * history replaced by the summary and the recent user messages, recorded in the transcript,
 * PreCompact/PostCompact fired. The event view shows its item (compacted, or failed with the
 * history unchanged); this says what the context holds now, or why nothing was done.
 */
async function compact(args: string, ctx: SlashContext): Promise<void> {
  const session = ctx.session();
  const instructions = args.trim();
  const outcome = await ctx.busy(
    "Compacting",
    (signal) => session.compact({ signal, trigger: "manual", ...(instructions ? { instructions } : {}) }),
  );
  if (outcome.status === "compacted") {
    return say(ctx, ctx.ui.colors.dim(`context used now: ${contextUsed(session) ?? "unknown"}`));
  }
  if (outcome.status === "skipped") {
    const why = outcome.error?.message ?? "nothing to compact yet";
    return say(ctx, ctx.ui.colors.yellow(`not compacted: ${terminalText(why, { lineBreaks: "show" })}`));
  }
}

async function diff(ctx: SlashContext): Promise<void> {
  const c = ctx.ui.colors;
  const cwd = ctx.session().info().cwd;
  const result = await workingTreeDiff(ctx.platform, cwd);
  if (!result.ok) {
    // One line (#21 item 6): git's own message repeats itself over two.
    const where = terminalText(cwd, { lineBreaks: "show" });
    const first = terminalText(result.error.split("\n")[0] ?? "", { lineBreaks: "show" });
    return say(
      ctx,
      c.yellow(
        /not a git repository/i.test(result.error)
          ? `/diff: ${where} is not in a git repository (nothing to compare)`
          : `/diff: git failed in ${where}: ${first}`,
      ),
    );
  }
  const lines = terminalText(result.diff, { tabWidth: 2 }).split("\n").map((line) =>
    line.startsWith("+++") || line.startsWith("---")
      ? c.bold(line)
      : line.startsWith("+")
      ? c.green(line)
      : line.startsWith("-")
      ? c.red(line)
      : line.startsWith("@@")
      ? c.cyan(line)
      : line
  );
  const extra = result.untracked.length
    ? [
      "",
      c.bold("Untracked files:"),
      ...result.untracked.map((f) => `  ${c.green(terminalText(f, { tabWidth: 2 }))}`),
    ]
    : [];
  if (!result.diff.trim() && !extra.length) return say(ctx, "No changes.");
  ctx.ui.print([...lines, ...extra]);
}

async function init(ctx: SlashContext): Promise<void> {
  const cwd = ctx.session().info().cwd;
  if (await ctx.platform.fs.stat(`${cwd}/AGENTS.md`)) {
    return say(ctx, "AGENTS.md already exists here; /init leaves it alone (delete it to write a new one).");
  }
  ctx.submitPrompt(INIT_PROMPT);
}

/**
 * `/approvals [POLICY]` and `/sandbox [MODE]`: no argument shows the setting and its choices; a
 * known name changes it in the session (the next tool call follows); anything else is named in red.
 */
function chooseSetting(ctx: SlashContext, args: string, setting: {
  label: string;
  what: string;
  values: readonly string[];
  current(): string;
  set(value: string): void;
  /** What a person should know about choosing `value`, shown in yellow after the change. */
  warning?: (value: string) => string | undefined;
}): void {
  const value = args.trim();
  const choices = setting.values.join(", ");
  if (!value) return say(ctx, `${setting.label}: ${setting.current()} (choose from ${choices})`);
  if (!setting.values.includes(value)) {
    const shown = terminalText(value, { lineBreaks: "show" });
    return say(ctx, ctx.ui.colors.red(`unknown ${setting.what} "${shown}": use ${choices}`));
  }
  setting.set(value);
  say(ctx, `${setting.label}: ${value} from the next tool call`);
  const warning = setting.warning?.(value);
  if (warning) say(ctx, ctx.ui.colors.yellow(warning));
}
