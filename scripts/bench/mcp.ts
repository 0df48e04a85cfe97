/**
 * MCP figures: concurrent stdio startup, `trellis mcp tools` against server-everything, the
 * per-call overhead of the full tool chain over a raw SDK callTool, and the pin check (#17).
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { runCli } from "../../lib/cli/mod.ts";
import {
  createMcpRuntime,
  type McpServerConfig,
  noUiElicitationResponder,
  resolveCatalog,
  serverConfigFromTable,
  type Tool,
  toolFingerprint,
  ToolPins,
} from "../../lib/mcp/mod.ts";
import { childEnv, type Platform, platform } from "../../lib/platform/mod.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const SLOW = new URL("../../fixtures/mcp/slow_init.pl", import.meta.url).pathname;
const EVERYTHING =
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url)
    .pathname;

/** A runtime over config-tier servers, as the app builds it, without UI or events. */
function benchRuntime(servers: McpServerConfig[], home: string) {
  return createMcpRuntime({
    platform,
    catalog: resolveCatalog(servers.map((config) => ({ tier: "config", source: "bench", config }))),
    events: () => {},
    cwd: home,
    home,
    elicitation: noUiElicitationResponder,
    approvalPolicy: "on-request",
  });
}

async function timeRuntime(count: number, home: string): Promise<number> {
  const servers = Array.from(
    { length: count },
    (_, i) => serverConfigFromTable(`s${i}`, { command: "perl", args: [SLOW, "1000"] }),
  );
  const runtime = benchRuntime(servers, home);
  const started = performance.now();
  runtime.start();
  await runtime.awaitStartup({ graceMs: 60_000 });
  const elapsed = performance.now() - started;
  await runtime.shutdown();
  return elapsed;
}

async function concurrentStartup(home: string): Promise<BenchRow[]> {
  const one = await timeRuntime(1, home);
  const ten = await timeRuntime(10, home);
  let sequential = 0;
  for (let i = 0; i < 10; i++) sequential += await timeRuntime(1, home);
  return [
    {
      name: "mcp: 1 stdio server (1 s initialize) ready",
      value: Math.round(one),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "mcp: 10 stdio servers (1 s initialize each) all ready, concurrent",
      value: Math.round(ten),
      unit: "ms",
      target: `<= 1.3 x one (${Math.round(one * 1.3)} ms)`,
      pass: ten <= one * 1.3,
    },
    {
      name: "mcp: same 10 servers started one after another",
      value: Math.round(sequential),
      unit: "ms",
      target: "reference",
      pass: true,
    },
  ];
}

async function bareSdkToolsList(): Promise<number> {
  const started = performance.now();
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({ command: "node", args: [EVERYTHING, "stdio"], stderr: "ignore" }),
  );
  await client.listTools();
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed;
}

async function cliToolsList(home: string): Promise<number> {
  await platform.fs.writeFileAtomic(
    `${home}/config.toml`,
    `[mcp_servers.everything]\ncommand = "node"\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n`,
  );
  const env = { ...childEnv(platform.envAll()), TRELLIS_HOME: home, TRELLIS_SYSTEM_DIR: `${home}/etc` };
  const quiet: Platform = {
    ...platform,
    env: (n) => env[n as keyof typeof env],
    envAll: () => ({ ...env }),
    cwd: () => home,
    writeStdout: () => Promise.resolve(),
    writeStderr: () => {},
    isTerminal: () => false,
  };
  const started = performance.now();
  const code = await runCli(["mcp", "tools", "everything"], quiet);
  if (code !== 0) throw new Error(`trellis mcp tools exited ${code}`);
  return performance.now() - started;
}

async function mcpTools(home: string): Promise<BenchRow[]> {
  const bare: number[] = [];
  const cli: number[] = [];
  for (let i = 0; i < 3; i++) {
    bare.push(await bareSdkToolsList());
    cli.push(await cliToolsList(home));
  }
  return [
    {
      name: "mcp: bare SDK client initialize + tools/list (server-everything)",
      value: Math.round(median(bare)),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "mcp: `trellis mcp tools` wall time (server-everything, in-process)",
      value: Math.round(median(cli)),
      unit: "ms",
      target: `<= 1.2 x bare (${Math.round(median(bare) * 1.2)} ms)`,
      pass: median(cli) <= median(bare) * 1.2,
    },
  ];
}

async function callOverhead(home: string): Promise<BenchRow[]> {
  const config = serverConfigFromTable("echo", { command: "perl", args: [SLOW, "0"] });
  const runtime = benchRuntime([config], home);
  runtime.start();
  await runtime.awaitStartup({ graceMs: 30_000 });
  const step = runtime.captureStep();
  const tool = step.tools.find((t) => t.name === "mcp__echo__noop")!;
  const client = runtime.manager.servers.get("echo")!.connection.client!;
  const ctx = {
    callId: "b",
    cwd: home,
    signal: new AbortController().signal,
    emit: () => {},
    escalated: false,
  };
  const raw: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < 300; i++) {
    let t = performance.now();
    await client.callTool({ name: "noop", arguments: {} });
    raw.push(performance.now() - t);
    t = performance.now();
    const args = tool.parseArguments("{}");
    tool.approval(args, { cwd: home });
    await tool.run(args, ctx);
    full.push(performance.now() - t);
  }
  step.release();
  await runtime.shutdown();
  const overhead = median(full.slice(50)) - median(raw.slice(50));
  return [
    {
      name: "mcp: raw SDK callTool round trip (median)",
      value: Number(median(raw.slice(50)).toFixed(3)),
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "mcp: tool-call overhead of the full chain above raw callTool (median)",
      value: Number(overhead.toFixed(3)),
      unit: "ms",
      target: "<= 1 ms",
      pass: overhead <= 1,
    },
  ];
}

const FIXTURE = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;

/** Issue 7: a 120 s tool reporting progress every 5 s must finish under a 60 s tool timeout. */
async function longCall(home: string): Promise<BenchRow[]> {
  const config = serverConfigFromTable("long", { command: "node", args: [FIXTURE], tool_timeout_sec: 60 });
  const runtime = benchRuntime([config], home);
  runtime.start();
  try {
    await runtime.awaitStartup({ graceMs: 30_000 });
    const step = runtime.captureStep();
    const tool = step.tools.find((t) => t.name === "mcp__long__progress")!;
    const started = performance.now();
    let updates = 0;
    const result = await tool.run({ steps: 24, ms: 5000 }, {
      callId: "bench",
      cwd: home,
      signal: new AbortController().signal,
      emit: (e) => void (e.type === "mcp.tool_progress" && updates++),
      escalated: false,
    });
    const seconds = (performance.now() - started) / 1000;
    step.release();
    const ok = result.status === "success" && updates === 24;
    return [{
      name: "mcp: 120 s tool with progress every 5 s under a 60 s tool timeout",
      value: Math.round(seconds),
      unit: "s",
      target: "completes (success, 24 progress events)",
      pass: ok,
    }];
  } finally {
    await runtime.shutdown();
  }
}

/** A tool definition of a typical size (~400 bytes of JSON). */
function benchTool(i: number, variant = ""): Tool {
  return {
    name: `tool_${i}`,
    description: `Does thing ${i}${variant}. `.repeat(8),
    inputSchema: {
      type: "object",
      properties: { path: { type: "string", description: "A path" }, limit: { type: "number" } },
      required: ["path"],
    },
    annotations: { readOnlyHint: true },
  } as Tool;
}

/**
 * Issue #17: the pin check over 1,000 tools. Cold = fresh definitions (canonical JSON + sha256 of
 * each, then the lookup), as when a tool list arrives; warm = the same objects again, as every
 * later step checks them. Best of 20 runs; one in ten definitions differs from its pin.
 */
async function pinCheck(home: string): Promise<BenchRow[]> {
  const pins = await ToolPins.load(platform.fs, home);
  await pins.record("s", Array.from({ length: 1000 }, (_, i) => benchTool(i)), { firstUse: true });
  let cold = Infinity;
  let warm = Infinity;
  for (let run = 0; run < 20; run++) {
    const tools = Array.from({ length: 1000 }, (_, i) => benchTool(i, i % 10 === 0 ? " (changed)" : ""));
    let started = performance.now();
    let changed = 0;
    for (const tool of tools) if (pins.stateOf("s", tool) === "changed") changed++;
    cold = Math.min(cold, performance.now() - started);
    started = performance.now();
    for (const tool of tools) pins.stateOf("s", tool);
    warm = Math.min(warm, performance.now() - started);
    if (changed !== 100) throw new Error(`pin check found ${changed} changed tools, expected 100`);
  }
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 8000; i++) properties[`field_${i}`] = { type: "string", description: "d".repeat(110) };
  let big = Infinity;
  for (let run = 0; run < 5; run++) {
    const huge = { name: "huge", inputSchema: { type: "object", properties } } as Tool;
    const started = performance.now();
    toolFingerprint(huge);
    big = Math.min(big, performance.now() - started);
  }
  return [
    {
      name: "mcp: pin check, 1,000 fresh tool definitions (hash + compare), per 100 tools",
      value: Number((cold / 10).toFixed(3)),
      unit: "ms",
      target: "<= 1 ms per 100 tools",
      pass: cold / 10 <= 1,
    },
    {
      name: "mcp: pin check, the same 1,000 tools at a later step (cached hashes), per 100 tools",
      value: Number((warm / 10).toFixed(3)),
      unit: "ms",
      target: "<= 1 ms per 100 tools",
      pass: warm / 10 <= 1,
    },
    {
      name: "mcp: fingerprint of one tool with a 1.2 MB input schema",
      value: Number(big.toFixed(1)),
      unit: "ms",
      target: "<= 100 ms",
      pass: big <= 100,
    },
  ];
}

export async function bench(): Promise<BenchRow[]> {
  const home = await platform.fs.makeTempDir("trellis-bench-mcp-");
  try {
    // The long call only waits; run it beside the CPU-bound figures instead of after them.
    const long = longCall(home);
    const rows = [
      ...await concurrentStartup(home),
      ...await mcpTools(home),
      ...await callOverhead(home),
      ...await pinCheck(home),
    ];
    return [...rows, ...await long];
  } finally {
    await platform.fs.remove(home, { recursive: true });
  }
}

if (import.meta.main) console.table(await bench());
