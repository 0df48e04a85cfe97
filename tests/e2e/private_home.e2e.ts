/**
 * #20 item 13: everything Trellis creates under $TRELLIS_HOME — the home itself, transcripts, the
 * sandbox cache and its mount markers, hook output spills, MCP stderr logs, hook state — is 0700
 * (directories) and 0600 (files) under the usual umask 022, while what it writes in the workspace
 * keeps the umask's modes; a home an earlier version left 0755 is tightened, with one warning.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { type BinaryRun, trellisArgv } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";
import { execArgs } from "../helpers/exec_args.ts";

const SERVER = new URL("../../fixtures/mcp/sandbox_server.mjs", import.meta.url).pathname;

/** The binary under `umask 022`, whatever the test runner's. */
async function run022(args: string[], env: Record<string, string>, cwd: string): Promise<BinaryRun> {
  const out = await new Deno.Command("/bin/sh", {
    args: ["-c", 'umask 022 && exec "$@"', "sh", ...trellisArgv(), ...execArgs(args)],
    cwd,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return {
    code: out.code,
    signal: out.signal,
    stdout: text.decode(out.stdout),
    stderr: text.decode(out.stderr),
  };
}

/** Every path below `dir` (not following symlinks) with its permission bits. */
async function modes(dir: string, skip: Set<string> = new Set()): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      const full = `${at}/${entry.name}`;
      const info = await Deno.lstat(full);
      if (!skip.has(full) && !info.isSymlink) found.set(full, info.mode! & 0o777);
      if (info.isDirectory) await walk(full);
    }
  };
  found.set(dir, (await Deno.lstat(dir)).mode! & 0o777);
  await walk(dir);
  return found;
}

function wider(found: Map<string, number>, dirs: Set<string>): string[] {
  return [...found].filter(([p, m]) => m !== (dirs.has(p) ? 0o700 : 0o600)).map(([p, m]) =>
    `${p} ${m.toString(8)}`
  );
}

async function directories(found: Map<string, number>): Promise<Set<string>> {
  const dirs = new Set<string>();
  for (const p of found.keys()) if ((await Deno.lstat(p)).isDirectory) dirs.add(p);
  return dirs;
}

// Fails when the private-tree rule is gone from the file system (mkdir 0755, files 0644 under the
// umask), and when any writer under the home bypasses it.
Deno.test("#20 item 13: after exec runs (shell, write_file, a spilled hook output, an MCP server's stderr) every path Trellis made under $TRELLIS_HOME is 0700/0600; the workspace keeps 0755/0644", async () => {
  const s = await e2eSetup();
  const home = `${s.root}/home/.trellis-fresh`;
  const env = { ...s.env, TRELLIS_HOME: home };
  const server = await startFixtureModelServer({
    script: [
      {
        tool_calls: [
          { name: "write_file", arguments: { path: "sub/new.txt", content: "hello\n" } },
          { name: "shell", arguments: { command: "echo hi > shell.txt" } },
        ],
      },
      { text: "done" },
      { text: "again" },
    ],
  });
  try {
    // 1. A home that does not exist yet: made by Trellis.
    const first = await run022(
      ["exec", "-s", "workspace-write", ...s.flags(server.url), "write"],
      env,
      s.workspace,
    );
    assert.deepStrictEqual(first.code, 0, first.stderr);
    const made = await modes(home);
    assert.ok([...made.keys()].some((p) => p.includes("/sessions/")), [...made.keys()].join("\n"));
    assert.deepStrictEqual(wider(made, await directories(made)), []);
    // The neighbour: what Trellis writes in the workspace keeps the umask's modes.
    assert.deepStrictEqual((await Deno.stat(`${s.workspace}/sub`)).mode! & 0o777, 0o755);
    assert.deepStrictEqual((await Deno.stat(`${s.workspace}/sub/new.txt`)).mode! & 0o777, 0o644);
    assert.deepStrictEqual((await Deno.stat(`${s.workspace}/shell.txt`)).mode! & 0o777, 0o644);

    // 2. A hook whose output is spilled, and an MCP server that logs to stderr.
    const own = new Set([`${home}/hooks.json`, `${home}/config.toml`]);
    await Deno.writeTextFile(
      `${home}/hooks.json`,
      JSON.stringify({
        hooks: {
          SessionStart: [{ hooks: [{ type: "command", command: "head -c 20000 /dev/zero | tr '\\0' x" }] }],
        },
      }),
      { mode: 0o600 },
    );
    await Deno.writeTextFile(
      `${home}/config.toml`,
      `[mcp_servers.fx]\ncommand = "node"\nargs = [${
        JSON.stringify(SERVER)
      }, "--startup-write", "/nonexistent/x"]\n`,
      { mode: 0o600 },
    );
    const trust = await run022(["hooks", "trust", "--all"], env, s.workspace);
    assert.deepStrictEqual(trust.code, 0, trust.stderr);
    const second = await run022(["exec", ...s.flags(server.url), "again"], env, s.workspace);
    assert.deepStrictEqual(second.code, 0, second.stderr);
    const after = await modes(home, own);
    const paths = [...after.keys()];
    assert.ok(
      paths.some((p) => p.startsWith(`${home}/hook_outputs/`) && p.endsWith(".txt")),
      paths.join("\n"),
    );
    assert.ok(paths.includes(`${home}/logs/mcp/fx.log`), paths.join("\n"));
    assert.deepStrictEqual(wider(after, await directories(after)), []);
  } finally {
    await server.close();
    await Deno.remove(s.root, { recursive: true });
  }
});

Deno.test("#20 item 13: a $TRELLIS_HOME an earlier version left 0755 is tightened to 0700 with one warning, then quietly", async () => {
  const s = await e2eSetup();
  const home = s.env.TRELLIS_HOME;
  await Deno.mkdir(`${home}/sessions`);
  await Deno.chmod(home, 0o755);
  await Deno.chmod(`${home}/sessions`, 0o755);
  // Someone else's directory beside them is not Trellis's to change.
  await Deno.mkdir(`${home}/mine`);
  await Deno.chmod(`${home}/mine`, 0o755);
  const server = await startFixtureModelServer({ script: [{ text: "one" }, { text: "two" }] });
  try {
    const first = await run022(["exec", ...s.flags(server.url), "hi"], s.env, s.workspace);
    assert.deepStrictEqual(first.code, 0, first.stderr);
    const warning = `Made ${home} (was 0755), ${home}/sessions (was 0755) private (0700)`;
    assert.deepStrictEqual(first.stderr.split(warning).length, 2, first.stderr);
    assert.deepStrictEqual((await Deno.stat(home)).mode! & 0o777, 0o700);
    assert.deepStrictEqual((await Deno.stat(`${home}/sessions`)).mode! & 0o777, 0o700);
    assert.deepStrictEqual((await Deno.stat(`${home}/mine`)).mode! & 0o777, 0o755);
    const second = await run022(["exec", ...s.flags(server.url), "hi"], s.env, s.workspace);
    assert.deepStrictEqual(second.code, 0, second.stderr);
    assert.ok(!second.stderr.includes("private (0700)"), second.stderr);
  } finally {
    await server.close();
    await Deno.remove(s.root, { recursive: true });
  }
});
