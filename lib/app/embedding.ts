import { type Approver, noTtyApprover } from "../loop/mod.ts";
import { listManagerTools } from "../mcp/mod.ts";
import { platform } from "../platform/mod.ts";
import type { TrellisEventBody } from "../shared/mod.ts";
import { listMcpServers } from "./mcp_inspection.ts";
import { PluginAdmin } from "./plugin_admin.ts";
import type { LiveRewindRequest, Session } from "./session.ts";
import type { RewindPoint, SessionRewindOutcome } from "./rewind.ts";
import { Workspace } from "./workspace.ts";

// The library face (issue #16 item 6): a few plain types an embedder reads, over the Workspace and
// Session the CLI uses, so a program that embeds Trellis gets what `trellis exec` gets — config
// layers and project trust, plugins, MCP with sampling, skills, hooks (SessionStart included) —
// without depending on the internal types, which may change.

/** Where Trellis runs and which config it reads: what `-C`, `-c` and `-p` say on the command line. */
export interface OpenOptions {
  /** The directory Trellis works in (default: the process's current directory). */
  cwd?: string;
  /** Config overrides as `key.path=value` (a TOML value, else a string), applied last, in order. */
  config?: string[];
  /** The `[profiles.<name>]` table to apply. */
  profile?: string;
}

/** A problem or note found while loading config, plugins or extensions. */
export interface ConfigMessage {
  /** "error" (something was left out), "warning" or "info". */
  level: "error" | "warning" | "info";
  /** One sentence naming the file, server or field. */
  message: string;
  /** The file it is about, when known. */
  file?: string;
}

/** One configured MCP server, as `trellis mcp list --json` shows it. */
export interface McpServerInfo {
  /** The server's name (`[mcp_servers.<name>]`, or its key in a `.mcp.json`). */
  name: string;
  /** False when disabled in config, or when its entry is invalid (then `error` says why). */
  enabled: boolean;
  /** "stdio", "streamable_http" or "sse"; "invalid" for an entry that could not be read. */
  transport: string;
  /** The file that declared it. */
  source: string;
  /** Whose file that is: "trellis", "codex" or "claude". */
  origin: string;
  /** The plugin that brought it (`name@marketplace`), or null. */
  plugin: string | null;
  /** Why the entry is invalid; absent for a valid one. */
  error?: string;
}

/** One tool of a running MCP server, under the name the model sees. */
export interface McpToolInfo {
  /** The server that offers it. */
  server: string;
  /** The tool's own name on that server. */
  tool: string;
  /** The name the model calls it by (`mcp__server__tool`). */
  modelName: string;
  /** The server's description of the tool. */
  description: string;
  /** False when a filter, its pin or its metadata keeps it from the model. */
  offered: boolean;
}

/** One discovered skill. */
export interface SkillInfo {
  /** The name a prompt selects it by (`$name`); a plugin's skills are `plugin:name`. */
  name: string;
  /** What the skill is for, as its SKILL.md says. */
  description: string;
  /** "repo", "user", "system" or "admin". */
  scope: string;
  /** Its SKILL.md. */
  path: string;
  /** False when config disables it. */
  enabled: boolean;
  /** The plugin that brought it (`name@marketplace`), or null. */
  plugin: string | null;
}

/** One lifecycle hook handler. */
export interface HookInfo {
  /** Its stable key (`trellis hooks trust KEY`). */
  key: string;
  /** The event it runs on: SessionStart, PreToolUse, Stop, … */
  event: string;
  /** The tool-name matcher, or null for every call. */
  matcher: string | null;
  /** The shell command it runs. */
  command: string;
  /** "managed", "trusted", "modified" (changed since trusted) or "untrusted": only the first two run. */
  trust: string;
  /** Why it is "modified": "command changed", "content changed" (a script or its plugin), … or null. */
  trustReason: string | null;
  /** False when disabled in config. */
  enabled: boolean;
  /** The file that declared it. */
  source: string;
  /** The plugin that brought it (`name@marketplace`), or null. */
  plugin: string | null;
}

/** One configured or installed plugin. */
export interface PluginInfo {
  /** `name@marketplace`. */
  id: string;
  /** The installed version, or null when not installed. */
  version: string | null;
  /** Enabled in config. */
  enabled: boolean;
  /** Enabled, installed and loaded without error: its skills, hooks and servers are in use. */
  active: boolean;
  /** Why it is not active, when it is enabled but not active. */
  error: string | null;
}

/** A tool call (or an action) that needs a person's yes before it runs. */
export interface ApprovalQuestion {
  /** The call's id, as in the events. */
  callId: string;
  /** The model-facing tool name, or the action (`request_plugin_install`). */
  tool: string;
  /** What approving allows and why it is asked, in one sentence. */
  reason: string;
}

/** How a session reports to its embedder and asks it. */
export interface SessionOpenOptions {
  /** Receives every event of the session, in order (the objects `trellis exec --json` prints). */
  events?: (event: TrellisEventBody) => void;
  /**
   * Answers the approvals `approval_policy` asks for: true runs the call. Without it every such
   * call is denied, as `trellis exec` does without a terminal.
   */
  approve?: (question: ApprovalQuestion) => Promise<boolean>;
  /** A session id to continue (its transcript is loaded), or "--last" for the most recent. */
  resume?: string;
}

/** How one turn runs. */
export interface TurnOptions {
  /** Stop after this many model samplings (default 50). */
  maxSteps?: number;
  /** Aborting it cancels the turn: running tools are stopped, the turn ends "aborted". */
  signal?: AbortSignal;
  /** Skills to inject by name or SKILL.md path, as `trellis exec --skill`. */
  skills?: string[];
}

/** Token counts of a turn, summed over its model requests. */
export interface TokenUsage {
  /** Input tokens, cached ones included. */
  inputTokens: number;
  /** Input tokens the provider served from its cache. */
  cachedInputTokens: number;
  /** Output tokens, reasoning included. */
  outputTokens: number;
}

/** A subagent of the session (#22 item 6), running or done: what the interactive panel shows. */
export interface SubagentInfo {
  /** Its thread id (`<session>-agentN`). */
  id: string;
  /** Its agent definition's name (`general-purpose`, `plugin:agent`). */
  type: string;
  /** What the parent called it for. */
  description: string;
  /** "running", then how it ended: "completed", "failed", "aborted", "timed_out", … */
  status: string;
  /** Its latest tool call (`Bash: npm test`), or null before its first. */
  lastAction: string | null;
  /** Its tokens so far, over all its turns. */
  usage: TokenUsage;
  /** Its own transcript file, or null when nothing is recorded. */
  transcriptFile: string | null;
}

/** How a turn ended. */
export interface TurnOutcome {
  /**
   * "completed"; "blocked" or "stopped" by a hook; "max_steps"; "failed" (see `error`); "aborted"
   * by the signal.
   */
  status: "completed" | "blocked" | "stopped" | "max_steps" | "failed" | "aborted";
  /** The model's last message of the turn, or null when it sent none. */
  lastMessage: string | null;
  /** Tokens the turn used. */
  usage: TokenUsage;
  /** Model samplings the turn took. */
  steps: number;
  /** What failed, for status "failed". */
  error?: { message: string; code?: string };
}

/**
 * Trellis in one directory: its config (layers, project trust, overrides), the extensions it finds
 * (MCP servers, skills, hooks, plugins), and sessions that run turns. Cheap to open: plugins,
 * skills, hooks and MCP servers are read the first time something asks for them.
 */
export class Trellis {
  #ws: Workspace;

  private constructor(ws: Workspace) {
    this.#ws = ws;
  }

  /** Loads the config for `options`; problems are reported by `configMessages()`, never thrown. */
  static async open(options: OpenOptions = {}): Promise<Trellis> {
    return new Trellis(
      await Workspace.open(platform, {
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
        overrides: options.config ?? [],
        ...(options.profile !== undefined ? { profile: options.profile } : {}),
      }),
    );
  }

  /** The directory Trellis works in. */
  get cwd(): string {
    return this.#ws.paths.cwd;
  }

  /** Trellis's home (`$TRELLIS_HOME`, default `~/.trellis`): user config, sessions, plugins. */
  get home(): string {
    return this.#ws.paths.home;
  }

  /** True when the user trusts this project, so its `.trellis/config.toml`, `.mcp.json` and hooks load. */
  get projectTrusted(): boolean {
    return this.#ws.loaded.projectTrusted;
  }

  /** The effective configuration: every layer merged, as plain data. */
  config(): Record<string, unknown> {
    return structuredClone(this.#ws.loaded.config) as Record<string, unknown>;
  }

  /** What loading the config found wrong or worth knowing. */
  configMessages(): ConfigMessage[] {
    return this.#ws.diagnostics.map(message);
  }

  /** Every configured MCP server (none is started), by name. */
  async mcpServers(): Promise<McpServerInfo[]> {
    const { servers, failed } = await listMcpServers(this.#ws);
    return [
      ...servers.map((s) => ({
        name: s.name,
        enabled: s.enabled,
        transport: s.transport.type,
        source: s.source,
        origin: s.origin,
        plugin: s.plugin,
      })),
      ...failed.map((f) => ({
        name: f.name,
        enabled: false,
        transport: "invalid",
        source: f.source,
        origin: f.origin,
        plugin: null,
        error: f.error,
      })),
    ].sort((a, b) => a.name < b.name ? -1 : 1);
  }

  /**
   * Starts the enabled MCP servers (or only `server`), lists their tools as a session's first step
   * would, and stops them. A server that fails to start is reported through `events`.
   */
  async mcpTools(
    options: { server?: string; events?: (event: TrellisEventBody) => void } = {},
  ): Promise<McpToolInfo[]> {
    const mcp = await this.#ws.openMcp({
      events: options.events ?? (() => {}),
      ...(options.server !== undefined ? { server: options.server } : {}),
      interactive: false,
      write: () => {},
    });
    try {
      return listManagerTools(mcp.runtime.manager).map((t) => ({
        server: t.server,
        tool: t.tool,
        modelName: t.modelName,
        description: t.description,
        offered: t.model,
      }));
    } finally {
      await mcp.runtime.shutdown();
    }
  }

  /** Every discovered skill, enabled or not. */
  async skills(): Promise<SkillInfo[]> {
    const { snapshot } = await this.#ws.skills();
    return snapshot.skills.map((s) => ({
      name: s.name,
      description: s.description,
      scope: s.scope,
      path: s.path,
      enabled: snapshot.isEnabled(s),
      plugin: s.plugin?.id ?? null,
    }));
  }

  /** Every hook handler, with whether it is trusted to run. */
  async hooks(): Promise<HookInfo[]> {
    return (await this.#ws.hooks()).handlers.map((h) => ({
      key: h.key,
      event: h.event,
      matcher: h.matcher ?? null,
      command: h.command,
      trust: h.trust,
      trustReason: h.trustReason ?? null,
      enabled: h.enabled,
      source: h.sourcePath,
      plugin: h.plugin?.pluginId ?? null,
    }));
  }

  /** Configured plugins and installed ones, with whether each is active. */
  async plugins(): Promise<PluginInfo[]> {
    const { rows } = await new PluginAdmin(this.#ws).rows();
    return rows.map((p) => ({
      id: p.id,
      version: p.version,
      enabled: p.enabled,
      active: p.active,
      error: p.error ?? null,
    }));
  }

  /**
   * Opens a session: its transcript, model, tools, MCP servers and hooks, then its SessionStart
   * hooks (HK-12), whose context goes before the first turn. Close it when done.
   */
  async openSession(options: SessionOpenOptions = {}): Promise<TrellisSession> {
    const session = await this.#ws.openSession({
      events: options.events ?? (() => {}),
      approver: options.approve ? approverFor(options.approve) : noTtyApprover,
      ...(options.resume !== undefined ? { resume: options.resume } : {}),
    });
    try {
      await session.start(new AbortController().signal);
      return new TrellisSession(session);
    } catch (error) {
      await session.close();
      throw error;
    }
  }
}

/** One conversation: turns run one at a time, each recorded in the session's transcript. */
export class TrellisSession {
  #session: Session;
  /** @internal Sessions come from `Trellis.openSession`. */
  constructor(session: Session) {
    this.#session = session;
  }

  /** The session id (`trellis resume ID`). */
  get id(): string {
    return this.#session.threadId;
  }

  /** The transcript file, or null when nothing is recorded. */
  get transcriptFile(): string | null {
    return this.#session.transcript.file;
  }

  /** Why a SessionStart hook stopped the session, or null: a stopped session runs no turn. */
  get stoppedBy(): string | null {
    return this.#session.stoppedBy;
  }

  /** The turns so far with the files each changed (#25 item 2), numbered from 1. */
  rewindPoints(): Promise<RewindPoint[]> {
    return this.#session.rewindPoints();
  }

  /**
   * Files back to their state before turn `to`; with `conversation` the history too, so the next
   * turn continues from before it. Files edited since the agent left them are kept unless `force`.
   */
  rewind(to: number, options: Omit<LiveRewindRequest, "to"> = {}): Promise<SessionRewindOutcome> {
    return this.#session.rewind({ to, ...options });
  }

  /** The session's subagents so far, in the order they started (#22 item 6). */
  subagents(): SubagentInfo[] {
    return this.#session.subagents().map((c) => ({
      id: c.id,
      type: c.type,
      description: c.description,
      status: c.status,
      lastAction: c.lastAction,
      usage: {
        inputTokens: c.usage.input_tokens,
        cachedInputTokens: c.usage.cached_input_tokens,
        outputTokens: c.usage.output_tokens,
      },
      transcriptFile: c.transcript,
    }));
  }

  /** Runs one turn of `prompt` to its end: model requests, tool calls, hooks. */
  async runTurn(prompt: string, options: TurnOptions = {}): Promise<TurnOutcome> {
    const result = await this.#session.runTurn({
      prompt,
      maxSteps: options.maxSteps ?? 50,
      signal: options.signal ?? new AbortController().signal,
      skills: options.skills ?? [],
    });
    return {
      status: result.status,
      lastMessage: result.lastMessage,
      usage: tokens(result.usage),
      steps: result.steps,
      ...(result.error ? { error: result.error } : {}),
    };
  }

  /** Waits for background hooks, closes the transcript and stops the MCP servers. */
  async close(): Promise<void> {
    await this.#session.close();
  }
}

function tokens(usage: { inputTokens: number; cachedInputTokens: number; outputTokens: number }): TokenUsage {
  return {
    inputTokens: usage.inputTokens,
    cachedInputTokens: usage.cachedInputTokens,
    outputTokens: usage.outputTokens,
  };
}

function message(d: { level: string; message: string; file?: string }): ConfigMessage {
  const level = d.level === "error" ? "error" : d.level === "warning" ? "warning" : "info";
  return { level, message: d.message, ...(d.file ? { file: d.file } : {}) };
}

/** An approver that asks the embedder's function; a yes approves this call only. */
function approverFor(approve: (question: ApprovalQuestion) => Promise<boolean>): Approver {
  return {
    request: async (request) => {
      const yes = await approve({ callId: request.callId, tool: request.toolName, reason: request.reason });
      return yes
        ? { decision: "approved" as const, by: "user" as const }
        : { decision: "denied" as const, by: "user" as const, reason: "the embedding program said no" };
    },
  };
}
