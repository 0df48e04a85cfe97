import assert from "node:assert/strict";
import { callManagerTool, resolveCatalog } from "../../lib/mcp/mod.ts";
import type { ToolDefinition as ToolDefinitionLike } from "../../lib/shared/mod.ts";
import { fixture, runContext, startRuntime, stdio } from "./_helpers.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";

const FX = fixture("fixture_server.mjs");
const SLOW = fixture("slow_init.mjs");

function tool(tools: ToolDefinitionLike[], name: string): ToolDefinitionLike {
  const found = tools.find((t) => t.name === name);
  assert.ok(found, `no tool ${name} in ${tools.map((t) => t.name).join(", ")}`);
  return found;
}

async function call(tools: ToolDefinitionLike[], name: string, args: unknown, events?: TrellisEventBody[]) {
  const t = tool(tools, name);
  const { ctx, events: own } = runContext();
  const result = await t.run(t.parseArguments(args), ctx);
  events?.push(...own);
  return result;
}

Deno.test("createMcpRuntime() starts servers concurrently and isolates hostile ones (MCP-6/9/11/14)", async (t) => {
  const { runtime, events } = await startRuntime([
    stdio("fx", [FX, "echo"], {
      tool_timeout_sec: 0.5,
      disabled_tools: ["pid"],
      tools: { echo: { approval_mode: "prompt" } },
    }),
    stdio("never", [SLOW, "never"], { startup_timeout_sec: 0.5 }),
    stdio("garbage", [FX, "garbage"]),
    stdio("cursor", [FX, "cursor"]),
  ], { budget: 1000 });
  // Every server settles within its own startup timeout (30 s by default); on a loaded machine node
  // may need more than a few seconds to start three of them, so the grace is not the limit here.
  await runtime.awaitStartup({ graceMs: 60_000 });
  const step = runtime.captureStep();
  try {
    await t.step("never-answering server fails after its startup timeout, others are ready", () => {
      const complete = events.find((e) => e.type === "mcp.startup_complete");
      assert.deepStrictEqual(complete, {
        type: "mcp.startup_complete",
        ready: ["cursor", "fx", "garbage"],
        failed: [{ server: "never", error: "startup timed out after 0.5 s" }],
        cancelled: [],
      });
      assert.ok(events.some((e) => e.type === "warning" && e.subject === "garbage"));
    });
    await t.step(
      "hidden and filtered tools are not declared; forged calls are rejected (MCP-5/11)",
      async () => {
        const names = step.tools.map((x) => x.name);
        assert.ok(!names.includes("mcp__fx__hidden") && !names.includes("mcp__fx__pid"));
        assert.ok(names.includes("mcp__garbage__pid"));
        const listing = runtime.manager.servers.get("fx")!;
        const forged = await callManagerTool(runtime.manager, { server: "fx", tool: "pid", args: {} }, {
          callId: "c",
          signal: new AbortController().signal,
        }, { events: () => {} });
        assert.deepStrictEqual(forged, {
          output: "tool 'pid' is disabled for MCP server 'fx'",
          status: "error",
        });
        assert.ok(listing);
      },
    );
    await t.step("approval mode and parallel flags come from the server policy (MCP-5/13)", () => {
      const echo = tool(step.tools, "mcp__fx__echo");
      assert.deepStrictEqual(echo.approval({}, { cwd: "/" }), {
        kind: "required",
        reason: "MCP tool 'echo' of server 'fx' needs approval",
        policyOnly: true,
      });
      assert.deepStrictEqual(tool(step.tools, "mcp__garbage__echo").approval({}, { cwd: "/" }), {
        kind: "none",
      });
      assert.deepStrictEqual(echo.parallel, false);
      assert.deepStrictEqual(echo.source, { kind: "mcp", server: "fx", tool: "echo" });
    });
    await t.step("a hung call errors after tool_timeout_sec and the server stays usable", async () => {
      const hung = await call(step.tools, "mcp__fx__sleep", { ms: 5000 });
      assert.deepStrictEqual(hung.status, "error");
      assert.match(hung.output, /timed out/i);
      assert.deepStrictEqual(await call(step.tools, "mcp__fx__echo", { text: "still here" }), {
        output: "still here",
        status: "success",
      });
    });
    await t.step(
      "progress notifications keep a call longer than tool_timeout_sec alive (4 × 200 ms > 0.5 s)",
      async () => {
        const seen: TrellisEventBody[] = [];
        const result = await call(step.tools, "mcp__fx__progress", { steps: 4, ms: 200 }, seen);
        assert.deepStrictEqual(result, { output: "done 4", status: "success" });
        const progress = seen.flatMap((e) => e.type === "mcp.tool_progress" ? [e.progress] : []);
        assert.deepStrictEqual(progress, [1, 2, 3, 4]);
      },
    );
    await t.step("a 5 MB result is cut head+tail to the budget", async () => {
      const big = await call(step.tools, "mcp__garbage__big", {});
      assert.deepStrictEqual(big, {
        output: `${"A".repeat(500)}\n…[4999000 bytes truncated]…\n${"B".repeat(500)}`,
        status: "success",
      });
    });
    await t.step(
      "a server repeating its cursor is dropped from the aggregate with a warning (MCP-9/14)",
      async () => {
        const seen: TrellisEventBody[] = [];
        const all = await call(step.tools, "list_mcp_resources", {}, seen);
        assert.deepStrictEqual(JSON.parse(all.output), { resources: [] });
        assert.ok(
          seen.some((e) =>
            e.type === "warning" && /resources\/list returned duplicate cursor/.test(e.message)
          ),
        );
        const one = await call(step.tools, "list_mcp_resources", { server: "cursor" });
        assert.deepStrictEqual(JSON.parse(one.output), {
          server: "cursor",
          resources: [{ server: "cursor", uri: "loop://start", name: "loop" }],
          nextCursor: "same",
        });
      },
    );
    await t.step("resource tool arguments are validated before anything is sent (MCP-14)", () => {
      const list = tool(step.tools, "list_mcp_resources");
      assert.throws(
        () => list.parseArguments({ cursor: "c" }),
        /cursor can only be used when a server is specified/,
      );
      const read = tool(step.tools, "read_mcp_resource");
      assert.throws(() => read.parseArguments({ server: "fx", uri: " " }), /uri must be a non-empty string/);
      assert.throws(() => read.parseArguments({ uri: "x://" }), /server/);
    });
    await t.step(
      "a server that dies mid-call gives an error output and shows failed; the rest go on",
      async () => {
        const crashed = await call(step.tools, "mcp__garbage__crash", {});
        assert.deepStrictEqual(crashed.status, "error");
        assert.deepStrictEqual(runtime.manager.servers.get("garbage")!.connection.status.state, "failed");
        const after = await call(step.tools, "mcp__garbage__echo", { text: "x" });
        assert.deepStrictEqual(after.status, "error");
        assert.deepStrictEqual((await call(step.tools, "mcp__fx__echo", { text: "ok" })).output, "ok");
      },
    );
  } finally {
    step.release();
    await runtime.shutdown();
  }
});

Deno.test("awaitStartup() throws a UsageError naming every failed required server (MCP-7)", async () => {
  const { runtime } = await startRuntime([
    stdio("a", [SLOW, "never"], { startup_timeout_sec: 0.3, required: true }),
    stdio("b", ["/nonexistent/server.js"], { required: true }),
    stdio("c", [SLOW, "never"], { startup_timeout_sec: 0.3 }),
  ]);
  try {
    await assert.rejects(runtime.awaitStartup({ graceMs: 100 }), (error: Error & { exitCode?: number }) => {
      assert.deepStrictEqual(error.exitCode, 2);
      assert.match(
        error.message,
        /^Cannot start required MCP servers "a" \(startup timed out after 0.3 s\), "b" \(/,
      );
      return true;
    });
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("createMcpRuntime() routes an elicitation sent during initialize of a required server (MCP-7/15)", async () => {
  const asked: unknown[] = [];
  const { runtime, events } = await startRuntime([stdio("el", [FX, "elicit-init"], { required: true })], {
    elicitation: {
      respond: (request) => {
        asked.push(request);
        return Promise.resolve({ action: "accept", content: { workspace: "w1" } });
      },
    },
  });
  try {
    await runtime.awaitStartup({ graceMs: 0 });
    assert.deepStrictEqual(asked, [{
      server: "el",
      id: "trellis-elicitation-1",
      mode: "form",
      message: "Pick a workspace",
      schema: { type: "object", properties: { workspace: { type: "string" } } },
      url: undefined,
    }]);
    const step = runtime.captureStep();
    assert.deepStrictEqual(await call(step.tools, "mcp__el__elicited", {}), {
      output: '{"action":"accept","content":{"workspace":"w1"}}',
      status: "success",
    });
    step.release();
    assert.deepStrictEqual(
      events.filter((e) => e.type === "mcp.elicitation").map((e) => (e as { action?: string }).action),
      [
        undefined,
        "accept",
      ],
    );
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("refresh() keeps a call in flight on the old process and serves the next step from the new one (MCP-8)", async () => {
  const first = stdio("fx", [FX, "echo"]);
  const { runtime } = await startRuntime([first]);
  try {
    await runtime.awaitStartup({ graceMs: 10_000 });
    const stepA = runtime.captureStep();
    const oldManager = runtime.manager;
    const oldPid = (await call(stepA.tools, "mcp__fx__pid", {})).output;
    const inFlight = call(stepA.tools, "mcp__fx__sleep", { ms: 600 });
    // Same server with a different env: a new identity, so a new process. Required, so a strict
    // refresh waits for it (optional servers never hold a refresh up).
    const changed = stdio("fx", [FX, "echo"], { env: { GENERATION: "2" }, required: true });
    await runtime.refresh(resolveCatalog([{ tier: "config", source: "test", config: changed }]), {
      strict: true,
    });
    const stepB = runtime.captureStep();
    const newPid = (await call(stepB.tools, "mcp__fx__pid", {})).output;
    assert.notDeepStrictEqual(newPid, oldPid);
    assert.deepStrictEqual(await inFlight, { output: "slept 600", status: "success" });
    assert.deepStrictEqual(oldManager.closed, undefined);
    stepA.release();
    await oldManager.closed;
    assert.throws(() => Deno.kill(Number(oldPid), "SIGCONT"));
    // A policy-only change reuses the running client.
    const policy = stdio("fx", [FX, "echo"], {
      env: { GENERATION: "2" },
      required: true,
      disabled_tools: ["sleep"],
    });
    await runtime.refresh(resolveCatalog([{ tier: "config", source: "test", config: policy }]), {
      strict: false,
    });
    const stepC = runtime.captureStep();
    assert.deepStrictEqual((await call(stepC.tools, "mcp__fx__pid", {})).output, newPid);
    assert.ok(!stepC.tools.some((x) => x.name === "mcp__fx__sleep"));
    stepB.release();
    stepC.release();
  } finally {
    await runtime.shutdown();
  }
});

Deno.test("createMcpRuntime() rejects a server bound to an unknown environment (MCP-16)", async () => {
  const { runtime, events } = await startRuntime([
    stdio("remote_env", [fixture("fixture_server.mjs"), "echo"], { experimental_environment: "devbox" }),
  ]);
  try {
    await runtime.awaitStartup({ graceMs: 5_000 });
    const failed = events.find((e) => e.type === "mcp.server_status" && e.status === "failed");
    assert.match(
      failed?.type === "mcp.server_status" ? failed.error ?? "" : "",
      /unknown environment "devbox"/,
    );
  } finally {
    await runtime.shutdown();
  }
});
