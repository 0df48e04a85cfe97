/**
 * Issue 17's ledger figure: `trellis debug context` on a tree with 600 skills and 1,000 MCP tools
 * (10 stdio servers of 100 tools each, tool search off so every declaration is in the request)
 * against `trellis debug prompt` on the same tree — the same assembly plus loading o200k_base and
 * counting every part. Wall time of dist/trellis (else `deno run main.ts`), runs interleaved so both
 * see the same machine, medians. Target: ≤ 2× `debug prompt`.
 */
import * as path from "node:path";
import { median, timed } from "./_timing.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const BIN = new URL("../../dist/trellis", import.meta.url).pathname;
const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const MANY_TOOLS = new URL("../../fixtures/mcp/many_tools_server.mjs", import.meta.url).pathname;
const SKILLS = 600;
const SERVERS = 10;
const TOOLS_PER_SERVER = 100;
const RUNS = 9;

async function write(file: string, text: string): Promise<void> {
  await Deno.mkdir(path.dirname(file), { recursive: true });
  await Deno.writeTextFile(file, text);
}

async function writeTree(root: string): Promise<void> {
  const home = path.join(root, "home");
  await Promise.all(Array.from({ length: SKILLS }, (_, i) =>
    write(
      path.join(home, ".agents", "skills", `skill-${i}`, "SKILL.md"),
      `---\nname: skill-${i}\ndescription: Skill ${i} formats, checks and explains one kind of file for the benchmark.\n---\n\nBody of skill ${i}.\n`,
    )));
  const servers = Array.from(
    { length: SERVERS },
    (_, i) =>
      `[mcp_servers.s${i}]\ncommand = "node"\nargs = [${
        JSON.stringify(MANY_TOOLS)
      }, "${TOOLS_PER_SERVER}"]\n`,
  );
  await write(
    path.join(home, ".trellis", "config.toml"),
    `model = "gpt-5"\ntool_search = false\n\n${servers.join("\n")}`,
  );
  await write(path.join(root, "ws", "AGENTS.md"), "# Rules\n\nKeep the tests green.\n");
}

export async function bench(): Promise<BenchRow[]> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "trellis-bench-context-" }));
  try {
    await writeTree(root);
    const binary = await Deno.stat(BIN).then(() => true, () => false);
    const argv = binary ? [BIN] : [Deno.execPath(), "run", "-A", MAIN];
    const env = {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: path.join(root, "home"),
      TRELLIS_HOME: path.join(root, "home", ".trellis"),
      TRELLIS_SYSTEM_DIR: path.join(root, "etc"),
    };
    const cwd = path.join(root, "ws");
    const run = async (command: string) => {
      const r = await timed([...argv, "debug", command, "--json", "hi"], { cwd, env });
      if (r.code !== 0) throw new Error(`debug ${command} exited ${r.code}`);
      return r.wall;
    };
    // One of each first: the sandbox probe's cache and the file system's caches are warm for both.
    await run("prompt");
    await run("context");
    const prompt: number[] = [];
    const context: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      prompt.push(await run("prompt"));
      context.push(await run("context"));
    }
    const ratio = median(context) / median(prompt);
    const how = binary ? "dist/trellis" : "deno run main.ts";
    return [
      {
        name: `debug prompt --json, ${SKILLS} skills + ${
          SERVERS * TOOLS_PER_SERVER
        } MCP tools (${how}, median)`,
        value: median(prompt),
        unit: "ms",
        target: "reference",
        pass: true,
      },
      {
        name: `debug context --json, same tree (${how}, median)`,
        value: median(context),
        unit: "ms",
        target: `<= 2 x debug prompt (${Math.round(median(prompt) * 2)} ms)`,
        pass: ratio <= 2,
      },
      {
        name: "debug context / debug prompt",
        value: ratio,
        unit: "x",
        target: "<= 2",
        pass: ratio <= 2,
      },
    ];
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
