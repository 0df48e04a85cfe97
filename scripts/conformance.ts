/**
 * `deno task conformance [--dev] [--scenario NAME]`: runs every client scenario of
 * @modelcontextprotocol/conformance (pinned 0.1.16) against
 * `dist/trellis mcp probe --call-all --accept-defaults --oauth-headless` and prints
 * `N passed, N failed` (one line per failed scenario above it). Exit 1 when any scenario fails.
 * `--dev` runs the probe from source (`deno run -A main.ts`) instead of the binary.
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
// The suite writes results/ into its cwd: keep that out of the repository.
const work = await platform.fs.makeTempDir("trellis-conformance-");
const started = performance.now();
const scenarios = scenario ? [scenario] : await clientScenarios();
// A few at a time: `sse-retry` measures reconnect timing, which 26 parallel clients on 2 cores would skew.
const outcomes: { name: string; ok: boolean; output: string }[] = [];
const queue = [...scenarios];
await Promise.all(Array.from({ length: 4 }, async () => {
  for (let name = queue.shift(); name; name = queue.shift()) outcomes.push(await runScenario(name));
}));
await platform.fs.remove(work, { recursive: true });

const failed = outcomes.filter((o) => !o.ok).sort((a, b) => a.name < b.name ? -1 : 1);
for (const f of failed) console.log(`FAILED ${f.name}\n${f.output.slice(-3000)}`);
console.log(`${outcomes.length - failed.length} passed, ${failed.length} failed`);
console.error(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
platform.exit(failed.length > 0 || outcomes.length === 0 ? 1 : 0);

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
