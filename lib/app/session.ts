import * as path from "node:path";
import type { LoadedConfig } from "../config/mod.ts";
import {
  type Approver,
  type ModelClient,
  runTurn,
  type StepToolCatalog,
  type Transcript,
  TranscriptStore,
  type TurnResult,
} from "../loop/mod.ts";
import { createModelClient, resolveProvider } from "../model/mod.ts";
import { detectSandbox, type Platform } from "../platform/mod.ts";
import { noLifecycleHooks } from "../shared/mod.ts";
import type {
  ConversationItem,
  EventSink,
  LifecycleHooks,
  ModelRequest,
  ToolDefinition,
} from "../shared/mod.ts";
import { createBuiltinTools, resolvePermissionProfile } from "../tools/mod.ts";
import { BASE_INSTRUCTIONS } from "./base_instructions.ts";
import { wireHooks } from "./hooks_wiring.ts";

export interface SessionOptions {
  platform: Platform;
  loaded: LoadedConfig;
  events: EventSink;
  approver: Approver;
  /** Session id to continue, or "--last". */
  resume?: string;
  /** Replaces the model client (tests, benchmarks, previews). */
  model?: ModelClient;
  /** Build everything but write no transcript (debug prompt). */
  preview?: boolean;
}

export interface TurnRequest {
  prompt: string;
  maxSteps: number;
  signal: AbortSignal;
}

/**
 * A thread: configuration and identity frozen at start, a transcript, the capability owners, and
 * one turn at a time. This is the composition root's product; the CLI only drives it.
 */
export class Session {
  private turnCounter = 0;

  private constructor(
    readonly threadId: string,
    readonly transcript: Transcript,
    private readonly options: SessionOptions,
    private readonly model: ModelClient,
    private readonly modelName: string,
    private readonly instructions: string,
    private readonly builtins: ToolDefinition[],
    private readonly hooks: LifecycleHooks,
  ) {}

  static async open(options: SessionOptions): Promise<Session> {
    const { platform, loaded, events } = options;
    const config = loaded.config;
    const model = options.model ?? createModelClient(
      resolveProvider(config, platform.env, { requireKey: !options.preview }),
      {
        ...(config.model_reasoning_effort
          ? { reasoning: { effort: config.model_reasoning_effort, summary: "auto" as const } }
          : {}),
        onRetry: (r) =>
          events({
            type: "notice",
            message: `model: ${r.reason}, retrying ${r.attempt}/${r.maxRetries} in ${r.delayMs} ms`,
          }),
      },
    );
    const sandbox = await detectSandbox(platform);
    const profile = await resolvePermissionProfile(config, loaded.paths.cwd, {
      fs: platform.fs,
      tempDir: platform.tempDir(),
    });
    if (!sandbox.available && profile.sandboxMode !== "danger-full-access") {
      events({ type: "sandbox.unavailable", reason: sandbox.reason });
    }
    const builtins = createBuiltinTools({
      platform,
      profile,
      sandbox,
      ...(config.tool_output_max_bytes ? { outputMaxBytes: config.tool_output_max_bytes } : {}),
    });
    const store = new TranscriptStore(platform.fs, path.join(loaded.paths.home, "sessions"));
    const transcript = options.resume
      ? await store.open(options.resume)
      : await store.create({ ephemeral: options.preview }, {
        id: newThreadId(),
        created: new Date().toISOString(),
        cwd: loaded.paths.cwd,
        model: config.model ?? "",
      });
    if (!options.preview) {
      events({ type: "thread.started", thread_id: transcript.meta.id, resumed: Boolean(options.resume) });
    }
    const hooks = options.preview ? noLifecycleHooks : await wireHooks({
      platform,
      loaded,
      events,
      pluginSources: [],
      sandbox,
      profile,
      threadId: transcript.meta.id,
    });
    const instructions = config.instructions
      ? `${BASE_INSTRUCTIONS}\n\n${config.instructions}`
      : BASE_INSTRUCTIONS;
    return new Session(
      transcript.meta.id,
      transcript,
      options,
      model,
      config.model ?? "",
      instructions,
      builtins,
      hooks,
    );
  }

  /** SessionStart hooks (HK-12): their contexts are recorded before the first turn. */
  async start(signal: AbortSignal): Promise<{ stop?: { reason: string } }> {
    const outcome = await this.hooks.sessionStart({
      ...this.hookContext(),
      turnId: "",
      signal,
    }, { source: this.options.resume ? "resume" : "startup" });
    for (const content of outcome.additionalContexts) {
      await this.transcript.recordItem({ type: "message", role: "developer", content });
    }
    return outcome.stop ? { stop: outcome.stop } : {};
  }

  private hookContext() {
    const { loaded } = this.options;
    return {
      sessionId: this.threadId,
      cwd: loaded.paths.cwd,
      model: this.modelName,
      permissionMode: loaded.config.approval_policy === "never" ? "bypassPermissions" : "default",
      transcriptPath: this.transcript.file,
    };
  }

  private captureTools(): Promise<StepToolCatalog> {
    return Promise.resolve({ tools: [...this.builtins], release: () => {} });
  }

  /** The request the first sampling of a turn would send, without calling the model. */
  async previewRequest(prompt: string): Promise<ModelRequest> {
    const step = await this.captureTools();
    step.release();
    const input: ConversationItem[] = [...this.transcript.items, {
      type: "message",
      role: "user",
      content: prompt,
    }];
    return {
      model: this.modelName,
      instructions: this.instructions,
      input,
      tools: step.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
      parallelToolCalls: true,
    };
  }

  async runTurn(request: TurnRequest): Promise<TurnResult> {
    const turnId = `${this.threadId}-t${++this.turnCounter + this.priorTurns()}`;
    const { loaded } = this.options;
    const result = await runTurn({
      turnId,
      model: this.model,
      modelName: this.modelName,
      instructions: this.instructions,
      history: [...this.transcript.items],
      prompt: request.prompt,
      injected: [],
      captureTools: () => this.captureTools(),
      hooks: this.hooks,
      hookContext: this.hookContext(),
      approver: this.options.approver,
      approvalPolicy: loaded.config.approval_policy ?? "on-request",
      events: this.options.events,
      record: (item) => this.transcript.recordItem(item),
      maxSteps: request.maxSteps,
      signal: request.signal,
      cwd: loaded.paths.cwd,
    });
    await this.transcript.recordTurn(turnId, result.status);
    return result;
  }

  private priorTurns(): number {
    return this.transcript.items.filter((i) => i.type === "message" && i.role === "user").length;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

function newThreadId(): string {
  const time = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  return `${time}-${crypto.randomUUID().slice(0, 8)}`;
}
