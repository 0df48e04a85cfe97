import assert from "node:assert/strict";
import { createModelClient } from "../../lib/model/mod.ts";
import { childEnv, platform } from "../../lib/platform/mod.ts";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { collect, fixture, providerFor, request, withServer } from "./_fixture_client.ts";

const signal = () => new AbortController().signal;

type Final = { call: string; arguments: unknown } | { text: string };

async function finalItems(url: string, wire: "responses" | "chat"): Promise<Final[]> {
  const events = await collect(createModelClient(providerFor(url, wire)).stream(request(), signal()));
  return events.flatMap((event): Final[] => {
    if (event.type !== "item_done") return [];
    const item = event.item;
    if (item.type === "function_call") return [{ call: item.name, arguments: JSON.parse(item.arguments) }];
    return item.type === "message" ? [{ text: item.content }] : [];
  });
}

Deno.test("startFixtureModelServer() replays the demo script in order across wire formats", async () => {
  await withServer("read_and_edit", async (server) => {
    assert.deepEqual(await finalItems(server.url, "responses"), [{
      call: "read_file",
      arguments: { path: "notes.md" },
    }]);
    assert.deepEqual(await finalItems(server.url, "chat"), [
      { call: "edit_file", arguments: { path: "notes.md", old_string: "TODO", new_string: "DONE" } },
    ]);
    assert.deepEqual(await finalItems(server.url, "responses"), [{
      text: "I read notes.md and replaced TODO with DONE.",
    }]);
    assert.deepEqual(await finalItems(server.url, "responses"), [{ text: "(fixture script exhausted)" }]);
    assert.equal(server.requests.length, 4);
  });
});

Deno.test("startFixtureModelServer() repeats a step when it has repeat: N", async () => {
  await withServer({
    steps: [{ tool_calls: [{ name: "read_file", arguments: '{"path":"x"}' }], repeat: 3 }, { text: "end" }],
  }, async (server) => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await finalItems(server.url, "chat"));
    const call = [{ call: "read_file", arguments: { path: "x" } }];
    assert.deepEqual(results, [call, call, call, [{ text: "end" }]]);
  });
});

Deno.test("startFixtureModelServer() appends each request body to the log when log is set", async () => {
  const dir = await platform.fs.makeTempDir("fixture_log_");
  const log = `${dir}/requests.jsonl`;
  const server = await startFixtureModelServer({ script: fixture("text_reply"), log });
  try {
    await collect(createModelClient(providerFor(server.url, "responses")).stream(request(), signal()));
    const lines = (await platform.fs.readTextFile(log)).trim().split("\n").map((line) =>
      JSON.parse(line) as { model: string }
    );
    assert.deepEqual(lines, server.requests);
    assert.equal(lines[0].model, "fixture-model");
  } finally {
    await server.close();
    await platform.fs.remove(dir, { recursive: true });
  }
});

Deno.test("startFixtureModelServer() rejects a script when a step has an unknown key", async () => {
  await assert.rejects(
    startFixtureModelServer({ script: [{ txt: "typo" } as never] }),
    /Cannot load fixture script/,
  );
});

Deno.test("fixture_model_server.ts prints the base URL first and serves requests when run as a CLI", async () => {
  const script = new URL("../../scripts/fixture_model_server.ts", import.meta.url).pathname;
  const child = platform.spawn({
    cmd: [
      platform.execPath(),
      "run",
      "-A",
      script,
      "--script",
      fixture("text_reply").pathname,
      "--port",
      "0",
    ],
    env: childEnv(platform.envAll(), { passThrough: ["DENO_DIR"] }),
  });
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const chunk = await reader.read();
    if (chunk.done) break;
    out += chunk.value;
  }
  try {
    const url = out.split("\n")[0];
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.deepEqual(await finalItems(url, "chat"), [{ text: "Hello from the fixture model." }]);
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await reader.cancel();
    await child.stderr.cancel();
  }
});

Deno.test("startFixtureModelServer() reports each request's serving time once its response is out (onServed)", async () => {
  const served: number[] = [];
  const server = await startFixtureModelServer({
    script: [{ text: "one", event_delay_ms: 20 }, { fail: { status: 500, times: 1 }, delay_ms: 50 }],
    onServed: (ms) => served.push(ms),
  });
  try {
    assert.deepEqual(await finalItems(server.url, "responses"), [{ text: "one" }]);
    const failed = await fetch(`${server.url}/responses`, { method: "POST", body: "{}" });
    await failed.text();
    assert.equal(failed.status, 500);
  } finally {
    await server.close();
  }
  assert.equal(served.length, 2);
  // The streamed answer waits event_delay_ms between its events, so it took at least that long.
  assert.ok(served[0] >= 20, `streamed response served in ${served[0]} ms`);
  // The failure is answered after its delay_ms: its time is measured from the request's arrival too
  // (a timer may fire a millisecond early by performance.now(), hence the margin).
  assert.ok(served[1] >= 45, `failed response served in ${served[1]} ms`);
});

Deno.test("startFixtureModelServer() refuses reasoning items a store: false server could not resolve, as the API does", async () => {
  await withServer([{ text: "a" }, { text: "b" }, { text: "c" }], async (server) => {
    const post = (input: unknown[]) =>
      fetch(`${server.url}/responses`, {
        method: "POST",
        body: JSON.stringify({ model: "m", store: false, stream: true, input }),
      }).then(async (response) => ({ status: response.status, text: await response.text() }));
    const withId = await post([{ type: "reasoning", id: "rs_1", summary: [], encrypted_content: "e" }]);
    const withoutContent = await post([{ type: "reasoning", summary: [] }]);
    const sound = await post([{ type: "reasoning", summary: [], encrypted_content: "e" }]);
    assert.deepEqual([withId.status, withoutContent.status, sound.status], [400, 400, 200]);
    assert.match(withId.text, /Item with id 'rs_1' not found/);
  });
});

Deno.test("startFixtureModelServer() holds a response mid-stream while hold() has not resolved", async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  const seen: number[] = [];
  const server = await startFixtureModelServer({
    script: [{ text: "one two three" }],
    hold: (request, chunk) => {
      seen.push(chunk);
      return request === 0 && chunk === 2 ? held : undefined;
    },
  });
  try {
    const response = await fetch(`${server.url}/responses`, { method: "POST", body: "{}" });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("output_item.added")) text += (await reader.read()).value;
    assert.doesNotMatch(text, /output_text\.delta/);
    release();
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    assert.match(text, /response\.completed/);
    assert.deepEqual(seen.slice(0, 3), [0, 1, 2]);
  } finally {
    await server.close();
  }
});
