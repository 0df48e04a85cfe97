/**
 * Config edits (issue #13): 100 concurrent edits as separate dist/trellis processes against one
 * config — mixed `project trust`, `hooks trust`, `mcp add` — must lose none, every run; and what a
 * safe edit costs (lock, format-preserving edit, re-parse and check, atomic write with fsync) next
 * to a plain read-modify-write of the same file, both in one process.
 */
import { parse } from "smol-toml";
import { editConfigFile, setKey } from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { prepareConfigWorkload } from "./_config_workload.ts";
import { median } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const BIN = new URL("../../dist/trellis", import.meta.url).pathname;
const RUNS = 3;
const PROCESSES = 100;

async function concurrentRun(): Promise<{ lost: number; failed: number; wallMs: number }> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "trellis-bench-edits-" }));
  const work = await prepareConfigWorkload(root, PROCESSES);
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...work.env };
  const started = performance.now();
  const codes = await Promise.all(
    work.commands.map(async (args) =>
      (await new Deno.Command(BIN, {
        args,
        cwd: work.cwd,
        env,
        clearEnv: true,
        stdout: "null",
        stderr: "null",
      })
        .output()).code
    ),
  );
  const wallMs = performance.now() - started;
  const lost = work.missing(await Deno.readTextFile(work.file)).length;
  await Deno.remove(root, { recursive: true });
  return { lost, failed: codes.filter((c) => c !== 0).length, wallMs };
}

const SAMPLE =
  '# settings\nmodel = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "srv"]\n\n' +
  Array.from({ length: 30 }, (_, i) => `[projects."/home/me/p${i}"]\ntrust_level = "trusted"\n`).join("\n");

async function perEdit(n: number): Promise<{ safe: number; plain: number; firstMs: number }> {
  const dir = await Deno.makeTempDir({ prefix: "trellis-bench-edit-" });
  const file = `${dir}/config.toml`;
  await Deno.writeTextFile(file, SAMPLE);
  const first = performance.now();
  await editConfigFile(platform.fs, file, () => [setKey(["projects", "/warm", "trust_level"], "trusted")]);
  const firstMs = performance.now() - first;
  const safe: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await editConfigFile(platform.fs, file, () => [setKey(["mcp_servers", "docs", "enabled"], i % 2 === 0)]);
    safe.push(performance.now() - t);
  }
  // The plain way: read, parse (to know the key is there), replace the line, write in place.
  const plain: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const text = await Deno.readTextFile(file);
    parse(text);
    await Deno.writeTextFile(file, text.replace(/^enabled = (true|false)$/m, `enabled = ${i % 2 === 0}`));
    plain.push(performance.now() - t);
  }
  await Deno.remove(dir, { recursive: true });
  return { safe: median(safe), plain: median(plain), firstMs };
}

export async function bench(): Promise<BenchRow[]> {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await concurrentRun());
  const worstLost = Math.max(...runs.map((r) => r.lost + r.failed));
  const wallPerEdit = median(runs.map((r) => r.wallMs / PROCESSES));
  const { safe, plain, firstMs } = await perEdit(100);
  return [
    {
      name:
        `${PROCESSES} concurrent edits as processes (project trust, hooks trust, mcp add): lost or failed, worst of ${RUNS} runs`,
      value: worstLost,
      unit: "edits",
      target: "0, every run",
      pass: worstLost === 0,
    },
    {
      name:
        `… wall time per edit (${PROCESSES} processes on ${navigator.hardwareConcurrency} cores, median of ${RUNS})`,
      value: wallPerEdit,
      unit: "ms",
      target: "report",
      pass: true,
    },
    {
      name: "one edit in-process: lock, toml_edit, re-parse + check, atomic write + fsync (median of 100)",
      value: safe,
      unit: "ms",
      target: "report",
      pass: true,
    },
    {
      name: "plain read-modify-write of the same file (median of 100)",
      value: plain,
      unit: "ms",
      target: "reference",
      pass: true,
    },
    {
      name: "safe edit / plain read-modify-write",
      value: safe / plain,
      unit: "×",
      target: "report",
      pass: true,
    },
    {
      name: "first edit in a process (loads the editor's WebAssembly)",
      value: firstMs,
      unit: "ms",
      target: "report",
      pass: true,
    },
  ];
}
