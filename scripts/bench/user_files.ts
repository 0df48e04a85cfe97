/**
 * Issue 14's start-up figure for the files users already have, read in place: a session start
 * (`dist/trellis exec --json` of a one-answer turn against the fixture model, Trellis's own wall time
 * = total minus the time the model server spent) with a Claude Code home holding 30 installed,
 * enabled plugins — ~600 skills, 30 hooks, 20 MCP servers — and a 4 MiB `~/.claude.json`, against the
 * same start with an empty home. The target counts configuration, not server processes: the 20
 * servers are configured and resolved but switched off by `[plugins."<id>".mcp_servers.<name>]
 * enabled = false` ("not started until needed"). The same tree with the 20 servers started (Trellis
 * starts every enabled server at session start, waiting up to `mcp_startup_grace_sec`) is reported
 * beside it, for information.
 */
import * as path from "node:path";
import { startFixtureModelServer } from "../fixture_model_server.ts";
import { median, timed } from "./_timing.ts";
import { bunCommand } from "../lib/bun_path.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const BIN = new URL("../../dist/trellis", import.meta.url).pathname;
const FIXTURE_MCP = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;
const PLUGINS = 30;
const SKILLS_PER_PLUGIN = 20;
const MCP_PLUGINS = 20;
const MARKET = "bench-market";
const SETTLED = new Date(Date.now() - 3_600_000);

async function write(file: string, text: string): Promise<void> {
  await Deno.mkdir(path.dirname(file), { recursive: true });
  await Deno.writeTextFile(file, text);
}

/**
 * `~/.claude` with 30 plugins installed and enabled the way Claude Code records them, and a
 * `~/.claude.json` padded to ~4 MiB of per-project state (history, allowed tools), as long-time
 * users' files are. Returns the `[plugins]` overrides that switch the 20 MCP servers off.
 */
export async function writeLoadedTree(home: string): Promise<string> {
  const claude = path.join(home, ".claude");
  const plugins = path.join(claude, "plugins");
  const installed: Record<string, unknown> = {};
  const enabled: Record<string, boolean> = {};
  const entries: unknown[] = [];
  let overrides = "";
  for (let p = 0; p < PLUGINS; p++) {
    const name = `bench-plugin-${p}`;
    const id = `${name}@${MARKET}`;
    const root = path.join(plugins, "cache", MARKET, name, "1.0.0");
    installed[id] = [{
      scope: "user",
      installPath: root,
      version: "1.0.0",
      installedAt: "2026-01-01T00:00:00Z",
    }];
    enabled[id] = true;
    entries.push({ name, source: `./plugins/${name}`, description: `Plugin ${p}` });
    await write(path.join(root, ".claude-plugin", "plugin.json"), JSON.stringify({ name, version: "1.0.0" }));
    await Promise.all(Array.from({ length: SKILLS_PER_PLUGIN }, async (_, s) => {
      const file = path.join(root, "skills", `skill-${s}`, "SKILL.md");
      await write(
        file,
        `---\nname: skill-${s}\ndescription: Skill ${s} of plugin ${p} does one thing for the benchmark, and does it well.\n---\n\nBody.\n`,
      );
      // Settled, as a user's installed skills are between two sessions (see the cache below).
      await Deno.utime(file, SETTLED, SETTLED);
    }));
    await write(
      path.join(root, "hooks", "hooks.json"),
      JSON.stringify({
        hooks: { PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "true" }] }] },
      }),
    );
    if (p < MCP_PLUGINS) {
      const server = `bench_server_${p}`;
      await write(
        path.join(root, ".mcp.json"),
        JSON.stringify({ mcpServers: { [server]: { command: "node", args: [FIXTURE_MCP, "echo"] } } }),
      );
      overrides += `[plugins."${id}".mcp_servers.${server}]\nenabled = false\n\n`;
    }
  }
  await write(
    path.join(plugins, "installed_plugins.json"),
    JSON.stringify({ version: 2, plugins: installed }),
  );
  const clone = path.join(plugins, "marketplaces", MARKET);
  await write(
    path.join(plugins, "known_marketplaces.json"),
    JSON.stringify({
      [MARKET]: { source: { source: "github", repo: "bench/market" }, installLocation: clone },
    }),
  );
  await write(
    path.join(clone, ".claude-plugin", "marketplace.json"),
    JSON.stringify({ name: MARKET, owner: { name: "bench" }, plugins: entries }),
  );
  await write(path.join(claude, "settings.json"), JSON.stringify({ enabledPlugins: enabled }));
  const projects: Record<string, unknown> = {};
  for (let i = 0; i < 400; i++) {
    projects[`/home/user/src/project-${i}`] = {
      allowedTools: ["Bash(npm test:*)", "Edit(src/**)"],
      history: Array.from({ length: 20 }, (_, h) => ({
        display: `prompt ${h} of project ${i}: ${"refactor the module and keep the tests green ".repeat(8)}`,
        pastedContents: {},
      })),
      mcpServers: {},
      hasTrustDialogAccepted: true,
    };
  }
  const claudeJson = path.join(home, ".claude.json");
  await write(claudeJson, JSON.stringify({ numStartups: 1000, tipsHistory: {}, mcpServers: {}, projects }));
  // Settled, as between two Claude Code sessions: Trellis caches what it keeps of a settled file.
  const hourAgo = new Date(Date.now() - 3_600_000);
  await Deno.utime(claudeJson, hourAgo, hourAgo);
  return overrides;
}

/**
 * Medians over `runs` one-answer exec turns in `home`: Trellis's own wall time (spawned directly), and
 * the CPU time (user + system) the process used, from `/usr/bin/time` in runs of their own — the
 * steadier figure on a machine whose other work makes wall times drift.
 */
async function sessionStart(
  home: string,
  runs: number,
  options: { beforeEach?: () => Promise<void> } = {},
): Promise<{ wall: number; cpu: number }> {
  const own: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i <= 2 * runs; i++) {
    const measureCpu = i > runs;
    await options.beforeEach?.();
    const ws = await Deno.makeTempDir({ prefix: "trellis-bench-ws-" });
    let modelMs = 0;
    const fixture = await startFixtureModelServer({
      script: [{ text: "ok" }],
      onServed: (ms) => (modelMs += ms),
    });
    try {
      const cpuFile = `${ws}/cpu.txt`;
      const run = await timed([
        ...(measureCpu ? ["/usr/bin/time", "-f", "%U %S", "-o", cpuFile] : []),
        BIN,
        "exec",
        "--skip-git-repo-check",
        "--json",
        "-c",
        "model_provider=fixture",
        "-c",
        "tool_set=trellis",
        "-c",
        `model_providers.fixture.base_url=${JSON.stringify(fixture.url)}`,
        "hi",
      ], { cwd: ws, env: { PATH: Deno.env.get("PATH") ?? "", HOME: home, TRELLIS_SYSTEM_DIR: `${ws}/etc` } });
      if (run.code !== 0) throw new Error(`exec failed with ${run.code} in ${home}`);
      // The first run meets a fresh home (sandbox probe, folders): not part of the figure.
      if (measureCpu) {
        const [user, system] = (await Deno.readTextFile(cpuFile)).trim().split(/\s+/).map(Number);
        cpu.push((user + system) * 1000);
      } else if (i > 0) own.push(run.wall - modelMs);
    } finally {
      await fixture.close();
      await Deno.remove(ws, { recursive: true });
    }
  }
  return { wall: median(own), cpu: median(cpu) };
}

export async function bench(): Promise<BenchRow[]> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "trellis-bench-userfiles-" }));
  try {
    const empty = path.join(root, "empty");
    const loaded = path.join(root, "loaded");
    await Deno.mkdir(path.join(empty, ".trellis"), { recursive: true });
    await Deno.mkdir(path.join(loaded, ".trellis"), { recursive: true });
    const overrides = await writeLoadedTree(loaded);
    const started = path.join(root, "started");
    await Deno.mkdir(path.join(started, ".trellis"), { recursive: true });
    await writeLoadedTree(started);
    await Deno.writeTextFile(path.join(loaded, ".trellis", "config.toml"), overrides);
    const runs = 7;
    // Alternated, so both see the same machine (its speed drifts from minute to minute).
    const none: { wall: number; cpu: number }[] = [];
    const tree: { wall: number; cpu: number }[] = [];
    for (let round = 0; round < 3; round++) {
      none.push(await sessionStart(empty, runs));
      tree.push(await sessionStart(loaded, runs));
    }
    const base = median(none.map((r) => r.wall));
    const configured = median(tree.map((r) => r.wall));
    const cpuRatio = median(tree.map((r) => r.cpu)) / median(none.map((r) => r.cpu));
    const withServers = (await sessionStart(started, 3)).wall;
    // The same start when ~/.claude.json changed since the last one (its cache dropped before each run).
    const cache = path.join(loaded, ".trellis", "cache", "claude_json.json");
    const uncached = (await sessionStart(loaded, runs, {
      beforeEach: () => Deno.remove(cache).catch(() => {}),
    })).wall;
    const ratio = configured / base;
    // The floor: the file-system calls exact invalidation cannot skip, in a Bun process (median of 7).
    const floors: number[] = [];
    for (let i = 0; i < 7; i++) {
      const out = await new Deno.Command(bunCommand(), {
        args: [
          new URL("./_floor_user_files.ts", import.meta.url).pathname,
          path.join(loaded, ".claude", "plugins", "cache"),
        ],
        stdout: "piped",
        stderr: "null",
      }).output();
      floors.push(Number(new TextDecoder().decode(out.stdout).trim()));
    }
    const floor = median(floors);
    const size = (await Deno.stat(path.join(loaded, ".claude.json"))).size / (1024 * 1024);
    return [
      {
        name: "session start (exec, one answer), empty home: Trellis's own time (median)",
        value: base,
        unit: "ms",
        target: "reference",
        pass: true,
      },
      {
        name: `session start, ~/.claude with ${PLUGINS} Claude Code plugins (${
          PLUGINS * SKILLS_PER_PLUGIN
        } skills, ${PLUGINS} hooks, ${MCP_PLUGINS} MCP servers configured, not started) and a ${
          size.toFixed(1)
        } MiB ~/.claude.json (median)`,
        value: configured,
        unit: "ms",
        target: "",
        pass: true,
      },
      {
        name: "session start: loaded tree ÷ empty home, wall time",
        value: ratio,
        unit: "x",
        target: "≤ 1.5",
        pass: ratio <= 1.5,
      },
      {
        name:
          "floor: the file-system calls a start over the loaded tree cannot skip and still see every change (a listing per skill folder, a stat per SKILL.md, the plugin files; scripts/bench/_floor_user_files.ts under Bun, median of 7)",
        value: floor,
        unit: "ms",
        target: "info",
        pass: true,
      },
      {
        name: "floor of the ratio: (empty-home start + those calls) ÷ empty-home start",
        value: (base + floor) / base,
        unit: "x",
        target: "info",
        pass: true,
      },
      {
        name: "session start: loaded tree ÷ empty home, CPU time of the process (user + system; steadier)",
        value: cpuRatio,
        unit: "x",
        target: "info",
        pass: true,
      },
      {
        name:
          "session start, loaded tree, ~/.claude.json changed since the last start (parsed, not cached; info)",
        value: uncached,
        unit: "ms",
        target: "info",
        pass: true,
      },
      {
        name:
          `session start, the same tree with its ${MCP_PLUGINS} MCP servers started (node fixture servers; info)`,
        value: withServers,
        unit: "ms",
        target: "info",
        pass: true,
      },
    ];
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
