import * as path from "node:path";
import {
  DEFAULT_TOOL_SET,
  type ProjectInstructions,
  SessionSettings,
  userProtectedPaths,
} from "../config/mod.ts";
import {
  agentNote,
  approvalRequest,
  type Approver,
  approves,
  historyLines,
  type ModelClient,
  rebuildHistory,
  runTurn,
  type Transcript,
  TranscriptStore,
  type TurnResult,
} from "../loop/mod.ts";
import type { McpPromptListing, McpServerOverview } from "../mcp/mod.ts";
import { detectSandbox, type FileSystem, removeLeftoverPlaceholders } from "../platform/mod.ts";
import type {
  ConversationItem,
  EventSink,
  HookTurnContext,
  ModelRequest,
  PromptExpansion,
  TrellisEventBody,
  Usage,
} from "../shared/mod.ts";
import { type HookEngine, loadScopedHooks, permissionRules, reviewNotice } from "../hooks/mod.ts";
import type { SkillMetadata } from "../skills/mod.ts";
import { emptyUsage, noLifecycleHooks, TrellisError, UsageError } from "../shared/mod.ts";
import {
  DEFAULT_EVERYDAY_SETTINGS,
  resolvePermissionProfile,
  SessionToolSets,
  type ToolSetChoice,
} from "../tools/mod.ts";
import { openTelemetry, type Telemetry } from "../telemetry/mod.ts";
import { everydayToolOptions, hostedTools, withHostedTools, withOutputSchema } from "./everyday_wiring.ts";
import { promptImageMessages } from "./prompt_images.ts";
import {
  type AttentionHooks,
  hookedElicitation,
  IDLE_PROMPT_MS,
  notify,
  notifyingQuestioner,
} from "./attention_hooks.ts";
import { withTodoListItems } from "./todo_list_events.ts";
import { BASE_INSTRUCTIONS } from "./base_instructions.ts";
import { Capabilities } from "./capabilities.ts";
import { resolveContextWindow } from "./context_window.ts";
import { fireInstructionsLoaded, hookEngineFor, wireHooks } from "./hooks_wiring.ts";
import { WorkspaceLoads } from "./workspace_loads.ts";
import { McpHolder } from "./mcp_wiring.ts";
import { reportDiagnostics } from "./diagnostics.ts";
import { SessionCompaction } from "./session_compaction.ts";
import { prepareTurnContext } from "./turn_context.ts";
import { attachmentMessage, imageMessage } from "./attachments.ts";
import { meterUsage } from "./usage_meter.ts";
import { Subagents } from "./subagents.ts";
import { SubagentBoard, type SubagentStatus } from "./subagent_board.ts";
import { prepareChild } from "./agent_child.ts";
import { forkSkills } from "./skill_forks.ts";
import { askModel, elicitationFor, modelFor, openTranscript } from "./session_setup.ts";
import type {
  CompactOutcome,
  CompactRequest,
  LiveRewindRequest,
  SessionInfo,
  SessionOptions,
  SessionParts,
  TurnRequest,
} from "./session_types.ts";
export type {
  CompactOutcome,
  CompactRequest,
  LiveRewindRequest,
  SessionInfo,
  SessionOptions,
  TurnRequest,
} from "./session_types.ts";

import { agentLimits } from "../agents/mod.ts";
import type { InputPlace, RequestParts } from "./request_parts.ts";
import { openCheckpoints } from "./checkpoint_wiring.ts";
import { attributedElicitation, McpCallers } from "./agent_attribution.ts";
import { type RewindPoint, rewindPoints, rewindSession, type SessionRewindOutcome } from "./rewind.ts";
import { commandInjectionRunner } from "./command_injections.ts";

/** A promise made at its first call and shared by every later one. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => made ??= make();
}

/** The version on exported telemetry (the CLI's own, lib/cli/version.ts, which app cannot import). */
const TELEMETRY_VERSION = "0.1.0";

/** Each open session's `[otel]` export, when configured. */
const sessionTelemetry = new WeakMap<Session, Telemetry>();

/**
 * A thread: configuration and identity frozen at start, a transcript, the capability owners, and
 * one turn at a time. `Session.open` is the composition root; the CLI only drives what it builds.
 */
export class Session {
  /** The context's size across turns, and its compactions (#15 item 6). */
  private readonly compaction: SessionCompaction;
  /** A turn or a compaction is running: the history is theirs until it ends. */
  private busy = false;
  /** The tool set of the last request, to say when `/model` changes it. */
  private lastToolSet: ToolSetChoice["face"] | undefined;
  // Turn ids count turns (t1, t2, …), carried over a resume from the transcript's turn lines; never
  // the user messages, which skill bodies and Stop-hook prompts add to (#16).
  private turnsStarted: number;
  /** The running turn's id ("" between turns): what an elicitation's or a question's hooks see. */
  private currentTurn = "";
  private attention?: AttentionHooks & { pending: Set<Promise<void>> };
  private board = new SubagentBoard();
  private idleTimer?: ReturnType<typeof setTimeout>;

  private constructor(private readonly options: SessionOptions, private readonly parts: SessionParts) {
    this.turnsStarted = parts.transcript.recordedTurns;
    this.compaction = new SessionCompaction(options.loaded.config, {
      ...parts,
      modelName: () => parts.settings.model,
      events: options.events,
      hookContext: () => this.hookContext(),
    });
  }

  get threadId(): string {
    return this.parts.threadId;
  }

  /** The session's subagents so far, running and done (#22 item 6): what every front end shows. */
  subagents(): SubagentStatus[] {
    return this.board.list();
  }

  /**
   * A subagent's conversation as its transcript holds it now (the interactive mode opens it, #22
   * item 6): read only — a running child's file is never touched — or null when it has none.
   */
  async subagentConversation(id: string): Promise<ConversationItem[] | null> {
    const file = this.board.list().find((c) => c.id === id)?.transcript;
    if (!file) return null;
    const text = await this.options.platform.fs.readTextFile(file).catch(() => null);
    return text === null ? null : rebuildHistory(historyLines(text).lines).items;
  }

  /** Each agent type's system prompt, for counting a child's context (#22 item 6). */
  async agentInstructions(): Promise<(agentType: string) => string | undefined> {
    const agents = await this.parts.subagents?.definitions() ?? [];
    return (type) => agents.find((a) => a.name === type)?.prompt;
  }

  /** Where this session's transcripts, and its subagents' (`<thread>-agentN.jsonl`), are written. */
  get transcriptFolder(): { fs: FileSystem; dir: string } {
    return { fs: this.options.platform.fs, dir: path.join(this.options.loaded.paths.home, "sessions") };
  }

  get transcript(): Transcript {
    return this.parts.transcript;
  }

  static async open(given: SessionOptions): Promise<Session> {
    // Hooks that fire when a person is needed (#24 item 1) reach the session once it is built.
    let built: Session | undefined;
    const attention: AttentionHooks = {
      hooks: () => built?.parts.hooks,
      context: () => built!.momentContext(),
    };
    const pending = new Set<Promise<void>>();
    const agentDone = (event: TrellisEventBody) => {
      if (event.type !== "agent.completed" || !built) return;
      const done = notify(
        attention,
        "agent_completed",
        `Agent ${event.agent_type} ${event.status}`,
        "Agent done",
      );
      pending.add(done);
      void done.then(() => pending.delete(done));
    };
    // The plan tools' updates reach every consumer as Codex's todo_list item (#23 item 3).
    // `[otel]` (#25 item 4): null, and no SDK loaded, unless an exporter is configured.
    const config = given.loaded.config;
    const env = given.platform.env;
    const telemetry = await openTelemetry(config.otel, {
      serviceVersion: TELEMETRY_VERSION,
      model: config.model ?? "",
      ...(config.model_provider ? { provider: config.model_provider } : {}),
      ...(config.approval_policy ? { approvalPolicy: config.approval_policy } : {}),
      ...(config.sandbox_mode ? { sandboxMode: config.sandbox_mode } : {}),
      ...(config.model_reasoning_effort ? { reasoningEffort: config.model_reasoning_effort } : {}),
      terminalType: env("TERM_PROGRAM") ?? env("TERM") ?? "unknown",
      readFile: (file) => given.platform.fs.sync.readTextFile(file),
      warn: (message) => given.events({ type: "warning", message }),
    });
    const todo = withTodoListItems(given.events);
    const board = new SubagentBoard();
    const sink: EventSink = (event) => {
      board.observe(event);
      todo(event);
      agentDone(event);
    };
    const options: SessionOptions = {
      ...given,
      events: telemetry ? telemetry.events(sink) : sink,
      ...(given.questioner ? { questioner: notifyingQuestioner(given.questioner, attention) } : {}),
    };
    const { platform, loaded, events } = options;
    const base = telemetry ? telemetry.model(modelFor(options)) : modelFor(options);
    const meter = meterUsage(
      withOutputSchema(withHostedTools(base, hostedTools(loaded.config)), options.outputSchema),
    );
    const model = meter.model;
    // The thread exists first, so its start precedes the MCP start-up events in the stream.
    const transcript = await openTranscript(options);
    if (!options.preview) {
      events({ type: "thread.started", thread_id: transcript.meta.id, resumed: Boolean(options.resume) });
      reportDiagnostics(events, loaded.startWarnings ?? []);
    }
    // Built once: the tools, the loop, MCP and the hooks all read this object at call time.
    const settings = SessionSettings.fromConfig(loaded);
    const loads = options.loads ?? new WorkspaceLoads(platform, loaded);
    const callers = new McpCallers();
    const mcp = new McpHolder({
      catalogWith: (pluginServers) => loads.catalogWith(pluginServers, options.clientMcpServers),
      platform,
      loaded,
      events,
      elicitation: attributedElicitation(hookedElicitation(elicitationFor(options), attention), callers),
      model,
      approver: options.approver,
      preview: options.preview,
      settings,
    });
    try {
      built = await Session.build(options, {
        transcript,
        model,
        mcp,
        settings,
        loads,
        lastUsage: meter.last,
        callers,
      });
      built.attention = { ...attention, pending };
      built.board = board;
      if (telemetry) sessionTelemetry.set(built, telemetry);
      return built;
    } catch (error) {
      await telemetry?.shutdown();
      // A session that fails to open (a required MCP server down) leaves nothing running: a
      // long-lived process (`mcp-server`) opens many (#17 item 4).
      await mcp.shutdown().catch(() => {});
      await transcript.close().catch(() => {});
      throw error;
    }
  }

  private static async build(
    options: SessionOptions,
    { transcript, model, mcp, settings, loads, lastUsage, callers }: {
      transcript: Transcript;
      model: ModelClient;
      mcp: McpHolder;
      settings: SessionSettings;
      loads: WorkspaceLoads;
      lastUsage: () => Usage | null;
      callers: McpCallers;
    },
  ): Promise<Session> {
    const { platform, loaded, events } = options;
    const config = loaded.config;
    // Placeholders a killed earlier run left in a workspace (an empty `sub/.git` breaks git there).
    removeLeftoverPlaceholders(loaded.paths.home);
    const [sandbox, capabilities] = await Promise.all([
      detectSandbox(platform, { cacheFile: path.join(loaded.paths.home, "cache", "sandbox.json") }),
      Capabilities.load({ platform, loaded, events, mcp, loads }),
    ]);
    const { snapshot } = await capabilities.skillsSnapshot();
    const profile = await resolvePermissionProfile(config, settings.cwd, {
      fs: platform.fs,
      tempDir: platform.tempDir(),
      canonicalReadableRoots: snapshot.readableRoots(),
      trellisHome: loaded.paths.home,
      userHome: loaded.paths.userHome,
      protectedPaths: userProtectedPaths(loaded.paths),
      settings,
    });
    if (!sandbox.available && settings.sandboxed) {
      events({ type: "sandbox.unavailable", reason: sandbox.reason });
    }
    const checkpoints = options.preview ? null : await openCheckpoints({
      platform,
      config,
      home: loaded.paths.home,
      sessionId: transcript.meta.id,
      profile,
    });
    let outputDir: Promise<string> | undefined;
    const toolSets = new SessionToolSets({
      platform,
      profile,
      sandbox,
      ...(checkpoints ? { changes: checkpoints } : {}),
      ...(config.tool_output_max_bytes ? { outputMaxBytes: config.tool_output_max_bytes } : {}),
      ...everydayToolOptions(config, options.questioner),
      ...(options.editor ? { editor: options.editor } : {}),
      toolSet: config.tool_set ?? DEFAULT_TOOL_SET,
      toolSetIsDefault: config.tool_set === undefined,
      outputDir: () => outputDir ??= platform.fs.makeTempDir("trellis-bash-"),
    });
    const hookWiring: Parameters<typeof wireHooks>[0] = {
      platform,
      loaded,
      events,
      loadedHooks: await loads.hooks(),
      sandbox,
      profile,
      threadId: transcript.meta.id,
      scopedHooks: snapshot.enabledSkills().some((s) => s.extra.hooks !== undefined),
      services: {
        // A prompt hook is one model request (#24 item 2): no tools, nothing recorded.
        ask: (request) => askModel(model, request.model ?? settings.model, request),
        callMcpTool: (request) => mcp.callToolForHook(request, settings.cwd),
        runAgent: (request) => session!.parts.subagents!.answerForHook(request),
      },
    };
    const hooks = options.preview ? noLifecycleHooks : wireHooks(hookWiring);
    const rules = loads.permissionRules();
    if (!options.preview) reportDiagnostics(events, rules.diagnostics);
    const active = rules.entries.some((e) => e.rule !== undefined);
    const instructions = config.instructions
      ? `${options.baseInstructions ?? BASE_INSTRUCTIONS}\n\n${config.instructions}`
      : options.baseInstructions ?? BASE_INSTRUCTIONS;
    // Late-bound: the engine reads the session's settings and hook context at each spawn.
    let session: Session | undefined = undefined;
    // A child's approval fires Notification permission_prompt as the parent's do (#24 item 1).
    const childApprover: Approver = { request: (request) => session!.notifyingApprover().request(request) };
    const warnedTools = new Set<string>();
    const subagents = new Subagents({
      model,
      modelName: () => settings.model,
      // Seam for agents.tool_style (wt/agentsx): a subagent gets the face of the session's model now.
      captureTools: () => capabilities.captureStep(toolSets.toolsFor(settings.model).tools),
      hooks,
      hookContext: () => session!.hookContext(),
      approver: childApprover,
      approvalPolicy: () => settings.approvalPolicy,
      sandboxed: () => settings.sandboxed,
      events,
      cwd: settings.cwd,
      threadId: transcript.meta.id,
      store: new TranscriptStore(platform.fs, path.join(loaded.paths.home, "sessions")),
      ephemeral: Boolean(options.preview),
      // Read at the first step offering the Agent tool, never at start (#22 figure); notes then.
      agents: once(async () => {
        const agentLoad = await loads.agents();
        if (!options.preview) reportDiagnostics(events, agentLoad.diagnostics);
        return agentLoad.agents;
      }),
      limits: agentLimits(config),
      callers,
      history: () => transcript.items,
      ...(config.agents?.tool_style ? { toolStyle: config.agents.tool_style } : {}),
      prepare: (definition, agentId) =>
        prepareChild(
          {
            loaded,
            fs: platform.fs,
            env: platform.env,
            events,
            approver: childApprover,
            approvalPolicy: () => settings.approvalPolicy,
            modelName: () => settings.model,
            skills: async () => (await capabilities.skillsSnapshot()).snapshot,
            mcp: capabilities.mcp,
            hooks: "addScopedHooks" in hooks ? hooks as HookEngine : null,
            engineFor: hookEngineFor(hookWiring),
            warnedTools,
          },
          definition,
          agentId,
        ),
    });
    session = new Session(options, {
      threadId: transcript.meta.id,
      transcript,
      model,
      settings,
      sandbox,
      instructions,
      toolSets,
      hooks,
      ...(active ? { permissions: permissionRules(rules.entries, loaded.paths.userHome) } : {}),
      capabilities,
      subagents,
      stopWatching: options.watchSkills && !options.preview
        ? capabilities.watchSkills((paths) => session!.judgeSkillsChange(paths))
        : () => {},
      lastUsage,
      checkpoints,
      callers,
    });
    await capabilities.prepareInstallTool((request) => session.confirmInstall(request));
    return session;
  }

  /**
   * SessionStart hooks (HK-12), run once: their contexts are recorded before the first turn. A
   * front end may call it early (to show the hooks' output before the first prompt); `runTurn`
   * calls it otherwise. A hook's "stop" is handled here, once, for every front end (#26 item 2):
   * one notice names the reason, and every turn of the stopped session ends `stopped` unrun.
   */
  start(signal: AbortSignal): Promise<{ stop?: { reason: string } }> {
    this.#started ??= this.#runSessionStart(signal);
    return this.#started;
  }

  /** Why a SessionStart hook stopped the session, or null (also before `start`). */
  get stoppedBy(): string | null {
    return this.#stoppedBy;
  }

  #started: Promise<{ stop?: { reason: string } }> | undefined;
  #stoppedBy: string | null = null;

  async #runSessionStart(signal: AbortSignal): Promise<{ stop?: { reason: string } }> {
    const ctx = { ...this.hookContext(), turnId: "", signal };
    const fire = this.parts.hooks.fire;
    // A thread resumed in another directory than it ran in: CwdChanged (#24 item 1).
    const before = this.transcript.meta.cwd;
    if (fire && this.options.resume && before && before !== ctx.cwd) {
      await fire(ctx, "CwdChanged", { old_cwd: before, new_cwd: ctx.cwd }).catch(() => {});
    }
    const outcome = await this.parts.hooks.sessionStart(ctx, {
      source: this.options.resume ? "resume" : "startup",
    });
    for (const content of outcome.additionalContexts) {
      await this.compaction.recordItem({ type: "message", role: "developer", content });
    }
    // Only when a handler is for it: gathering the files reads each of them (done later otherwise).
    if (fire && this.parts.hooks.handles?.("InstructionsLoaded") !== false) {
      await fireInstructionsLoaded(fire, ctx, await this.projectInstructions());
    }
    if (!outcome.stop) return {};
    this.#stoppedBy = outcome.stop.reason;
    this.options.events({
      type: "notice",
      message: `SessionStart hook stopped the session: ${outcome.stop.reason}`,
    });
    return { stop: outcome.stop };
  }

  /**
   * ConfigChange (#24 item 1, source `skills`) for an edit of the skill roots: true when a hook
   * blocked it, and the session keeps the skills it had.
   */
  private async judgeSkillsChange(paths: string[]): Promise<boolean> {
    const fire = this.parts.hooks.fire;
    if (!fire) return false;
    const ctx = { ...this.momentContext(), turnId: "" };
    for (const file of paths) {
      const outcome = await fire(ctx, "ConfigChange", { source: "skills", file_path: file }).catch(() =>
        null
      );
      if (outcome?.block) {
        this.options.events({
          type: "warning",
          message:
            `ConfigChange hook blocked the change of ${file}: ${outcome.block.reason} (the skills stay as they were)`,
          subject: file,
        });
        return true;
      }
    }
    return false;
  }

  /** The AGENTS.md / CLAUDE.md files this session sends, with their sources and warnings. */
  projectInstructions(): Promise<ProjectInstructions> {
    return this.parts.capabilities.projectInstructions();
  }

  /** The session's MCP servers: state, transport, origin, tool count and pin state (`/mcp`). */
  mcpServers(): McpServerOverview[] {
    return this.parts.capabilities.mcp.serverOverview();
  }

  /** The MCP prompts of the ready servers (an interactive mode offers them as `/mcp__server__prompt`). */
  mcpPrompts(): Promise<McpPromptListing[]> {
    return this.parts.capabilities.mcp.listPrompts();
  }

  /** One MCP prompt (`mcp__server__prompt` name, then its arguments' text) as conversation items. */
  expandMcpPrompt(name: string, argsText: string): Promise<ConversationItem[]> {
    return this.parts.capabilities.mcp.expandPrompt(name, argsText);
  }

  /**
   * The provider's exact count of `request`'s input tokens (Anthropic's count_tokens), or undefined
   * when the provider's wire has no such endpoint.
   */
  countRequestTokens(request: ModelRequest, signal: AbortSignal): Promise<number> | undefined {
    return this.parts.model.countTokens?.(request, signal);
  }

  /** The request the first sampling of a turn would send, without calling the model. */
  async previewRequest(prompt: string, skills: string[] = []): Promise<ModelRequest> {
    return (await this.previewRequestParts(prompt, skills)).request;
  }

  /**
   * The same request with where each part came from — each tool's source, each input item's place
   * (history, preamble, prompt, injected) — for the context ledger (#17 item 3): one assembly, so
   * `debug prompt` and `debug context` can never disagree.
   */
  async previewRequestParts(prompt: string, skills: string[] = []): Promise<RequestParts> {
    const context = await this.turnContext(prompt, skills);
    const step = await this.captureTools();
    step.release();
    const placed: [ConversationItem, InputPlace][] = [
      ...this.transcript.items.map((item) => [item, "history"] as [ConversationItem, InputPlace]),
      ...context.preamble.map((item) => [item, "preamble"] as [ConversationItem, InputPlace]),
      [{ type: "message", role: "user", content: prompt }, "prompt"],
      ...context.expansions.flatMap((x) => x.items).map((item) =>
        [item, "injected"] as [ConversationItem, InputPlace]
      ),
      ...context.injected.map((item) => [item, "injected"] as [ConversationItem, InputPlace]),
    ];
    return {
      request: {
        model: this.parts.settings.model,
        // As the turn sends it: the servers' instructions end the step's instructions (#21 item 13).
        instructions: step.instructions
          ? `${this.parts.instructions}\n\n${step.instructions}`
          : this.parts.instructions,
        input: placed.map(([item]) => item),
        tools: step.tools.map((t) => ({
          name: t.name,
          description: t.description,
          parameters: t.parameters,
        })),
        parallelToolCalls: true,
        ...(hostedTools(this.options.loaded.config).webSearch
          ? { hostedTools: hostedTools(this.options.loaded.config) }
          : {}),
      },
      baseInstructions: this.options.baseInstructions ?? BASE_INSTRUCTIONS,
      toolSources: step.tools.map((t) => t.source),
      inputPlaces: placed.map(([, place]) => place),
      mcpServers: this.parts.capabilities.mcp.configuredServerNames(),
      mcpInstructions: step.instructions ?? "",
      mcpInstructionServers: step.mcpInstructions.map((i) => i.server),
      projectInstructions: await this.projectInstructions(),
    };
  }

  async runTurn(request: TurnRequest): Promise<TurnResult> {
    if (this.busy) {
      throw new TrellisError("internal", "Session.runTurn() called while a turn or a compaction is running", {
        field: "busy",
      });
    }
    this.busy = true;
    try {
      await this.start(request.signal);
      if (this.#stoppedBy !== null) {
        return { status: "stopped", lastMessage: null, usage: emptyUsage(), steps: 0 };
      }
      return await this.runTurnNow(request);
    } finally {
      this.busy = false;
    }
  }

  /**
   * Compacts the conversation now (`/compact`): a summary request to the session's model, then the
   * history replaced by the recent user messages and the summary, recorded in the transcript so a
   * resume continues from the same context. A failure leaves the history as it was.
   */
  async compact(request: CompactRequest): Promise<CompactOutcome> {
    const tokens = this.compaction.tokens();
    if (this.busy) {
      const error = { message: "a turn or a compaction is running", code: "busy" };
      return { status: "skipped", tokensBefore: tokens, tokensAfter: tokens, error };
    }
    this.busy = true;
    try {
      const result = await this.compaction.compact({
        trigger: request.trigger ?? "manual",
        signal: request.signal,
        ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
      });
      return {
        status: result.status,
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        ...(result.summary !== undefined ? { summary: result.summary } : {}),
        ...(result.error ? { error: result.error } : {}),
      };
    } finally {
      this.busy = false;
    }
  }

  /**
   * How full the model's context is: for a status line, `/status`, `/context` and the automatic
   * threshold — the one window they all use (`windowAssumed`: nobody stated it, the default stands).
   */
  context(): {
    tokens: number;
    autoCompactTokenLimit: number | null;
    contextWindow: number;
    windowAssumed: boolean;
  } {
    return this.compaction.context();
  }

  private async runTurnNow(request: TurnRequest): Promise<TurnResult> {
    this.stopIdleWait();
    const turnId = `${this.threadId}-t${++this.turnsStarted}`;
    this.parts.checkpoints?.beginTurn(this.turnsStarted);
    this.currentTurn = turnId;
    try {
      return await this.runTurnIn(turnId, request);
    } finally {
      this.currentTurn = "";
    }
  }

  /**
   * The prompt waits for the person (an interactive mode calls this as it shows the prompt): after
   * Claude Code's 60 s without a new turn, Notification `idle_prompt` fires once (#24 item 1).
   */
  waitingForInput(delayMs = IDLE_PROMPT_MS): void {
    this.stopIdleWait();
    if (!this.attention || !this.parts.hooks.fire) return;
    const attention = this.attention;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      const idle = notify(attention, "idle_prompt", "Trellis is waiting for your input", "Waiting for input");
      attention.pending.add(idle);
      void idle.then(() => attention.pending.delete(idle));
    }, delayMs);
  }

  private stopIdleWait(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** The hook context of this moment: the running turn's id, or "" between turns. */
  private momentContext(): HookTurnContext {
    return { ...this.hookContext(), turnId: this.currentTurn, signal: new AbortController().signal };
  }

  private async runTurnIn(turnId: string, request: TurnRequest): Promise<TurnResult> {
    await this.compaction.beforeTurn(turnId, request.prompt, request.signal);
    const context = await this.turnContext(request.prompt, request.skills ?? [], request.signal);
    // The selected skills' and commands' frontmatter `hooks:` run for this turn only (#24 item 2).
    const release = this.activateScopedHooks(context.selected);
    try {
      return await this.runTurnWith(turnId, request, context);
    } finally {
      release();
    }
  }

  /**
   * The turn's skill and command expansions with each `context: fork` one run in a subagent, its
   * answer in the skill's place (#22 item 5); MCP prompts pass through.
   */
  private async forkedExpansions(
    context: Awaited<ReturnType<Session["turnContext"]>>,
    signal: AbortSignal,
  ): Promise<PromptExpansion[]> {
    const subagents = this.parts.subagents;
    if (!subagents) return context.expansions;
    return await Promise.all(
      context.expansions.map(async (expansion) =>
        expansion.expansionType === "mcp_prompt" ? expansion : {
          ...expansion,
          items: await forkSkills(expansion.items, context.selected, {
            fs: this.options.platform.fs,
            fork: (r) => subagents.forkForSkill(r),
            signal,
            events: this.options.events,
          }),
        }
      ),
    );
  }

  /** Judges each skill's frontmatter hooks as a file's (trust by hash) and adds the runnable ones. */
  private activateScopedHooks(skills: SkillMetadata[]): () => void {
    const engine = this.parts.hooks as Partial<HookEngine>;
    const declaring = skills.filter((s) => s.extra.hooks !== undefined);
    if (!engine.addScopedHooks || declaring.length === 0) return () => {};
    const handlers = declaring.flatMap((skill) => {
      const scoped = loadScopedHooks({
        loaded: this.options.loaded,
        source: {
          kind: skill.command ? "command" : "skill",
          name: skill.name,
          path: skill.path,
          hooks: skill.extra.hooks,
        },
      });
      reportDiagnostics(this.options.events, scoped.diagnostics);
      const notice = reviewNotice(scoped.needsReview);
      if (notice) this.options.events({ type: "notice", message: `${skill.name}: ${notice}` });
      return scoped.handlers;
    });
    return handlers.length > 0 ? engine.addScopedHooks(handlers) : () => {};
  }

  private async runTurnWith(
    turnId: string,
    request: TurnRequest,
    context: Awaited<ReturnType<Session["turnContext"]>>,
  ): Promise<TurnResult> {
    const { events } = this.options;
    sessionTelemetry.get(this)?.prompt(request.prompt);
    const result = await runTurn({
      turnId,
      model: this.parts.model,
      modelName: this.parts.settings.model,
      instructions: this.parts.instructions,
      history: [...this.transcript.items],
      prompt: request.prompt,
      preamble: context.preamble,
      expansions: await this.forkedExpansions(context, request.signal),
      injected: [
        ...context.injected,
        ...(request.attachments ?? []).filter((a) => a.kind !== "image").map(attachmentMessage),
        ...await promptImageMessages(request.prompt, request.attachments ?? [], {
          fs: this.options.platform.fs,
          cwd: this.parts.settings.cwd,
          home: this.options.loaded.paths.userHome,
          maxBytes: DEFAULT_EVERYDAY_SETTINGS.imageMaxBytes,
          events,
        }),
        ...(request.images ?? []).map(imageMessage),
      ],
      captureTools: () => this.captureTools(),
      hooks: this.parts.hooks,
      hookContext: () => this.hookContext(),
      approver: this.notifyingApprover(),
      ...(this.parts.permissions ? { permissions: this.parts.permissions } : {}),
      // Read at each call: `/approvals` and `/sandbox` during a turn apply to its next call.
      approvalPolicy: () => this.parts.settings.approvalPolicy,
      sandboxed: () => this.parts.settings.sandboxed,
      events,
      record: (item) => this.transcript.recordItem(item),
      maxSteps: request.maxSteps,
      signal: request.signal,
      cwd: this.parts.settings.cwd,
      onCall: context.onCall,
      compaction: this.compaction.forTurn(),
      ...(this.parts.subagents ? { inbox: this.parts.subagents.inbox() } : {}),
    });
    await this.transcript.recordTurn(turnId, result.status, result.usage);
    return result;
  }

  /**
   * The approver, firing Notification `permission_prompt` (#24 item 1) as each approval is asked,
   * before the answer: a notification hook tells a person away from the terminal.
   */
  private notifyingApprover(): Approver {
    const { hooks } = this.parts;
    const approver = this.options.approver;
    if (!hooks.fire) return approver;
    const at: AttentionHooks = {
      hooks: () => hooks,
      context: () => ({ ...this.momentContext(), turnId: "" }),
    };
    return {
      request: async (request) => {
        await notify(
          at,
          "permission_prompt",
          `Trellis needs your permission to use ${request.toolName}${agentNote(request)}`,
          "Permission needed",
          request.agent,
        );
        return await approver.request(request);
      },
    };
  }

  /** This session's turns with what each changed (`/rewind`'s list); none before the first turn. */
  async rewindPoints(): Promise<RewindPoint[]> {
    if (!this.transcript.file || this.transcript.unwritten) return [];
    return await rewindPoints(this.options.platform.fs, this.options.loaded.paths.home, this.threadId);
  }

  /**
   * `/rewind` (and the ACP front end's): files back to their state before turn `to`, and with
   * `conversation` the history too — the next turn is turn `to` again, continuing from before it.
   * Refused while a turn runs.
   */
  async rewind(request: LiveRewindRequest): Promise<SessionRewindOutcome> {
    if (this.busy) {
      throw new UsageError("Cannot rewind while a turn or a compaction is running", { field: "busy" });
    }
    if (!this.transcript.file || this.transcript.unwritten) {
      throw new UsageError("Cannot rewind: this session has no turns yet", { field: "to" });
    }
    this.busy = true;
    try {
      // The transcript is replaced by rename when the conversation is cut: its handle must not outlive it.
      if (request.conversation && !request.dryRun) await this.transcript.close();
      const outcome = await rewindSession({
        fs: this.options.platform.fs,
        home: this.options.loaded.paths.home,
        sessionId: this.threadId,
        ...request,
      });
      if (outcome.conversation && !outcome.dryRun) {
        const reopened = await new TranscriptStore(
          this.options.platform.fs,
          path.join(this.options.loaded.paths.home, "sessions"),
        ).open(this.threadId);
        await reopened.close();
        this.transcript.items.splice(0, this.transcript.items.length, ...reopened.items);
        this.turnsStarted = request.to - 1;
        // The history was replaced: the model's last report no longer describes it (estimate again).
        this.compaction.meter.reset();
      }
      return outcome;
    } finally {
      this.busy = false;
    }
  }

  /** Model, provider, sandbox, approvals and where the transcript is: what `/status` shows. */
  info(): SessionInfo {
    const { settings } = this.parts;
    const contextWindow = this.contextWindow();
    return {
      threadId: this.threadId,
      transcriptFile: this.transcript.file,
      cwd: settings.cwd,
      model: settings.model,
      provider: settings.provider,
      sandboxMode: settings.sandboxMode,
      approvalPolicy: settings.approvalPolicy,
      ...(contextWindow ? { contextWindow } : {}),
    };
  }

  /** Tokens the last model request filled (its input plus output), null before the first one. */
  contextTokens(): number | null {
    const usage = this.parts.lastUsage();
    return usage ? usage.inputTokens + usage.outputTokens : null;
  }

  /** The enabled skills, for `/skills`, `$name` completion and plugin commands (`/plugin:command`). */
  async skills(): Promise<{ name: string; description: string; scope: string; path: string }[]> {
    const { snapshot } = await this.parts.capabilities.skillsSnapshot();
    return snapshot.enabledSkills().map((s) => ({
      name: s.name,
      description: s.description,
      scope: s.scope,
      path: s.path,
    }));
  }

  /** `/model NAME`: later requests use this model (the provider stays); "" is a UsageError. */
  setModel(model: string): void {
    this.parts.settings.setModel(model);
  }

  /**
   * `/approvals POLICY`: the next tool call — built-in, MCP, a hook's permission mode — follows
   * it. An unknown name is a UsageError, nothing changed.
   */
  setApprovalPolicy(policy: string): void {
    this.parts.settings.setApprovalPolicy(policy);
  }

  /**
   * `/sandbox MODE`: the next file-tool check and shell command (and a confined hook) use this mode.
   * Switching to a sandboxed mode where no sandbox works says so, as at start. Unknown: UsageError.
   */
  setSandboxMode(mode: string): void {
    const { settings, sandbox } = this.parts;
    settings.setSandboxMode(mode);
    if (!sandbox.available && settings.sandboxed) {
      this.options.events({ type: "sandbox.unavailable", reason: sandbox.reason });
    }
  }

  /**
   * One question to the model outside the conversation (no tools, nothing recorded): the
   * approval prompt's "explain" asks it what a command does.
   */
  async ask(question: string, signal: AbortSignal): Promise<string> {
    let text = "";
    const request = {
      model: this.parts.settings.model,
      instructions: "Answer briefly and plainly, in at most five sentences.",
      input: [{ type: "message" as const, role: "user" as const, content: question }],
      tools: [],
      parallelToolCalls: false,
    };
    for await (const event of this.parts.model.stream(request, signal)) {
      if (event.type === "text_delta") text += event.delta;
      if (event.type === "item_done" && event.item.type === "message" && event.item.role === "assistant") {
        text = event.item.content;
      }
    }
    return text;
  }

  async close(reason: "prompt_input_exit" | "clear" | "logout" | "other" = "other"): Promise<void> {
    this.parts.stopWatching();
    this.stopIdleWait();
    await Promise.all([...this.attention?.pending ?? []]);
    // SessionEnd (#24 item 1): observers only, before background hooks are awaited.
    await this.parts.hooks.fire?.(
      { ...this.hookContext(), turnId: "", signal: new AbortController().signal },
      "SessionEnd",
      { reason },
    ).catch(() => {});
    await this.parts.hooks.close?.(); // background (async) hooks finish before the session ends (HK-5)
    await this.parts.subagents?.stopAll(); // no background child outlives its session (#22 item 3)
    await this.parts.transcript.close();
    this.parts.capabilities.close();
    await this.parts.checkpoints?.close();
    await this.parts.capabilities.mcp.shutdown();
    // Background commands and PTY sessions end with the session: no orphan process (#23 item 3).
    await this.parts.toolSets.close();
    // Last: the session span covers the whole session; a hung collector gets a moment, no more.
    await sessionTelemetry.get(this)?.shutdown();
  }

  /** The tool set the session's model gets now, and why (`trellis debug prompt`). */
  toolSetChoice(): ToolSetChoice {
    return this.parts.toolSets.choose(this.parts.settings.model);
  }

  /** `signal`: the turn's, for a real turn (a Gemini command's `!{…}` runs then); none for a preview. */
  private turnContext(prompt: string, skills: string[], signal?: AbortSignal) {
    const { platform, events } = this.options;
    return prepareTurnContext({
      capabilities: this.parts.capabilities,
      history: this.transcript.items,
      prompt,
      skills,
      fs: platform.fs,
      events,
      contextWindow: this.contextWindow(),
      cwd: this.parts.settings.cwd,
      workspaceRoots: [...new Set([this.parts.settings.cwd, this.options.loaded.paths.projectRoot])],
      // A preview (`debug prompt`, `debug context`) runs nothing: its `!{…}` stay as written.
      ...(signal
        ? {
          runCommand: commandInjectionRunner({
            toolSets: this.parts.toolSets,
            approver: () => this.notifyingApprover(),
            approvalPolicy: () => this.parts.settings.approvalPolicy,
            ...(this.parts.permissions ? { permissions: this.parts.permissions } : {}),
            signal,
          }),
        }
        : {}),
      mcpServers: this.parts.capabilities.mcp.configuredServerNames(),
    });
  }

  /** The window of the session's model now: `/model` changes it unless `model_context_window` is set. */
  private contextWindow(): number | undefined {
    return resolveContextWindow({ ...this.options.loaded.config, model: this.parts.settings.model });
  }

  private async captureTools(): ReturnType<Capabilities["captureStep"]> {
    const { choice, tools } = this.parts.toolSets.toolsFor(this.parts.settings.model);
    // `/model` to another family switches the set from this request on, and says so (#23 item 4).
    if (this.lastToolSet !== undefined && this.lastToolSet !== choice.face) {
      this.options.events({
        type: "notice",
        message: `tool set: ${choice.face} from this request on (was ${this.lastToolSet}; ${choice.reason})`,
      });
    }
    this.lastToolSet = choice.face;
    const step = await this.parts.capabilities.captureStep(tools);
    const agents = await this.parts.subagents?.tools(0) ?? [];
    return { ...step, tools: [...this.parts.callers.track(step.tools, null), ...agents] };
  }

  private async confirmInstall(request: { pluginId: string; reason: string }): Promise<boolean> {
    const answer = await this.options.approver.request(approvalRequest({
      callId: `plugin-install-${request.pluginId}`,
      toolName: "request_plugin_install",
      args: { plugin: request.pluginId },
      reason: `install plugin ${request.pluginId}: ${request.reason}`,
      // Approving "for this session" covers this plugin, never every later install.
      subject: { kind: "action", name: `install plugin ${request.pluginId}`, arguments: {} },
    }));
    return approves(answer);
  }

  hookContext(): Omit<HookTurnContext, "turnId" | "signal"> {
    return {
      sessionId: this.threadId,
      cwd: this.parts.settings.cwd,
      model: this.parts.settings.model,
      permissionMode: this.parts.settings.approvalPolicy === "never" ? "bypassPermissions" : "default",
      transcriptPath: this.transcript.file,
    };
  }
}
