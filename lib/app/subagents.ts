import {
  AgentCallRefused,
  type AgentDefinition,
  type AgentLimits,
  agentTool,
  agentToolStyle,
  codexAgentTools,
  type CodexSpawn,
  selectAgentTools,
} from "../agents/mod.ts";
import {
  type Approver,
  type ModelClient,
  type RequestingAgent,
  runTurn,
  type StepToolCatalog,
  type Transcript,
  type TranscriptStore,
  type TurnInbox,
  type TurnResult,
} from "../loop/mod.ts";
import type {
  ConversationItem,
  EventSink,
  HookTurnContext,
  LifecycleHooks,
  ToolDefinition,
  ToolResult,
  ToolRunContext,
  Usage,
} from "../shared/mod.ts";
import { addUsage, emptyUsage, eventUsage, noLifecycleHooks, TrellisError } from "../shared/mod.ts";
import { actionLine } from "./subagent_board.ts";
import { codexNotification, NICKNAMES, taskNotification } from "./subagent_notifications.ts";
import { type ChildSetup, childTurnHooks } from "./agent_child.ts";
import { type McpCallers, namingApprover } from "./agent_attribution.ts";

/** An agent hook's child did not finish: the hook's run fails with this reason. */
export class AgentHookError extends TrellisError {
  constructor(message: string) {
    super("internal", message);
  }
}

/** What every subagent of one session shares: who it inherits from, and the running count. */
export interface SubagentEnv {
  model: ModelClient;
  modelName: () => string;
  /** The parent's step catalog (built-ins, MCP, …) without any Agent tool. */
  captureTools: () => Promise<StepToolCatalog>;
  hooks: LifecycleHooks;
  hookContext: () => Omit<HookTurnContext, "turnId" | "signal">;
  approver: Approver;
  /** Read at each call, as the parent reads them: a child is never looser than its parent. */
  approvalPolicy: () => string;
  sandboxed: () => boolean;
  events: EventSink;
  cwd: string;
  threadId: string;
  store: TranscriptStore;
  ephemeral: boolean;
  /**
   * The session's definitions, read at the first step that offers the Agent tool, not at session
   * start (#22 figure: a start with 200 definitions costs what one with none does).
   */
  agents: () => Promise<AgentDefinition[]>;
  limits: AgentLimits;
  /** Applies a definition's frontmatter to one spawn (lib/app/agent_child.ts); absent: the parent's all through. */
  prepare?: (definition: AgentDefinition, agentId: string) => Promise<ChildSetup>;
  /** `agents.tool_style` as configured (auto | codex | claude). */
  toolStyle?: string;
  /** The session's count of MCP calls in flight by agent: a child's forms name it (#22 item 3). */
  callers?: McpCallers;
  /** The session's conversation so far: what a spawn with `fork_context` starts from. */
  history?: () => readonly ConversationItem[];
}
/** A child thread the engine knows: its transcript, its state and how to stop it. */
interface Child {
  id: string;
  nickname: string;
  definition: AgentDefinition;
  transcript: Transcript;
  setup: ChildSetup;
  depth: number;
  status: "pending_init" | "running" | "completed" | "errored" | "shutdown";
  lastMessage: string | null;
  error?: string;
  controller: AbortController;
  /** The run in progress (or the last one): settles when the child stops. */
  done: Promise<void>;
  queue: string[];
  notified: boolean;
  closed: boolean;
}

/** The default step limit of a subagent's turn (a definition's `maxTurns` replaces it). */
const CHILD_MAX_STEPS = 100;
/** SubagentStop may send a child on this many times at most, so two hooks cannot loop forever. */
const MAX_STOP_CONTINUATIONS = 3;

/**
 * The engine beneath the Agent tool (#22 item 3): each spawn is a child thread — its own turn loop,
 * transcript (linked to the parent by its header) and tool set — run to completion, its last message
 * returned as the tool result. Calls of one step run concurrently (the Agent tool is parallel-safe);
 * `[agents] max_threads` bounds how many run at once, `max_depth` how deep they nest, and
 * `job_max_runtime_sec` how long one may run. The parent's abort (Ctrl-C) aborts the call's signal,
 * which every child turn — and its children — runs under.
 */
export class Subagents {
  private running = 0;
  private spawned = 0;
  private readonly children = new Map<string, Child>();
  /** Notifications not yet delivered to the parent's model. */
  private readonly mail: string[] = [];
  private childUsage: Usage = emptyUsage();
  /** Each child's tokens over all its turns, for its progress and completion events (#22 item 6). */
  private readonly usageOf = new Map<string, Usage>();

  constructor(private readonly env: SubagentEnv) {}

  /**
   * A skill with `context: fork` (#22 item 5): its body is the prompt of a subagent of its `agent:`
   * type (default general-purpose), run as an Agent call would be — hooks, limits, transcript — and
   * its answer comes back for the parent's context. An unknown type is the answer's error.
   */
  async forkForSkill(
    request: { agentType: string; skill: string; prompt: string; signal: AbortSignal },
  ): Promise<ToolResult> {
    const definition = (await this.env.agents()).find((a) => a.name === request.agentType);
    if (!definition) {
      return {
        output: `Agent type "${request.agentType}" not found for skill ${request.skill}`,
        status: "error",
      };
    }
    const ctx: ToolRunContext = {
      callId: `skill-fork-${++this.spawned}`,
      cwd: this.env.cwd,
      signal: request.signal,
      emit: this.env.events,
      escalated: false,
    };
    return (await this.run(
      { definition, description: `skill ${request.skill}`, prompt: request.prompt },
      ctx,
      0,
    ))
      .answer;
  }

  /** The session's agent definitions (read on first use). */
  definitions(): Promise<AgentDefinition[]> {
    return this.env.agents();
  }

  /** The Agent tool for a thread at `depth` (the session is depth 0). */
  async tool(depth = 0): Promise<ToolDefinition> {
    return agentTool(await this.env.agents(), (request, ctx) => this.spawn(request, ctx, depth));
  }

  /** The face `agents.tool_style` picks for the session's model now (#22 item 2). */
  async tools(depth = 0): Promise<ToolDefinition[]> {
    if (agentToolStyle(this.env.toolStyle, this.env.modelName()) === "claude") {
      return [await this.tool(depth)];
    }
    return codexAgentTools(await this.env.agents(), {
      spawn: (r, ctx) => this.spawnCodex(r, ctx, depth),
      sendInput: (r) => this.sendInput(r),
      wait: (r, ctx) => this.wait(r, ctx),
      close: (target) => this.close(target),
      resume: (id) => this.resume(id),
    });
  }

  /** The parent turn's inbox: background children's notifications, and their usage. */
  inbox(): TurnInbox {
    return {
      take: () => this.mail.splice(0),
      settle: async (signal) => {
        while (this.mail.length === 0) {
          const busy = [...this.children.values()].filter((c) => c.status === "running" && !c.notified);
          if (busy.length === 0) break;
          await Promise.race([...busy.map((c) => c.done), aborted(signal)]);
          if (signal.aborted) break;
        }
        return this.mail.splice(0);
      },
      usage: () => {
        const usage = this.childUsage;
        this.childUsage = emptyUsage();
        return usage;
      },
    };
  }

  private usageField(agentId: string): { usage?: ReturnType<typeof eventUsage> } {
    const usage = this.usageOf.get(agentId);
    return usage ? { usage: eventUsage(usage) } : {};
  }

  /** Running and finished children, for the UI and `mcp-server` (#22 item 6). */
  list(): { id: string; nickname: string; type: string; status: string; transcript: string | null }[] {
    return [...this.children.values()].map((c) => ({
      id: c.id,
      nickname: c.nickname,
      type: c.definition.name,
      status: c.status,
      transcript: c.transcript.file,
    }));
  }

  /** Stops every child (session close, Ctrl-C of the whole program): no orphan run survives. */
  async stopAll(): Promise<void> {
    for (const child of this.children.values()) child.controller.abort();
    await Promise.all([...this.children.values()].map((c) => c.done));
    for (const child of this.children.values()) {
      await child.setup.release().catch(() => {});
      await child.transcript.close().catch(() => {});
    }
  }

  private refuseBeyondLimits(depth: number): void {
    const { maxDepth, maxThreads } = this.env.limits;
    if (depth >= maxDepth) {
      throw new AgentCallRefused(
        `Agent depth limit reached (agents.max_depth = ${maxDepth}): this agent cannot launch agents; ` +
          "solve the task yourself.",
      );
    }
    if (this.running >= maxThreads) {
      throw new AgentCallRefused(
        `Agent thread limit reached (agents.max_threads = ${maxThreads} running): wait for a running ` +
          "agent to answer (or close one), or do the task yourself.",
      );
    }
  }

  /** A child started in the background: its thread, transcript and first run. */
  private async startChild(
    definition: AgentDefinition,
    prompt: string,
    ctx: ToolRunContext,
    depth: number,
    onDone: (child: Child) => void,
    fork?: readonly ConversationItem[],
  ): Promise<Child> {
    this.refuseBeyondLimits(depth);
    const env = this.env;
    const id = `${env.threadId}-agent${++this.spawned}`;
    const setup = env.prepare ? await env.prepare(definition, id) : plainSetup(env, definition);
    const transcript = await env.store.create({ ephemeral: env.ephemeral }, {
      id,
      created: new Date().toISOString(),
      cwd: env.cwd,
      model: setup.modelName,
      parent: { threadId: env.threadId, agentType: definition.name, callId: ctx.callId },
    });
    // Codex's fork_context: the child's thread starts as a copy of the parent's so far.
    for (const item of fork ?? []) await transcript.recordItem(item);
    const child: Child = {
      id,
      nickname: NICKNAMES[(this.spawned - 1) % NICKNAMES.length],
      definition,
      transcript,
      setup,
      depth,
      status: "pending_init",
      lastMessage: null,
      // Not the call's signal: the call returns at once. The session's close (or close_agent) stops it.
      controller: new AbortController(),
      done: Promise.resolve(),
      queue: [],
      notified: false,
      closed: false,
    };
    this.children.set(id, child);
    // Ctrl-C of the parent's turn stops its background children too (and theirs: they run under it).
    ctx.signal.addEventListener("abort", () => child.controller.abort(), { once: true });
    env.events({
      type: "agent.started",
      agent_id: id,
      agent_type: definition.name,
      call_id: ctx.callId,
      description: prompt.slice(0, 80),
      transcript: transcript.file,
    });
    this.drive(child, prompt, ctx.callId, onDone);
    return child;
  }

  /** One run of a child on `prompt`, then on what send_input queued meanwhile. */
  private drive(child: Child, prompt: string, callId: string, onDone: (child: Child) => void): void {
    child.status = "running";
    this.running++;
    child.done = (async () => {
      let next: string | undefined = prompt;
      try {
        while (next !== undefined && !child.controller.signal.aborted) {
          const outcome = await this.runChildTurn(child, next);
          child.lastMessage = outcome.result?.lastMessage ?? child.lastMessage;
          if (outcome.result) this.childUsage = addUsage(this.childUsage, outcome.result.usage);
          child.status = outcome.status === "completed" ? "completed" : child.closed ? "shutdown" : "errored";
          child.error = outcome.status === "completed" ? undefined : outcome.message;
          next = child.queue.shift();
        }
      } finally {
        this.running--;
        if (child.controller.signal.aborted && child.status === "running") child.status = "shutdown";
        this.env.events({
          type: "agent.completed",
          agent_id: child.id,
          agent_type: child.definition.name,
          call_id: callId,
          status: child.status,
          ...this.usageField(child.id),
        });
        onDone(child);
      }
    })();
  }

  private async runChildTurn(child: Child, prompt: string) {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.env.limits.jobMaxRuntimeMs);
    try {
      const env = child.setup.hooks ? { ...this.env, hooks: child.setup.hooks } : this.env;
      const signal = AbortSignal.any([child.controller.signal, timeout.signal]);
      const result = await this.runTurns(env, child.setup, child.transcript, prompt, child.depth, signal);
      const status = timeout.signal.aborted && !child.controller.signal.aborted
        ? "timed_out"
        : result?.status ?? "failed";
      const message = status === "timed_out"
        ? `stopped: it ran longer than agents.job_max_runtime_sec (${
          this.env.limits.jobMaxRuntimeMs / 1000
        } s)`
        : result?.error?.message ?? status;
      return { result, status, message };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Codex's spawn_agent: the child starts; its first answer becomes a `<subagent_notification>`. */
  private async spawnCodex(
    request: CodexSpawn,
    ctx: ToolRunContext,
    depth: number,
  ): Promise<Record<string, unknown>> {
    if (request.forkContext && depth > 0) {
      throw new AgentCallRefused(
        "fork_context: only the session's own spawns can fork its thread; a subagent's cannot",
      );
    }
    const fork = request.forkContext ? forkedHistory(this.env.history?.() ?? []) : undefined;
    const child = await this.startChild(request.definition, request.message, ctx, depth, (c) => {
      if (c.notified || c.closed) return;
      c.notified = true;
      this.mail.push(codexNotification(c.id, codexStatus(c)));
    }, fork);
    return { agent_id: child.id, nickname: child.nickname };
  }

  private known(id: string): Child {
    const child = this.children.get(id);
    if (!child) {
      throw new AgentCallRefused(
        `agent "${id}" not found: no subagent of this session has that id (ids come from spawn_agent)`,
      );
    }
    return child;
  }

  private sendInput(request: { target: string; message: string; interrupt: boolean }) {
    const child = this.known(request.target);
    if (child.closed) throw new AgentCallRefused(`agent "${child.id}" is closed: resume_agent reopens it`);
    if (child.status === "running") {
      if (request.interrupt) child.queue.unshift(request.message);
      else child.queue.push(request.message);
    } else {
      this.drive(child, request.message, "send_input", () => {});
    }
    return Promise.resolve({ submission_id: `${child.id}-input${child.transcript.items.length}` });
  }

  private async wait(request: { targets: string[]; timeoutMs: number }, ctx: ToolRunContext) {
    const children = request.targets.map((id) => this.known(id));
    const final = () => children.filter((c) => c.status !== "running" && c.status !== "pending_init");
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (final().length === 0) {
      await Promise.race([
        ...children.map((c) => c.done),
        new Promise((resolve) => timer = setTimeout(resolve, request.timeoutMs)),
        aborted(ctx.signal),
      ]);
      clearTimeout(timer);
    }
    const done = final();
    return {
      status: Object.fromEntries(done.map((c) => [c.id, codexStatus(c)])),
      timed_out: done.length === 0,
    };
  }

  private async close(target: string) {
    const child = this.known(target);
    const previous = codexStatus(child);
    child.closed = true;
    child.controller.abort();
    await child.done;
    child.status = "shutdown";
    return { previous_status: previous };
  }

  private async resume(id: string) {
    let child = this.children.get(id);
    if (!child) {
      // A child of this thread from before `trellis resume`: its transcript, read back.
      const transcript = await this.env.store.open(id).catch(() => null);
      if (!transcript || transcript.meta.parent?.threadId !== this.env.threadId) this.known(id);
      const agents = await this.env.agents();
      const definition = agents.find((a) => a.name === transcript!.meta.parent!.agentType) ?? agents[0];
      child = {
        id,
        nickname: NICKNAMES[this.children.size % NICKNAMES.length],
        definition,
        transcript: transcript!,
        setup: plainSetup(this.env, definition),
        depth: 0,
        status: "completed",
        lastMessage: null,
        controller: new AbortController(),
        done: Promise.resolve(),
        queue: [],
        notified: true,
        closed: false,
      };
      this.children.set(id, child);
      return { status: codexStatus(child) };
    }
    if (child.closed) {
      child.closed = false;
      child.controller = new AbortController();
      child.status = "pending_init";
    }
    return { status: codexStatus(child) };
  }

  /**
   * An `agent` hook (#24 item 2): a child with read-only tools (Read, Grep, Glob) answering the
   * hook's prompt; resolves to its last message. It runs without hooks, so a hook's agent never
   * fires the hook that started it.
   */
  async answerForHook(
    request: { instructions: string; prompt: string; model?: string; signal: AbortSignal },
  ) {
    const definition: AgentDefinition = {
      name: "hook-agent",
      description: "Evaluates one hook event",
      prompt: request.instructions,
      tools: ["Read", "Grep", "Glob"],
      disallowedTools: [],
      ...(request.model ? { model: request.model } : {}),
      maxTurns: 50,
      notApplied: [],
      skills: [],
      mcpServers: [],
      origin: "built-in",
    };
    const ctx: ToolRunContext = {
      callId: `hook-agent-${++this.spawned}`,
      cwd: this.env.cwd,
      signal: request.signal,
      emit: this.env.events,
      escalated: false,
    };
    const { result } = await this.run({ definition, description: "hook", prompt: request.prompt }, ctx, 0, {
      hooks: noLifecycleHooks,
    });
    if (result?.status !== "completed") {
      throw new AgentHookError(
        `the hook's agent did not finish (${result?.error?.message ?? result?.status ?? "no answer"})`,
      );
    }
    return result.lastMessage ?? "";
  }

  private async spawn(
    request: { definition: AgentDefinition; description: string; prompt: string; background: boolean },
    ctx: ToolRunContext,
    depth: number,
  ): Promise<ToolResult> {
    if (!request.background) return (await this.run(request, ctx, depth)).answer;
    // Claude Code's run_in_background: started now, answered later by a `<task-notification>`.
    let child: Child;
    try {
      child = await this.startChild(request.definition, request.prompt, ctx, depth, (c) => {
        this.mail.push(taskNotification({
          taskId: c.id,
          toolUseId: ctx.callId,
          outputFile: c.transcript.file,
          status: c.status === "completed" ? "completed" : c.closed ? "killed" : "failed",
          description: request.description,
          result: c.lastMessage,
          error: c.error,
        }));
      });
    } catch (error) {
      if (error instanceof AgentCallRefused) return { output: error.message, status: "error" };
      throw error;
    }
    return {
      output: `Agent "${request.description}" started in the background.\nagentId: ${child.id}\n` +
        (child.transcript.file ? `output_file: ${child.transcript.file}\n` : "") +
        "Its answer arrives in a later message; do not repeat its work meanwhile.",
      status: "success",
    };
  }

  private async run(
    request: { definition: AgentDefinition; description: string; prompt: string },
    ctx: ToolRunContext,
    depth: number,
    override: { hooks?: LifecycleHooks } = {},
  ): Promise<{ answer: ToolResult; result?: TurnResult }> {
    let env = override.hooks ? { ...this.env, hooks: override.hooks } : this.env;
    const { definition } = request;
    try {
      this.refuseBeyondLimits(depth);
    } catch (error) {
      if (error instanceof AgentCallRefused) return { answer: { output: error.message, status: "error" } };
      throw error;
    }
    this.running++;
    const agentId = `${env.threadId}-agent${++this.spawned}`;
    let setup: ChildSetup;
    try {
      setup = env.prepare && !override.hooks
        ? await env.prepare(definition, agentId)
        : plainSetup(env, definition);
      // An agent's own hooks in a session without any: the child's engine holds them alone.
      if (setup.hooks) env = { ...env, hooks: setup.hooks };
    } catch (error) {
      this.running--;
      throw error;
    }
    const transcript = await env.store.create({ ephemeral: env.ephemeral }, {
      id: agentId,
      created: new Date().toISOString(),
      cwd: env.cwd,
      model: setup.modelName,
      parent: { threadId: env.threadId, agentType: definition.name, callId: ctx.callId },
    });
    const started = { agent_id: agentId, agent_type: definition.name, call_id: ctx.callId };
    env.events({
      type: "agent.started",
      ...started,
      description: request.description,
      transcript: transcript.file,
    });
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), env.limits.jobMaxRuntimeMs);
    const signal = AbortSignal.any([ctx.signal, timeout.signal]);
    let result: TurnResult | undefined;
    try {
      result = await this.runTurns(env, setup, transcript, request.prompt, depth, signal);
      if (result) this.childUsage = addUsage(this.childUsage, result.usage);
    } finally {
      clearTimeout(timer);
      this.running--;
      await setup.release().catch(() => {});
      await transcript.close().catch(() => {});
    }
    const status = timeout.signal.aborted && !ctx.signal.aborted ? "timed_out" : result?.status ?? "failed";
    env.events({ type: "agent.completed", ...started, status, ...this.usageField(agentId) });
    return {
      answer: answer(definition, result, status, transcript.file, env.limits.jobMaxRuntimeMs),
      result,
    };
  }

  /** A child's turn on a prompt, SubagentStart before and SubagentStop after (#22 item 4). */
  private async runTurns(
    env: SubagentEnv,
    setup: ChildSetup,
    transcript: Transcript,
    firstPrompt: string,
    depth: number,
    signal: AbortSignal,
  ): Promise<TurnResult | undefined> {
    const { definition } = setup;
    const agentId = transcript.meta.id;
    let result: TurnResult | undefined;
    const hookContext = () => ({
      ...env.hookContext(),
      transcriptPath: transcript.file,
      agent: { id: agentId, type: definition.name },
    });
    const start = await env.hooks.subagentStart?.({ ...hookContext(), turnId: "", signal }, {
      agentId,
      agentType: definition.name,
    });
    let prompt = firstPrompt;
    let injected = [
      ...setup.injected,
      ...(start?.additionalContexts ?? []).map((content) => ({
        type: "message" as const,
        role: "developer" as const,
        content,
      })),
    ];
    const first = (turnsRun.get(transcript) ?? transcript.recordedTurns) + 1;
    for (let round = 0; round <= MAX_STOP_CONTINUATIONS; round++) {
      const turnId = `${agentId}-t${first + round}`;
      result = await runTurn({
        turnId,
        model: env.model,
        modelName: setup.modelName,
        ...(definition.effort ? { reasoningEffort: definition.effort } : {}),
        instructions: definition.prompt,
        history: [...transcript.items],
        prompt,
        injected,
        captureTools: () => this.childTools(setup, depth + 1, { id: agentId, type: definition.name }),
        // A child fires no Stop or UserPromptSubmit of its own, as in Claude Code (SubagentStop is its).
        hooks: childTurnHooks(env.hooks),
        hookContext,
        // Its approvals reach the parent's UI naming it (#22 item 3).
        approver: namingApprover(setup.approver, { id: agentId, type: definition.name }),
        approvalPolicy: setup.approvalPolicy,
        sandboxed: env.sandboxed,
        // The child's own stream stays in its transcript; the parent sees its start, each tool call
        // it makes (as agent.progress) and its end.
        events: (event) => {
          const action = event.type === "item.started" ? actionLine(event.item) : null;
          if (action) {
            env.events({ type: "agent.progress", agent_id: agentId, agent_type: definition.name, action });
          }
        },
        record: (item) => transcript.recordItem(item),
        maxSteps: definition.maxTurns ?? CHILD_MAX_STEPS,
        signal,
        cwd: env.cwd,
      });
      await transcript.recordTurn(turnId, result.status, result.usage);
      turnsRun.set(transcript, first + round);
      const total = addUsage(this.usageOf.get(agentId) ?? emptyUsage(), result.usage);
      this.usageOf.set(agentId, total);
      env.events({
        type: "agent.progress",
        agent_id: agentId,
        agent_type: definition.name,
        usage: eventUsage(total),
      });
      if (result.status !== "completed" || !env.hooks.subagentStop) break;
      const stop = await env.hooks.subagentStop({ ...hookContext(), turnId: "", signal }, {
        agentId,
        agentType: definition.name,
        agentTranscriptPath: transcript.file,
        stopHookActive: round > 0,
        lastAssistantMessage: result.lastMessage,
      });
      if (stop.shouldStop || stop.continuations.length === 0 || round === MAX_STOP_CONTINUATIONS) break;
      prompt = stop.continuations.map((c) => c.reason).join("\n");
      injected = [];
    }
    return result;
  }

  /** The child's step catalog: the parent's tools as its definition allows, and its own Agent tool. */
  private async childTools(
    setup: ChildSetup,
    depth: number,
    agent: RequestingAgent,
  ): Promise<StepToolCatalog> {
    const step = await this.env.captureTools();
    const own = setup.stepTools([...step.tools, ...await this.tools(depth)]);
    const { tools } = selectAgentTools(setup.definition, own.tools);
    return {
      ...step,
      tools: this.env.callers ? this.env.callers.track(tools, agent) : tools,
      release: () => {
        own.release();
        step.release?.();
      },
    };
  }
}

/**
 * The parent's conversation as a forked child's start: every item but the calls still waiting for
 * their output (the spawn_agent call itself among them), which no API accepts unanswered.
 */
function forkedHistory(items: readonly ConversationItem[]): ConversationItem[] {
  const answered = new Set(items.flatMap((i) => i.type === "function_call_output" ? [i.callId] : []));
  return items.filter((i) => i.type !== "function_call" || answered.has(i.callId));
}

/** Turns each child transcript has run in this process (a send_input run numbers on from them). */
const turnsRun = new WeakMap<Transcript, number>();

/** Codex's status of an agent: `{completed: message}`, `{errored: reason}` or a bare state. */
function codexStatus(child: Child): unknown {
  if (child.status === "completed") return { completed: child.lastMessage };
  if (child.status === "errored") return { errored: child.error ?? "failed" };
  return child.status;
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** A hook's agent (or a session without the frontmatter wiring): the parent's model and policy. */
function plainSetup(env: SubagentEnv, definition: AgentDefinition): ChildSetup {
  return {
    definition,
    modelName: definition.model && definition.model !== "inherit" ? definition.model : env.modelName(),
    approvalPolicy: env.approvalPolicy,
    approver: env.approver,
    injected: [],
    stepTools: (tools) => ({ tools, release: () => {} }),
    release: () => Promise.resolve(),
  };
}

function answer(
  definition: AgentDefinition,
  result: TurnResult | undefined,
  status: string,
  transcriptFile: string | null,
  runtimeMs: number,
): ToolResult {
  const where = transcriptFile ? `\n\n(agent transcript: ${transcriptFile})` : "";
  if (status === "completed") {
    return { output: `${result?.lastMessage ?? "(no answer)"}${where}`, status: "success" };
  }
  if (status === "timed_out") {
    return {
      output: `Agent "${definition.name}" was stopped: it ran longer than agents.job_max_runtime_sec ` +
        `(${runtimeMs / 1000} s).${where}`,
      status: "error",
    };
  }
  if (status === "aborted") {
    return { output: `aborted: agent "${definition.name}" was interrupted${where}`, status: "aborted" };
  }
  return {
    output: `Agent "${definition.name}" did not finish (${status}): ${
      result?.error?.message ?? "no answer"
    }${where}`,
    status: "error",
  };
}
