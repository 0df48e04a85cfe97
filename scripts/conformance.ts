/**
 * `deno task conformance [--dev] [--scenario NAME]`: runs every client scenario of
 * @modelcontextprotocol/conformance (pinned 0.1.16) against
 * `dist/trellis mcp probe --call-all --accept-defaults --oauth-headless`, and the server scenarios
 * that apply to a server with only tools against `dist/trellis mcp-server --http 0` (#17 item 4), and
 * prints `N passed, N failed` (one line per failed scenario above it). Exit 1 when any scenario fails.
 * `--dev` runs Trellis from source (`deno run -A main.ts`) instead of the binary.
 * Node 20 lacks `fs.globSync`, which the suite imports: conformance_fs_shim.mjs supplies a stub.
 */
import * as path from "node:path";
import { platform, runCommand } from "../lib/platform/mod.ts";

const root = path.resolve(new URL("..", import.meta.url).pathname);
const args = platform.args();
const dev = args.includes("--dev");
const scenarioAt = args.indexOf("--scenario");
const scenario = scenarioAt >= 0 ? args[scenarioAt + 1] : undefined;

const binary = path.join(root, "dist", "trellis");
if (!dev && !await platform.fs.stat(binary)) {
  console.error("dist/trellis is missing: run `deno task compile` first (or pass --dev)");
  platform.exit(2);
}
const trellis = dev ? `deno run -A --quiet ${path.join(root, "main.ts")}` : binary;
const probe = `${trellis} mcp probe --call-all --accept-defaults --oauth-headless ` +
  "--client-metadata-url https://conformance-test.local/client-metadata.json";

const suite = [
  "node",
  "--import",
  path.join(root, "scripts", "conformance_fs_shim.mjs"),
  path.join(
    root,
    "node_modules",
    "@modelcontextprotocol",
    "conformance",
    "dist",
    "index.js",
  ),
];
/**
 * The server scenarios that apply to `trellis mcp-server`, which serves tools (trellis,
 * trellis-reply) and logging only. The others need the suite's own test tools (`test_simple_text`,
 * `json_schema_2020_12_tool`, `test_reconnection`, …), resources, prompts or completions.
 */
const SERVER_SCENARIOS = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "tools-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];
// The suite writes results/ into its cwd: keep that out of the repository.
const work = await platform.fs.makeTempDir("trellis-conformance-");
const started = performance.now();
const serverOnly = scenario !== undefined && SERVER_SCENARIOS.includes(scenario);
const scenarios = scenario ? (serverOnly ? [] : [scenario]) : await clientScenarios();
// A few at a time: `sse-retry` measures reconnect timing, which 26 parallel clients on 2 cores would skew.
const outcomes: { name: string; ok: boolean; output: string }[] = [];
const queue = [...scenarios];
await Promise.all(Array.from({ length: 4 }, async () => {
  for (let name = queue.shift(); name; name = queue.shift()) outcomes.push(await runScenario(name));
}));
if (!scenario || serverOnly) {
  outcomes.push(...await runServerScenarios(serverOnly ? [scenario!] : SERVER_SCENARIOS));
}
await platform.fs.remove(work, { recursive: true });

const failed = outcomes.filter((o) => !o.ok).sort((a, b) => a.name < b.name ? -1 : 1);
for (const f of failed) console.log(`FAILED ${f.name}\n${f.output.slice(-3000)}`);
console.log(`${outcomes.length - failed.length} passed, ${failed.length} failed`);
console.error(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
platform.exit(failed.length > 0 || outcomes.length === 0 ? 1 : 0);

/** Starts `mcp-server --http 0 --no-auth` with an empty TRELLIS_HOME and runs each scenario against it. */
async function runServerScenarios(names: string[]) {
  const home = path.join(work, "home");
  await platform.fs.mkdir(home);
  // The suite's `server --url` sends no Authorization header: the server's scenarios run without one.
  const [command, ...args] = [...trellis.split(" "), "mcp-server", "--http", "0", "--no-auth"];
  const child = platform.spawn({
    cmd: [command, ...args],
    cwd: work,
    env: { ...platform.envAll(), TRELLIS_HOME: home, TRELLIS_SYSTEM_DIR: path.join(work, "etc") },
    stdin: "null",
  });
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  let url: string | undefined;
  while (!url) {
    const { done, value } = await reader.read();
    if (done) {
      return [{ name: "mcp-server --http", ok: false, output: `exited before listening:\n${said}` }];
    }
    said += value;
    url = /listening on (\S+)/.exec(said)?.[1];
  }
  const outcomes = [];
  for (const name of names) {
    const result = await runCommand(platform, {
      cmd: [...suite, "server", "--url", url, "--scenario", name],
      cwd: work,
      env: platform.envAll(),
      timeoutMs: 120_000,
      maxOutputBytes: 8 * 1024 * 1024,
    });
    const output = result.stdout + result.stderr;
    outcomes.push({ name: `server/${name}`, ok: result.code === 0 && / 0 failed/.test(output), output });
  }
  child.kill("SIGTERM");
  await child.status;
  return outcomes;
}

async function clientScenarios(): Promise<string[]> {
  const listed = await runCommand(platform, { cmd: [...suite, "list"], cwd: work, env: platform.envAll() });
  const client = listed.stdout.split("Client scenarios")[1] ?? "";
  return [...client.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

async function runScenario(name: string) {
  const result = await runCommand(platform, {
    cmd: [...suite, "client", "--command", probe, "--scenario", name],
    cwd: work,
    env: platform.envAll(),
    timeoutMs: 120_000,
    maxOutputBytes: 8 * 1024 * 1024,
  });
  const output = result.stdout + result.stderr;
  return { name, ok: result.code === 0 && /OVERALL: PASSED/.test(output), output };
}
