/**
 * Issue 21 item 19: `trellis mcp list` with 5 configured stdio servers (listed, not started), as a
 * process, against the references measured in the same run, runs alternated: Codex's `mcp list` on
 * the same 5 servers when its binary can be installed here, `trellis --version` (the binary's own
 * cold start) and a bare Bun binary built with the same options printing one line.
 */
import { bunCommand } from "../lib/bun_path.ts";
import { codexBinary } from "./_reference_cli.ts";
import { median, timed } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const BIN = new URL("../../dist/trellis", import.meta.url).pathname;
const FIXTURE_MCP = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;
const RUNS = 41;

function serversToml(): string {
  return Array.from(
    { length: 5 },
    (_, i) => `[mcp_servers.bench_${i}]\ncommand = "node"\nargs = [${JSON.stringify(FIXTURE_MCP)}, "echo"]\n`,
  ).join("\n");
}

export async function bench(): Promise<BenchRow[]> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "trellis-bench-mcplist-" }));
  try {
    const home = `${root}/home`;
    const cwd = `${root}/ws`;
    await Deno.mkdir(`${home}/.trellis`, { recursive: true });
    // Codex's files live apart from Trellis's home: Trellis reads ~/.codex in place, and would
    // otherwise list (and note) the same servers twice.
    const codexHome = `${root}/codex-home`;
    await Deno.mkdir(codexHome, { recursive: true });
    await Deno.mkdir(cwd);
    await Deno.writeTextFile(`${home}/.trellis/config.toml`, serversToml());
    await Deno.writeTextFile(`${codexHome}/config.toml`, serversToml());
    await Deno.writeTextFile(`${root}/v.ts`, 'console.log("0.0.0");\n');
    const built = await new Deno.Command(bunCommand(), {
      args: [new URL("../compile/bun_build.ts", import.meta.url).pathname, `${root}/bare`, `${root}/v.ts`],
      stdout: "null",
      stderr: "null",
    }).output();
    if (!built.success) throw new Error("building the bare binary failed");
    const codex = await codexBinary();
    const env = { PATH: Deno.env.get("PATH") ?? "", HOME: home };
    const run = async (argv: string[], extra: Record<string, string> = {}) => {
      const r = await timed(argv, { cwd, env: { ...env, ...extra } });
      if (r.code !== 0) throw new Error(`${argv.join(" ")} exited ${r.code}`);
      return r.wall;
    };
    const list: number[] = [], version: number[] = [], bare: number[] = [], ref: number[] = [];
    const overVersion: number[] = [], overCodex: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const l = await run([BIN, "mcp", "list"]);
      const v = await run([BIN, "--version"]);
      const b = await run([`${root}/bare`]);
      const c = "bin" in codex ? await run([codex.bin, "mcp", "list"], { CODEX_HOME: codexHome }) : NaN;
      if (i === 0) continue; // first touch of the files and binaries
      list.push(l), version.push(v), bare.push(b), overVersion.push(l / v);
      if ("bin" in codex) ref.push(c), overCodex.push(l / c);
    }
    const codexRatio = overCodex.length ? median(overCodex) : NaN;
    return [
      {
        name: `reference: codex 0.171 \`mcp list\`, same 5 servers (median of ${RUNS})`,
        value: ref.length ? median(ref) : NaN,
        unit: "ms",
        target: "reference" +
          ("bin" in codex ? "" : ` (not measured: ${codex.missing.split("\n")[0].slice(0, 120)})`),
        pass: true,
      },
      {
        name: `reference: a bare Bun binary printing a line, same build options (median of ${RUNS})`,
        value: median(bare),
        unit: "ms",
        target: "reference",
        pass: true,
      },
      {
        name: `reference: dist/trellis --version (median of ${RUNS})`,
        value: median(version),
        unit: "ms",
        target: "reference",
        pass: true,
      },
      {
        name: `dist/trellis mcp list, 5 stdio servers configured (median of ${RUNS})`,
        value: median(list),
        unit: "ms",
        target: "info",
        pass: true,
      },
      {
        name: "mcp list ÷ codex mcp list (median of the per-run ratios)",
        value: codexRatio,
        unit: "x",
        target: "≤ 1.0" + (overCodex.length ? "" : " (codex not measured here)"),
        pass: !overCodex.length || codexRatio <= 1,
      },
      {
        name: "mcp list ÷ trellis --version (median of the per-run ratios)",
        value: median(overVersion),
        unit: "x",
        target: "info (the reference where codex is missing)",
        pass: true,
      },
    ];
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
