import type { ModelClient, StepToolCatalog } from "../../lib/loop/mod.ts";
import type {
  ConversationItem,
  LifecycleHooks,
  ModelRequest,
  ModelStreamEvent,
  ToolDefinition,
  TrellisEventBody,
} from "../../lib/shared/mod.ts";
import { emptyUsage, noLifecycleHooks, TrellisError } from "../../lib/shared/mod.ts";

export type ScriptedStep = ConversationItem[] | { breakAfter: ConversationItem[] };

/** A model peer that answers the n-th sampling with the n-th scripted step and records requests. */
export function scriptedModel(steps: ScriptedStep[]): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      requests.push(structuredClone(request));
      const step = steps[requests.length - 1] ?? [{ type: "message", role: "assistant", content: "(end)" }];
      return (async function* () {
        const items = Array.isArray(step) ? step : step.breakAfter;
        for (const item of items) {
          if (signal.aborted) throw new TrellisError("cancelled", "aborted");
          yield { type: "item_done", item } as ModelStreamEvent;
        }
        if (!Array.isArray(step)) {
          throw new TrellisError("model_protocol", "model stream ended before the response completed");
        }
        yield { type: "completed", usage: { ...emptyUsage(), inputTokens: 1 } } as ModelStreamEvent;
      })();
    },
  };
}

export function call(
  name: string,
  args: unknown,
  callId = `c_${name}_${Math.random().toString(36).slice(2, 7)}`,
) {
  return { type: "function_call" as const, callId, name, arguments: JSON.stringify(args) };
}

export function say(content: string): ConversationItem {
  return { type: "message", role: "assistant", content };
}

/** A tool that records its runs and can be slow, fail or need approval. */
export function fakeTool(
  name: string,
  options: {
    parallel?: boolean;
    delayMs?: number;
    needsApproval?: boolean;
    runs?: { args: unknown; escalated: boolean }[];
    fail?: boolean;
  } = {},
): ToolDefinition {
  return {
    name,
    hookName: name[0].toUpperCase() + name.slice(1),
    hookAliases: [],
    description: `fake ${name}`,
    parameters: { type: "object" },
    parallel: options.parallel ?? false,
    source: { kind: "builtin" },
    parseArguments(raw) {
      if (typeof raw !== "object" || raw === null) throw new Error("expected an object");
      return raw;
    },
    approval: () =>
      options.needsApproval ? { kind: "required", reason: "fake needs approval" } : { kind: "none" },
    async run(args, ctx) {
      options.runs?.push({ args, escalated: ctx.escalated });
      if (options.delayMs) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, options.delayMs);
          ctx.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(new Error("aborted"));
          });
        });
      }
      if (options.fail) throw new Error("boom");
      return { output: `${name} ok ${JSON.stringify(args)}`, status: "success" };
    },
  };
}

export function catalogOf(tools: ToolDefinition[]): () => Promise<StepToolCatalog> {
  return () => Promise.resolve({ tools, release: () => {} });
}

export function recorder() {
  const items: ConversationItem[] = [];
  const events: TrellisEventBody[] = [];
  return {
    items,
    events,
    record: (item: ConversationItem) => {
      items.push(item);
      return Promise.resolve();
    },
    sink: (event: TrellisEventBody) => void events.push(event),
  };
}

export function hooksWith(overrides: Partial<LifecycleHooks>): LifecycleHooks {
  return { ...noLifecycleHooks, ...overrides };
}
