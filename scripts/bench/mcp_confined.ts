/**
 * #17 item 2 figure: a confined stdio MCP server's start (spawn + initialize + tools/list) costs at
 * most 15 ms over the same server unconfined. Runs interleave (unconfined, confined, …) so drift
 * hits both; medians of each, and their difference, are reported. The server is the dependency-free
 * Perl fixture with no delay, so the difference is bwrap's and the profile's, not an interpreter's.
 */
import { mcpConfinement } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import {
  createMcpRuntime,
  type McpServerConfig,
  noUiElicitationResponder,
  resolveCatalog,
  serverConfigFromTable,
} from "../../lib/mcp/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const SERVER = new URL("../../fixtures/mcp/slow_init.pl", import.meta.url).pathname;
const RUNS = 30;
const TARGET_MS = 15;

async function startOnce(
  config: McpServerConfig,
  home: string,
  ws: string,
  confine: ReturnType<typeof mcpConfinement>,
): Promise<number> {
  const started = performance.now();
  const runtime = createMcpRuntime({
    platform,
    catalog: resolveCatalog([{ tier: "config", source: "bench", config }]),
    events: () => {},
    cwd: ws,
    home,
    elicitation: noUiElicitationResponder,
    approvalPolicy: "on-request",
    confine,
  });
  runtime.start();
  await runtime.awaitStartup({ graceMs: 30_000 });
  const elapsed = performance.now() - started;
  const status = runtime.manager.servers.get(config.name)!.connection.status;
  await runtime.shutdown();
  if (status.state !== "ready") throw new Error(`server did not start: ${JSON.stringify(status)}`);
  return elapsed;
}

export async function bench(): Promise<BenchRow[]> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-bench-confined-"));
  const home = `${root}/home`;
  const ws = `${root}/ws`;
  await platform.fs.mkdir(home);
  await platform.fs.mkdir(`${ws}/.git`);
  try {
    const env: Record<string, string> = { TRELLIS_HOME: home, HOME: root, TRELLIS_SYSTEM_DIR: `${root}/etc` };
    const loaded = await loadConfig(platform.fs, { cwd: ws, env: (n) => env[n] });
    const confine = mcpConfinement(platform, loaded);
    const plain = serverConfigFromTable("plain", { command: "perl", args: [SERVER, "0"] });
    const profiles = (["read-only", "workspace-write"] as const).map((sandbox) =>
      serverConfigFromTable(sandbox, { command: "perl", args: [SERVER, "0"], sandbox })
    );
    // Warm up: the sandbox self-check (cached on disk) and the SDK load are not a server's start.
    for (const config of [plain, ...profiles]) await startOnce(config, home, ws, confine);
    const times: number[][] = [[], [], []];
    for (let i = 0; i < RUNS; i++) {
      for (const [k, config] of [plain, ...profiles].entries()) {
        times[k].push(await startOnce(config, home, ws, confine));
      }
    }
    const [reference, ...confined] = times.map(median);
    const rows: BenchRow[] = [
      {
        name: "stdio server start, unconfined (median)",
        value: reference,
        unit: "ms",
        target: "reference",
        pass: true,
      },
    ];
    profiles.forEach((config, k) => {
      const overhead = confined[k] - reference;
      rows.push({
        name: `stdio server start, sandbox = ${config.name} (median)`,
        value: confined[k],
        unit: "ms",
        target: `reference + ${TARGET_MS} ms`,
        pass: overhead <= TARGET_MS,
      }, {
        name: `confinement overhead, ${config.name} (confined − unconfined)`,
        value: overhead,
        unit: "ms",
        target: `≤ ${TARGET_MS} ms`,
        pass: overhead <= TARGET_MS,
      });
    });
    return rows;
  } finally {
    await platform.fs.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) console.log(await bench());
