/**
 * Project trust covers content (issue #20 item 2): every start of a trusted project reads and hashes
 * the layer files it would load and compares them with the trust record. Measured on a project with
 * 20 layer files (the root and four nested directories, each with `.trellis/config.toml`,
 * `.trellis/hooks.json`, `.claude/settings.json` and `.claude/settings.local.json`, cwd at the
 * deepest), against the reference of reading the same 20 files without any check, in the same run.
 */
import * as path from "node:path";
import { checkProjectLayers, hashProjectLayers } from "../../lib/config/project_layers.ts";
import { resolvePaths } from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const RUNS = 300;
const FILES = [
  ".trellis/config.toml",
  ".trellis/hooks.json",
  ".claude/settings.json",
  ".claude/settings.local.json",
];

export async function bench(): Promise<BenchRow[]> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "trellis-bench-trust-" }));
  await Deno.mkdir(`${root}/.git`);
  let dir = root;
  for (let depth = 0; depth < 5; depth++) {
    if (depth > 0) dir = path.join(dir, `level${depth}`);
    for (const file of FILES) {
      await Deno.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      const body = file.endsWith(".toml")
        ? `model = "gpt-5"\n[mcp_servers.s${depth}]\ncommand = "node"\nargs = ["server.mjs"]\n`
        : JSON.stringify({
          hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "true" }] }] },
        });
      await Deno.writeTextFile(path.join(dir, file), body.repeat(8));
    }
  }
  const paths = resolvePaths(platform.fs, { cwd: dir, env: () => undefined });
  const record = { dir: root, layerHashes: hashProjectLayers(platform.fs, root).hashes };
  const files = paths.projectDirs.flatMap((d) => FILES.map((f) => path.join(d, f)));
  const checks: number[] = [];
  const plain: number[] = [];
  let approved = 0;
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    approved = checkProjectLayers(platform.fs, paths, record, []).size;
    checks.push(performance.now() - t);
    t = performance.now();
    for (const file of files) Deno.readTextFileSync(file);
    plain.push(performance.now() - t);
  }
  await Deno.remove(root, { recursive: true });
  const check = median(checks);
  const reference = median(plain);
  return [
    {
      name: `trust check of a project with ${approved} layer files, per start`,
      value: check,
      unit: "ms",
      target: "≤ 2 ms",
      pass: approved === 20 && check <= 2,
    },
    {
      name: "reference: reading the same files unchecked (no regular-file check, no hash)",
      value: reference,
      unit: "ms",
      target: "—",
      pass: true,
    },
    {
      name: "trust check ÷ plain read",
      value: check / reference,
      unit: "×",
      target: "—",
      pass: true,
    },
  ];
}
