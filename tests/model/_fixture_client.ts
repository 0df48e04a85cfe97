/** Shared by the model tests: a fixture server per test, a provider pointing at it, stream collection. */
import {
  type FixtureModelServer,
  type FixtureScript,
  startFixtureModelServer,
} from "../../scripts/fixture_model_server.ts";
import type { ResolvedProvider, WireApi } from "../../lib/model/mod.ts";
import type { ModelRequest, ModelStreamEvent } from "../../lib/shared/mod.ts";

export const WIRES: WireApi[] = ["responses", "chat", "messages"];

/** Each wire's endpoint below the base URL. */
export const WIRE_PATHS: Record<WireApi, string> = {
  responses: "responses",
  chat: "chat/completions",
  messages: "messages",
};

export function fixture(name: string): URL {
  return new URL(`../../fixtures/models/${name}.yaml`, import.meta.url);
}

export async function withServer(
  script: string | FixtureScript,
  run: (server: FixtureModelServer) => Promise<void>,
): Promise<void> {
  const server = await startFixtureModelServer({
    script: typeof script === "string" ? fixture(script) : script,
  });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

export function providerFor(
  baseUrl: string,
  wireApi: WireApi,
  extra: Partial<ResolvedProvider> = {},
): ResolvedProvider {
  return { id: "fixture", name: "Fixture", baseUrl, wireApi, headers: {}, queryParams: {}, ...extra };
}

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "fixture-model",
    instructions: "Be brief.",
    input: [{ type: "message", role: "user", content: "hi" }],
    tools: [],
    parallelToolCalls: true,
    ...overrides,
  };
}

export async function collect(
  stream: AsyncIterable<ModelStreamEvent>,
): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The error a stream ends with (fails the test when it completes instead). */
export async function streamError(stream: AsyncIterable<ModelStreamEvent>): Promise<unknown> {
  try {
    await collect(stream);
  } catch (error) {
    return error;
  }
  throw new Error("expected the stream to fail");
}

/** The events without ids the fixture generates, so whole objects can be compared. */
export function withoutIds(events: ModelStreamEvent[]): unknown[] {
  return events.map((event) => {
    if (event.type !== "item_done") return event;
    const { id: _id, ...item } = event.item as { id?: string };
    if ("callId" in item) return { ...event, item: { ...item, callId: "<call>" } };
    return { ...event, item };
  });
}
