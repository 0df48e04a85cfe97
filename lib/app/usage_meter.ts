import type { ModelClient } from "../loop/mod.ts";
import type { ModelStreamEvent, Usage } from "../shared/mod.ts";

/**
 * Wraps the model client to remember the usage of the last completed request: its input plus
 * output tokens are what the conversation fills of the context window now (Codex's "context
 * left" reads the same figure). Events pass through as they are, one `then` each.
 */
export function meterUsage(model: ModelClient): { model: ModelClient; last(): Usage | null } {
  let last: Usage | null = null;
  const observe = (result: IteratorResult<ModelStreamEvent>) => {
    if (!result.done && result.value.type === "completed") last = result.value.usage;
    return result;
  };
  return {
    model: {
      ...(model.countTokens ? { countTokens: model.countTokens.bind(model) } : {}),
      stream(request, signal) {
        const inner = model.stream(request, signal)[Symbol.asyncIterator]();
        return {
          [Symbol.asyncIterator]: () => ({
            next: () => inner.next().then(observe),
            return: (value?: unknown) => inner.return?.(value) ?? Promise.resolve({ done: true, value }),
          }),
        } as AsyncIterable<ModelStreamEvent>;
      },
    },
    last: () => last,
  };
}
