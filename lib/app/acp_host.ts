import {
  type AcpCommand,
  type AcpHost,
  type AcpMcpServer,
  type AcpOpenRequest,
  type AcpPromptInput,
  type AcpSession,
  type AcpTurnEnd,
  serveAcp,
} from "../acp/mod.ts";
import { APPROVAL_POLICIES, DEFAULT_MODEL, type LoadedConfig } from "../config/mod.ts";
import type { ModelClient, TurnResult } from "../loop/mod.ts";
import { type McpServerConfig, serverConfigFromTable } from "../mcp/mod.ts";
import { type Platform, processWebStdio } from "../platform/mod.ts";
import { describeError, type EventSink, isTrellisError, UsageError } from "../shared/mod.ts";
import { acpApprover } from "./acp_approver.ts";
import { Session } from "./session.ts";

const DEFAULT_MAX_STEPS = 50;

export interface AcpServeAgentOptions {
  platform: Platform;
  version: string;
  /** Config for a session in `cwd`: the command's `-c`/`-p` flags applied (diagnostics to stderr). */
  loadConfig(cwd: string): Promise<LoadedConfig>;
  shutdown: AbortSignal;
  log(line: string): void;
  /** Replaces the model client (benchmarks). */
  model?: ModelClient;
}

const MODE_TEXT: Record<string, { name: string; description: string }> = {
  untrusted: { name: "Untrusted", description: "ask before anything but known-safe read-only commands" },
  "on-request": { name: "On request", description: "ask when a call leaves the sandbox or the workspace" },
  "on-failure": { name: "On failure", description: "run in the sandbox; ask to retry outside when it fails" },
  never: { name: "Never ask", description: "never ask; what the sandbox refuses fails" },
};

/**
 * `trellis acp` (#25 item 1): the ACP front end (lib/acp) over this process's stdio, each of its
 * sessions a Session as the CLI opens one — config, hooks, skills, plugins, MCP alike — with the
 * client's MCP servers beside the configured ones, its files and terminal for the built-in tools,
 * and its permission dialog as the approver.
 */
export async function serveAcpAgent(options: AcpServeAgentOptions): Promise<void> {
  const { input, output } = processWebStdio();
  await serveAcp({
    host: acpHost(options),
    version: options.version,
    input,
    output,
    shutdown: options.shutdown,
    log: options.log,
  });
}

export function acpHost(options: AcpServeAgentOptions): AcpHost {
  return {
    async openSession(request) {
      const info = await options.platform.fs.stat(request.cwd);
      if (!info?.isDirectory) {
        throw new UsageError(`Cannot open a session in "${request.cwd}": not a directory`, { field: "cwd" });
      }
      const loaded = await options.loadConfig(request.cwd);
      return await HostedSession.open(options, loaded, request);
    },
  };
}

/** One ACP session over a Session: prompts as turns, modes as approval policies, commands. */
class HostedSession implements AcpSession {
  private constructor(
    private readonly session: Session,
    private readonly loaded: LoadedConfig,
    private readonly events: EventSink,
  ) {}

  static async open(
    options: AcpServeAgentOptions,
    loaded: LoadedConfig,
    request: AcpOpenRequest,
  ): Promise<HostedSession> {
    const session = await Session.open({
      platform: options.platform,
      loaded,
      events: request.events,
      approver: acpApprover(request.askPermission),
      watchSkills: true,
      editor: request.editor,
      ...(request.mcpServers.length ? { clientMcpServers: request.mcpServers.map(clientServer) } : {}),
      ...(request.resume ? { resume: request.resume } : {}),
      ...(options.model ? { model: options.model } : {}),
    });
    return new HostedSession(session, loaded, request.events);
  }

  get id(): string {
    return this.session.threadId;
  }

  history() {
    return this.session.transcript.items;
  }

  modes() {
    return {
      current: this.session.info().approvalPolicy,
      available: APPROVAL_POLICIES.map((id) => ({ id, ...MODE_TEXT[id] })),
    };
  }

  models() {
    const current = this.session.info().model;
    return { current, available: [...new Set([current, this.loaded.config.model ?? DEFAULT_MODEL])] };
  }

  async commands(): Promise<AcpCommand[]> {
    const skills = await this.session.skills().catch(() => []);
    const prompts = await this.session.mcpPrompts().catch(() => []);
    return [
      { name: "compact", description: "summarize the conversation to free context", hint: "what to keep" },
      {
        name: "rewind",
        description: "list the turns, or put files and the conversation back to before turn N",
        hint: "N [files|conversation] [force]",
      },
      { name: "mcp", description: "the session's MCP servers: state, transport, origin, tools" },
      ...skills.map((s) => ({ name: s.name, description: s.description, hint: "arguments" })),
      ...prompts.map((p) => ({
        name: p.name,
        description: p.description ?? `MCP prompt ${p.name}`,
        hint: "arguments",
      })),
    ];
  }

  async prompt(input: AcpPromptInput, signal: AbortSignal): Promise<AcpTurnEnd> {
    try {
      // SessionStart runs once (the session keeps whether it ran and whether a hook stopped it).
      await this.session.start(signal);
      if (this.session.stoppedBy !== null) return { stopReason: "refusal" };
      const command = /^\/([^\s]+)(?:\s+([\s\S]*))?$/.exec(input.text);
      if (command?.[1] === "compact") {
        const outcome = await this.session.compact({
          signal,
          ...(command[2] ? { instructions: command[2] } : {}),
        });
        if (outcome.status === "failed") {
          return {
            stopReason: "failed",
            message: outcome.error?.message ?? "compaction failed",
            code: "compact",
          };
        }
        return { stopReason: "end_turn" };
      }
      if (command?.[1] === "rewind") {
        this.say(await this.rewind(command[2] ?? ""));
        return { stopReason: "end_turn" };
      }
      if (command?.[1] === "mcp" && !command[2]) {
        this.say(mcpListing(this.session));
        return { stopReason: "end_turn" };
      }
      // `/skill args`, `/plugin:command args`, `/mcp__server__prompt args`: what `$name` is in a prompt.
      const prompt = command ? `$${command[1]}${command[2] ? ` ${command[2]}` : ""}` : input.text;
      const result = await this.session.runTurn({
        prompt,
        maxSteps: this.loaded.config.max_steps ?? DEFAULT_MAX_STEPS,
        signal,
        attachments: input.files.map((f) => ({ path: f.path, content: f.content, kind: "text" as const })),
        ...(input.images.length ? { images: input.images } : {}),
      });
      return turnEnd(result, signal);
    } catch (error) {
      if (signal.aborted) return { stopReason: "cancelled" };
      return {
        stopReason: "failed",
        message: describeError(error),
        code: isTrellisError(error) ? error.code : "internal",
      };
    }
  }

  /**
   * `/rewind` (#25 item 2, the ACP equivalent of the interactive mode's): bare, the turns with what
   * each changed; `/rewind N` puts files and the conversation back to before turn N, `files` or
   * `conversation` only one of them, `force` also files edited since. The answer says what was put
   * back, what was kept, and the shell commands it could not undo. A mistake is said, not thrown.
   */
  private async rewind(args: string): Promise<string> {
    const words = args.trim().split(/\s+/).filter((w) => w.length > 0);
    const points = await this.session.rewindPoints();
    if (words.length === 0) {
      if (points.length === 0) return "Nothing to rewind: this session has no turns yet.";
      return points.toReversed().map((p) =>
        `${p.turn}. ${
          p.prompt || "(no prompt)"
        } — ${p.files.length} file(s), ${p.shellCommands.length} shell command(s)`
      ).join("\n");
    }
    const to = Number(words[0]);
    const unknown = words.slice(1).filter((w) => !["files", "conversation", "force"].includes(w));
    if (
      !Number.isInteger(to) || unknown.length > 0 ||
      (words.includes("files") && words.includes("conversation"))
    ) {
      return "Usage: /rewind [N [files|conversation] [force]]";
    }
    try {
      const outcome = await this.session.rewind({
        to,
        files: !words.includes("conversation"),
        conversation: !words.includes("files"),
        force: words.includes("force"),
      });
      const lines = [`Rewound to before turn ${to}.`];
      if (outcome.restored.length) lines.push(`Put back: ${outcome.restored.join(", ")}`);
      for (const kept of outcome.kept) {
        lines.push(`Kept ${kept}: it was edited since the agent left it (add force)`);
      }
      for (const failed of outcome.failed) lines.push(`Not put back ${failed.path}: ${failed.reason}`);
      for (const c of outcome.shellCommands) {
        lines.push(`Not restorable (shell, turn ${c.turn}): ${c.command}`);
      }
      if (outcome.conversation) lines.push("The conversation continues from before that turn.");
      return lines.join("\n");
    } catch (error) {
      return `Cannot rewind: ${describeError(error)}`;
    }
  }

  /** A message of Trellis's own (a command's answer), shown as the agent's. */
  private say(text: string): void {
    this.events({
      type: "item.completed",
      item: { id: `acp-${crypto.randomUUID()}`, type: "agent_message", text },
    });
  }

  setMode(id: string): void {
    this.session.setApprovalPolicy(id);
  }

  setModel(id: string): void {
    this.session.setModel(id);
  }

  async close(): Promise<void> {
    await this.session.close();
  }
}

/** `/mcp`: each server with its state, transport, origin (`acp`: the client's) and tool count. */
function mcpListing(session: Session): string {
  const servers = session.mcpServers();
  if (servers.length === 0) return "No MCP servers in this session.";
  return servers.map((s) =>
    `${s.name}: ${s.state}${s.error ? ` (${s.error})` : ""}, ${s.transport}, origin ${s.origin}, ` +
    `${s.offered}/${s.tools} tools offered`
  ).join("\n");
}

function turnEnd(result: TurnResult, signal: AbortSignal): AcpTurnEnd {
  switch (result.status) {
    case "completed":
      return { stopReason: "end_turn" };
    case "aborted":
      return { stopReason: "cancelled" };
    case "max_steps":
      return { stopReason: "max_turn_requests" };
    case "blocked":
    case "stopped":
      return { stopReason: signal.aborted ? "cancelled" : "refusal" };
    case "failed":
      return {
        stopReason: "failed",
        message: result.error?.message ?? "the turn failed",
        code: result.error?.code ?? "internal",
      };
  }
}

/** A client's server as a `[mcp_servers.X]` table would give it: the same defaults and checks. */
function clientServer(server: AcpMcpServer): McpServerConfig {
  if (server.transport === "stdio") {
    return serverConfigFromTable(server.name, {
      command: server.command,
      args: server.args,
      env: server.env,
    });
  }
  return serverConfigFromTable(server.name, { url: server.url, http_headers: server.headers });
}
