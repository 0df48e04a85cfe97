import { type AgentDefinition, type AgentLimits, agentTool, selectAgentTools } from "../agents/mod.ts";
import {
  type Approver,
  type ModelClient,
  runTurn,
  type StepToolCatalog,
  type TranscriptStore,
  type TurnResult,
} from "../loop/mod.ts";
import type {
  EventSink,
  HookTurnContext,
  LifecycleHooks,
  ToolDefinition,
  ToolResult,
  ToolRunContext,
} from "../shared/mod.ts";
import { noLifecycleHooks, TrellisError } from "../shared/mod.ts";
import type { ChildSetup } from "./agent_child.ts";

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

  constructor(private readonly env: SubagentEnv) {}

  /** The session's agent definitions (read on first use). */
  definitions(): Promise<AgentDefinition[]> {
    return this.env.agents();
  }

  /** The Agent tool for a thread at `depth` (the session is depth 0). */
  async tool(depth = 0): Promise<ToolDefinition> {
    return agentTool(await this.env.agents(), (request, ctx) => this.spawn(request, ctx, depth));
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
    request: { definition: AgentDefinition; description: string; prompt: string },
    ctx: ToolRunContext,
    depth: number,
  ): Promise<ToolResult> {
    return (await this.run(request, ctx, depth)).answer;
  }

  private async run(
    request: { definition: AgentDefinition; description: string; prompt: string },
    ctx: ToolRunContext,
    depth: number,
    override: { hooks?: LifecycleHooks } = {},
  ): Promise<{ answer: ToolResult; result?: TurnResult }> {
    let env = override.hooks ? { ...this.env, hooks: override.hooks } : this.env;
    const { definition } = request;
    if (depth >= env.limits.maxDepth) {
      return {
        answer: {
          output: `Agent depth limit reached (agents.max_depth = ${env.limits.maxDepth}): ` +
            "this agent cannot launch agents; solve the task yourself.",
          status: "error",
        },
      };
    }
    if (this.running >= env.limits.maxThreads) {
      return {
        answer: {
          output: `Agent thread limit reached (agents.max_threads = ${env.limits.maxThreads} running): ` +
            "wait for a running agent to answer, or do the task yourself.",
          status: "error",
        },
      };
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
    const hookContext = () => ({
      ...env.hookContext(),
      transcriptPath: transcript.file,
      agent: { id: agentId, type: definition.name },
    });
    let result: TurnResult | undefined;
    try {
      const start = await env.hooks.subagentStart?.({ ...hookContext(), turnId: "", signal }, {
        agentId,
        agentType: definition.name,
      });
      let prompt = request.prompt;
      let injected = [
        ...setup.injected,
        ...(start?.additionalContexts ?? []).map((content) => ({
          type: "message" as const,
          role: "developer" as const,
          content,
        })),
      ];
      for (let round = 0; round <= MAX_STOP_CONTINUATIONS; round++) {
        result = await runTurn({
          turnId: `${agentId}-t${round + 1}`,
          model: env.model,
          modelName: setup.modelName,
          instructions: definition.prompt,
          history: [...transcript.items],
          prompt,
          injected,
          captureTools: () => this.childTools(setup, depth + 1),
          hooks: env.hooks,
          hookContext,
          approver: setup.approver,
          approvalPolicy: setup.approvalPolicy,
          sandboxed: env.sandboxed,
          // The child's own stream stays in its transcript; the parent sees its start and end.
          events: () => {},
          record: (item) => transcript.recordItem(item),
          maxSteps: definition.maxTurns ?? CHILD_MAX_STEPS,
          signal,
          cwd: env.cwd,
        });
        await transcript.recordTurn(`${agentId}-t${round + 1}`, result.status, result.usage);
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
    } finally {
      clearTimeout(timer);
      this.running--;
      await setup.release().catch(() => {});
      await transcript.close().catch(() => {});
    }
    const status = timeout.signal.aborted && !ctx.signal.aborted ? "timed_out" : result?.status ?? "failed";
    env.events({ type: "agent.completed", ...started, status });
    return {
      answer: answer(definition, result, status, transcript.file, env.limits.jobMaxRuntimeMs),
      result,
    };
  }

  /** The child's step catalog: the parent's tools as its definition allows, and its own Agent tool. */
  private async childTools(setup: ChildSetup, depth: number): Promise<StepToolCatalog> {
    const step = await this.env.captureTools();
    const own = setup.stepTools([...step.tools, await this.tool(depth)]);
    const { tools } = selectAgentTools(setup.definition, own.tools);
    return {
      ...step,
      tools,
      release: () => {
        own.release();
        step.release?.();
      },
    };
  }
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
