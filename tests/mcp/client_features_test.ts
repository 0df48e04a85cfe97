import assert from "node:assert/strict";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { platform } from "../../lib/platform/mod.ts";
import { type SamplingRequest, shouldDeferTools, stderrLogPath } from "../../lib/mcp/mod.ts";
import type { ToolDefinition, TrellisEventBody } from "../../lib/shared/mod.ts";
import { fixture, runContext, startRuntime, stdio } from "./_helpers.ts";

const FX = fixture("fixture_server.mjs");

async function call(tools: ToolDefinition[], name: string, args: unknown, signal?: AbortSignal) {
  const tool = tools.find((t) => t.name === name);
  assert.ok(tool, `no tool ${name} in ${tools.map((t) => t.name).join(", ")}`);
  const { ctx, events } = runContext();
  const result = await tool.run(tool.parseArguments(args), signal ? { ...ctx, signal } : ctx);
  return { ...result, events };
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !await check(); i++) await new Promise((r) => setTimeout(r, 25));
}

Deno.test("callManagerTool() keeps a 3 s call alive under a 1 s tool timeout while progress arrives every 200 ms (MCP-19)", async () => {
  const { runtime } = await startRuntime([stdio("fx", [FX], { tool_timeout_sec: 1 })]);
  try {
    await runtime.awaitStartup({ graceMs: 10_000 });
    const step = runtime.captureStep();
    const result = await call(step.tools, "mcp__fx__progress", { steps: 15, ms: 200 });
    assert.deepStrictEqual({ output: result.output, status: result.status }, {
      output: "done 15",
      status: "success",
    });
    const progress = result.events.flatMap((e) => e.type === "mcp.tool_progress" ? [e.progress] : []);
    assert.deepStrictEqual(progress, Array.from({ length: 15 }, (_, i) => i + 1));
    assert.deepStrictEqual(result.events[0], {
      type: "mcp.tool_progress",
      server: "fx",
      tool: "progress",
      call_id: "call-1",
      progress: 1,
      total: 15,
    });
    step.release();
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("callManagerTool() sends notifications/cancelled when the call's signal aborts (MCP-19)", async () => {
  const { runtime, home } = await startRuntime([stdio("fx", [FX])]);
  try {
    await runtime.awaitStartup({ graceMs: 10_000 });
    const step = runtime.captureStep();
    const abort = new AbortController();
    const pending = call(step.tools, "mcp__fx__wait_cancel", {}, abort.signal);
    await new Promise((r) => setTimeout(r, 200));
    abort.abort();
    const result = await pending;
    assert.deepStrictEqual(result.status, "aborted", result.output);
    const log = stderrLogPath(home, "fx");
    await waitFor(async () => (await platform.fs.readTextFile(log).catch(() => "")).includes("cancelled"));
    assert.match(await platform.fs.readTextFile(log), /cancelled \d+/);
    step.release();
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("captureStep() carries a list_changed tool list from the next step on, never the current one", async () => {
  const { runtime } = await startRuntime([stdio("fx", [FX])]);
  try {
    await runtime.awaitStartup({ graceMs: 10_000 });
    const first = runtime.captureStep();
    const before = first.tools.map((t) => t.name);
    assert.deepStrictEqual((await call(first.tools, "mcp__fx__add_tool", {})).output, "added_1");
    await runtime.awaitToolLists();
    await waitFor(() =>
      Promise.resolve(runtime.captureStep().tools.some((t) => t.name === "mcp__fx__added_1"))
    );
    await runtime.awaitToolLists();
    assert.deepStrictEqual(first.tools.map((t) => t.name), before);
    const second = runtime.captureStep();
    assert.deepStrictEqual((await call(second.tools, "mcp__fx__added_1", {})).output, "added_1");
    first.release();
    second.release();
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("createMcpRuntime({ roots }) answers roots/list and setRoots() sends roots/list_changed", async () => {
  const { runtime, home } = await startRuntime([stdio("fx", [FX])], {
    extra: { roots: ["/work/a", "/tmp/b"] },
  });
  try {
    await runtime.awaitStartup({ graceMs: 10_000 });
    const step = runtime.captureStep();
    assert.deepStrictEqual(JSON.parse((await call(step.tools, "mcp__fx__roots", {})).output), {
      roots: [{ uri: "file:///work/a", name: "a" }, { uri: "file:///tmp/b", name: "b" }],
    });
    await runtime.setRoots([home]);
    const log = stderrLogPath(home, "fx");
    await waitFor(async () =>
      (await platform.fs.readTextFile(log).catch(() => "")).includes("roots changed")
    );
    assert.match(await platform.fs.readTextFile(log), /roots changed/);
    assert.deepStrictEqual(JSON.parse((await call(step.tools, "mcp__fx__roots", {})).output), {
      roots: [{ uri: pathToFileURL(home).href, name: path.basename(home) }],
    });
    step.release();
  } finally {
    await runtime.shutdown();
  }
});

function samplingRuntime(confirm?: (server: string, summary: string) => Promise<boolean>) {
  const requests: SamplingRequest[] = [];
  const answer = (request: SamplingRequest) => {
    requests.push(request);
    return Promise.resolve({
      role: "assistant" as const,
      content: { type: "text" as const, text: `answer ${requests.length}` },
      model: "fixture",
      usage: { inputTokens: 10, outputTokens: 40 },
    });
  };
  return { requests, sampling: { handler: answer, ...(confirm ? { confirm } : {}) } };
}

const samplingEvents = (events: TrellisEventBody[]) => events.filter((e) => e.type === "mcp.sampling");

Deno.test("sampling/createMessage follows the server policy and stops at the token budget (MCP sampling)", async (t) => {
  const asked: string[] = [];
  const { requests, sampling } = samplingRuntime((server, summary) => {
    asked.push(summary);
    return Promise.resolve(server === "prompted");
  });
  const { runtime, events } = await startRuntime([
    stdio("allowed", [FX], { sampling: "allow", sampling_max_tokens: 180 }),
    stdio("denied", [FX], { sampling: "deny" }),
    stdio("prompted", [FX]),
    stdio("refused", [FX]),
  ], { extra: { sampling } });
  try {
    await runtime.awaitStartup({ graceMs: 10_000 });
    const step = runtime.captureStep();
    await t.step(
      "a looping server is stopped by its budget (3 × 50 tokens fit in 180, a 4th may need 43 more)",
      async () => {
        const out = JSON.parse(
          (await call(step.tools, "mcp__allowed__sample_loop", { times: 10, maxTokens: 40 })).output,
        );
        assert.deepStrictEqual(out.answers, ["answer 1", "answer 2", "answer 3"]);
        assert.match(
          out.refused,
          /sampling budget exceeded: 150 of 180 tokens used, this request may need 43/,
        );
        assert.deepStrictEqual(
          samplingEvents(events).slice(0, 3).map((e) => e.type === "mcp.sampling" && e.tokens),
          [
            50,
            50,
            50,
          ],
        );
        assert.deepStrictEqual(requests[0], {
          server: "allowed",
          messages: [{ role: "user", content: { type: "text", text: "question 0" } }],
          maxTokens: 40,
        });
      },
    );
    await t.step("deny never offers the capability; prompt asks the person", async () => {
      const denied = await call(step.tools, "mcp__denied__sample_loop", { times: 1, maxTokens: 10 });
      assert.match(JSON.parse(denied.output).refused, /Method not found/);
      const prompted = JSON.parse(
        (await call(step.tools, "mcp__prompted__sample_loop", { times: 1, maxTokens: 10 })).output,
      );
      assert.deepStrictEqual(prompted, { answers: ["answer 4"] });
      const refused = JSON.parse(
        (await call(step.tools, "mcp__refused__sample_loop", { times: 1, maxTokens: 10 })).output,
      );
      assert.match(refused.refused, /sampling was declined/);
      assert.deepStrictEqual(asked, [
        "MCP server 'prompted' asks the model for up to 10 tokens: question 0",
        "MCP server 'refused' asks the model for up to 10 tokens: question 0",
      ]);
      assert.deepStrictEqual(samplingEvents(events).at(-1), {
        type: "mcp.sampling",
        server: "refused",
        decision: "denied",
        reason: "sampling was declined",
      });
    });
    await t.step("a request larger than the whole budget is refused before the model is asked", async () => {
      const before = requests.length;
      const big = JSON.parse(
        (await call(step.tools, "mcp__prompted__sample_loop", { times: 1, maxTokens: 50_000 })).output,
      );
      assert.match(
        big.refused,
        /sampling budget exceeded: 50 of 10000 tokens used, this request may need 50003/,
      );
      assert.deepStrictEqual(requests.length, before);
    });
    step.release();
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("sampling with policy prompt is denied when nobody can confirm (exec without a TTY)", async () => {
  const { sampling } = samplingRuntime();
  const { runtime, events } = await startRuntime([stdio("fx", [FX])], { extra: { sampling } });
  try {
    await runtime.awaitStartup({ graceMs: 10_000 });
    const step = runtime.captureStep();
    const out = JSON.parse(
      (await call(step.tools, "mcp__fx__sample_loop", { times: 1, maxTokens: 10 })).output,
    );
    assert.match(out.refused, /sampling needs approval and nobody can give it/);
    assert.deepStrictEqual(samplingEvents(events), [{
      type: "mcp.sampling",
      server: "fx",
      decision: "denied",
      reason: "sampling needs approval and nobody can give it",
    }]);
    step.release();
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("captureStep() declares search_tools instead of MCP tools and unlocks found ones for the next step (MCP-12)", async (t) => {
  const { runtime } = await startRuntime([stdio("fx", [FX])], { extra: { toolSearch: { mode: "on" } } });
  try {
    await runtime.awaitStartup({ graceMs: 10_000 });
    const first = runtime.captureStep();
    await t.step("only search_tools and the resource tools are declared", () => {
      assert.deepStrictEqual(first.tools.map((x) => x.name), [
        "search_tools",
        "list_mcp_resources",
        "list_mcp_resource_templates",
        "read_mcp_resource",
      ]);
    });
    await t.step("a search returns schemas and unlocks the match from the next step", async () => {
      const found = JSON.parse(
        (await call(first.tools, "search_tools", { query: "echoes text", limit: 1 })).output,
      );
      assert.deepStrictEqual(found, {
        tools: [{
          name: "mcp__fx__echo",
          description: "Echoes text",
          parameters: found.tools[0].parameters,
        }],
        note: "These tools are callable from your next step.",
      });
      assert.ok(!first.tools.some((x) => x.name === "mcp__fx__echo"));
      const second = runtime.captureStep();
      assert.deepStrictEqual((await call(second.tools, "mcp__fx__echo", { text: "hi" })).output, "hi");
      second.release();
    });
    first.release();
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("shouldDeferTools() defers in auto mode only when declarations exceed the context share (MCP-12)", () => {
  const tool = { name: "mcp__s__t", description: "x".repeat(380), parameters: {} } as ToolDefinition;
  const tools = [tool, tool]; // ~215 tokens together
  assert.deepStrictEqual([
    shouldDeferTools(tools, { mode: "auto", contextWindow: 2000 }),
    shouldDeferTools(tools, { mode: "auto", contextWindow: 8000 }),
    shouldDeferTools(tools, { mode: "auto", contextWindow: 8000, share: 0.01 }),
    shouldDeferTools(tools, { mode: "auto" }),
    shouldDeferTools(tools, { mode: "off", contextWindow: 10 }),
    shouldDeferTools([], { mode: "on" }),
  ], [true, false, true, false, false, false]);
});
