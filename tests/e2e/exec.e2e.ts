import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { callItems, events, runTrellis, trellisArgv } from "./_binary.ts";
import { e2eSetup, modelFixture } from "./_setup.ts";
import { execArgs } from "../helpers/exec_args.ts";

const setup = e2eSetup;
const fixture = modelFixture;

Deno.test("exec --json runs a read + edit turn and streams versioned events", async () => {
  const s = await setup();
  const server = await startFixtureModelServer({ script: fixture("read_and_edit") });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "mark the TODO done"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const stream = events(run.stdout);
    assert.ok(stream.every((e) => e.version === 1));
    const types = stream.map((e) => e.type).filter((t) => t !== "item.updated");
    assert.equal(types[0], "thread.started");
    assert.equal(types[1], "turn.started");
    assert.equal(types.at(-1), "turn.completed");
    const calls = stream.filter((e) => e.type === "item.completed" && "call_id" in e.item);
    assert.deepEqual(calls.map((e) => [e.item.name, e.item.call_status]), [
      ["read_file", "completed"],
      ["edit_file", "completed"],
    ]);
    assert.equal(await Deno.readTextFile(`${s.workspace}/notes.md`), "# Notes\n- DONE: ship\n");
    assert.equal(server.requests.length, 3);
  } finally {
    await server.close();
  }
});

Deno.test("exec prints the final message on stdout and resume --last continues the transcript", async () => {
  const s = await setup();
  const server = await startFixtureModelServer({
    script: [{ text: "first answer" }, { text: "second answer" }],
  });
  try {
    const first = await runTrellis(["exec", ...s.flags(server.url), "hello"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, "first answer\n");
    const second = await runTrellis(["exec", "resume", "--last", ...s.flags(server.url), "again"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, "second answer\n");
    const input = (server.requests[1] as { input: { role?: string; content?: unknown }[] }).input;
    const texts = JSON.stringify(input);
    assert.match(texts, /hello/);
    assert.match(texts, /first answer/);
    assert.match(texts, /again/);
  } finally {
    await server.close();
  }
});

Deno.test("writes through ../, outside absolute paths and outward symlinks are denied without a TTY", async () => {
  const s = await setup();
  await Deno.writeTextFile(`${s.root}/outside.txt`, "untouched");
  await Deno.symlink(`${s.root}/outside.txt`, `${s.workspace}/link.txt`);
  const server = await startFixtureModelServer({
    script: [{
      tool_calls: [
        { name: "write_file", arguments: { path: "../outside.txt", content: "pwned" } },
        { name: "write_file", arguments: { path: `${s.root}/outside.txt`, content: "pwned" } },
        { name: "edit_file", arguments: { path: "link.txt", old_string: "untouched", new_string: "pwned" } },
      ],
    }, { text: "done" }],
  });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "escape"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const calls = events(run.stdout).filter((e) => e.type === "item.completed" && "call_id" in e.item);
    assert.deepEqual(calls.map((e) => e.item.call_status), ["denied", "denied", "denied"]);
    assert.equal(await Deno.readTextFile(`${s.root}/outside.txt`), "untouched");
  } finally {
    await server.close();
  }
});

Deno.test("a shell command writing outside the writable roots fails under bwrap", async () => {
  const s = await setup();
  await Deno.writeTextFile(`${s.root}/outside.txt`, "untouched");
  const server = await startFixtureModelServer({
    script: [{
      tool_calls: [{ name: "shell", arguments: { command: `echo pwned > ${s.root}/outside.txt` } }],
    }, { text: "done" }],
  });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "escape"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const stream = events(run.stdout);
    // bwrap is always there (CI installs it): the sandbox is on and the write itself fails.
    assert.equal(stream.find((e) => e.type === "sandbox.unavailable"), undefined);
    const call = stream.find((e) => e.type === "item.completed" && "call_id" in e.item);
    assert.equal(call?.item.call_status, "failed", call?.item.output);
    assert.match(call?.item.output, /outside\.txt: Read-only file system/);
    assert.equal(await Deno.readTextFile(`${s.root}/outside.txt`), "untouched");
  } finally {
    await server.close();
  }
});

Deno.test("an unknown provider exits 2 listing the known ids", async () => {
  const s = await setup();
  const run = await runTrellis(["exec", "-c", "model_provider=nope", "hi"], { env: s.env, cwd: s.workspace });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /openai/);
  assert.match(run.stderr, /ollama/);
  assert.doesNotMatch(run.stderr, /\s+at\s/);
});

Deno.test("a .env or bunfig.toml in the cwd is not read: keys come from the environment only", async () => {
  const s = await setup();
  await Deno.writeTextFile(`${s.workspace}/.env`, "OPENAI_API_KEY=from-dotenv\n");
  await Deno.writeTextFile(`${s.workspace}/bunfig.toml`, 'preload = ["./nope.ts"]\n');
  const run = await runTrellis(["exec", "-c", "model_provider=openai", "hi"], {
    env: s.env,
    cwd: s.workspace,
  });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /OPENAI_API_KEY/);
  assert.doesNotMatch(run.stderr, /\s+at\s/);
});

Deno.test("malformed TOML exits 2 naming the file and line, and nothing is written", async () => {
  const s = await setup();
  const file = `${s.env.TRELLIS_HOME}/config.toml`;
  await Deno.writeTextFile(file, "model = \n");
  const run = await runTrellis(["exec", "hi"], { env: s.env, cwd: s.workspace });
  assert.equal(run.code, 2);
  assert.match(run.stderr, new RegExp(`${file}:1`));
  assert.equal(await Deno.readTextFile(file), "model = \n");
  assert.deepEqual([...Deno.readDirSync(s.env.TRELLIS_HOME)].map((e) => e.name), ["config.toml"]);
});

Deno.test("SIGINT during a tool call aborts it, exits 130 and keeps call/output pairs matched", async () => {
  const s = await setup();
  const server = await startFixtureModelServer({
    script: [{ tool_calls: [{ name: "shell", arguments: { command: "sleep 30" } }] }, { text: "never" }],
  });
  try {
    const argv = trellisArgv();
    const child = new Deno.Command(argv[0], {
      args: [...argv.slice(1), ...execArgs(["exec", "--json", ...s.flags(server.url), "sleep"])],
      cwd: s.workspace,
      env: { PATH: Deno.env.get("PATH") ?? "", ...s.env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (!seen.includes('"item.started"')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    child.kill("SIGINT");
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    const status = await child.status;
    await child.stderr.cancel();
    assert.equal(status.code, 130);
    const call = events(seen).find((e) => e.type === "item.completed" && "call_id" in e.item);
    assert.equal(call?.item.call_status, "aborted");
    const sessions = `${s.env.TRELLIS_HOME}/sessions`;
    const file = [...Deno.readDirSync(sessions)][0].name;
    const lines = (await Deno.readTextFile(`${sessions}/${file}`)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    const calls = lines.filter((l) => l.item?.type === "function_call").map((l) => l.item.callId);
    const outputs = lines.filter((l) => l.item?.type === "function_call_output").map((l) => l.item.callId);
    assert.deepEqual(outputs, calls);
  } finally {
    await server.close();
  }
});

Deno.test("an HTTP 500, garbage or a stream dropped midway gives turn.failed; the transcript stays resumable", async () => {
  const cases = [
    { failure: [{ fail: { status: 500, times: 1 }, text: "recovered" }], reason: /500/ },
    { failure: [{ garbage: true }, { text: "recovered" }], reason: /Cannot read the model stream/ },
    {
      failure: [{ drop_after_events: 2, text: "a long answer that never ends" }, { text: "recovered" }],
      reason: /Cannot read the model stream/,
    },
  ];
  for (const { failure, reason } of cases) {
    const s = await setup();
    const server = await startFixtureModelServer({
      script: [{ tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }] }, ...failure],
    });
    try {
      const flags = [
        ...s.flags(server.url),
        "-c",
        "model_providers.fixture.request_max_retries=0",
        "-c",
        "model_providers.fixture.stream_max_retries=0",
      ];
      const run = await runTrellis(["exec", "--json", ...flags, "go"], { env: s.env, cwd: s.workspace });
      assert.equal(run.code, 1, run.stderr);
      const failed = events(run.stdout).find((e) => e.type === "turn.failed");
      assert.match(failed?.error.message, reason);
      const resumed = await runTrellis(["exec", "resume", "--last", ...flags, "again"], {
        env: s.env,
        cwd: s.workspace,
      });
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(resumed.stdout, "recovered\n");
    } finally {
      await server.close();
    }
  }
});

Deno.test("a reasoning model keeps its chain: encrypted reasoning goes back across tool calls and a resume (#15 item 6)", async () => {
  const s = await setup();
  const server = await startFixtureModelServer({
    script: [
      {
        reasoning: "Read the notes first.",
        tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }],
      },
      { text: "first answer" },
      { text: "second answer" },
    ],
  });
  try {
    const flags = [...s.flags(server.url), "-c", "model_reasoning_effort=low"];
    const first = await runTrellis(["exec", ...flags, "read notes"], { env: s.env, cwd: s.workspace });
    assert.equal(first.code, 0, first.stderr);
    const second = await runTrellis(["exec", "resume", "--last", ...flags, "again"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(second.code, 0, second.stderr);
    // The fixture, like the API with store: false, refuses a reasoning item with an id or without
    // its encrypted content; here it is sent back on the tool-output request and after the resume.
    const sent = (server.requests as { include?: string[]; input: Record<string, unknown>[] }[]).map((r) => ({
      include: r.include,
      reasoning: r.input.filter((item) => item.type === "reasoning"),
    }));
    const reasoning = {
      type: "reasoning",
      summary: [{ type: "summary_text", text: "Read the notes first." }],
      encrypted_content: `enc:${btoa("Read the notes first.")}`,
    };
    const include = ["reasoning.encrypted_content"];
    assert.deepEqual(sent, [
      { include, reasoning: [] },
      { include, reasoning: [reasoning] },
      { include, reasoning: [reasoning] },
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("a required MCP server that fails ends the --json stream with turn.failed, exit 2, and leaves no transcript", async () => {
  const s = await setup();
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.broken]\ncommand = "${s.root}/no-such-server"\nrequired = true\n`,
  );
  const server = await startFixtureModelServer({ script: [{ text: "never" }] });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "hi"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 2, run.stderr);
    const last = events(run.stdout).at(-1);
    assert.equal(last?.type, "turn.failed");
    assert.equal(last?.error.code, "mcp_required_failed");
    assert.match(last?.error.message, /Cannot start required MCP server "broken"/);
    assert.equal(server.requests.length, 0);
    assert.deepEqual(sessionFiles(s.env.TRELLIS_HOME), []);
  } finally {
    await server.close();
  }
});

function sessionFiles(home: string): string[] {
  try {
    return [...Deno.readDirSync(`${home}/sessions`)].map((e) => e.name);
  } catch {
    return [];
  }
}

Deno.test("a usage error after the thread started leaves no empty transcript for resume --last to pick", async () => {
  const s = await setup();
  const server = await startFixtureModelServer({ script: [{ text: "never" }] });
  try {
    const run = await runTrellis(["exec", ...s.flags(server.url), "--skill", "no-such-skill", "hi"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /no-such-skill/);
    assert.deepEqual(sessionFiles(s.env.TRELLIS_HOME), []);
    const resumed = await runTrellis(["exec", "resume", "--last", ...s.flags(server.url), "again"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(resumed.code, 2);
    assert.match(resumed.stderr, /no sessions in/);
  } finally {
    await server.close();
  }
});

Deno.test("exec resume refuses an id that is a path or names no session, and touches no file outside sessions", async () => {
  const s = await setup();
  // A well-formed transcript two folders above the sessions folder: `../../x` reached it before.
  const planted = `${s.root}/home/x.jsonl`;
  const content = JSON.stringify({
    type: "session_meta",
    meta: { id: "x", created: "2025-01-01T00:00:00Z", cwd: s.workspace, model: "m" },
  }) + "\n";
  await Deno.writeTextFile(planted, content);
  const server = await startFixtureModelServer({ script: [{ text: "never" }] });
  try {
    const cases: [string, RegExp][] = [
      ["../../x", /Cannot resume session "\.\.\/\.\.\/x": not a session id/],
      [planted.slice(0, -".jsonl".length), /not a session id/],
      ["20250101000000-deadbeef", /Cannot resume session "20250101000000-deadbeef": no such session in /],
    ];
    for (const [id, message] of cases) {
      const run = await runTrellis(["exec", "resume", id, ...s.flags(server.url), "hi"], {
        env: s.env,
        cwd: s.workspace,
      });
      assert.equal(run.code, 2, `${id}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, /\s+at\s/);
    }
    assert.equal(await Deno.readTextFile(planted), content);
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});

Deno.test("exec -C with a missing directory and -o naming a directory are refused before anything runs", async () => {
  const s = await setup();
  const server = await startFixtureModelServer({ script: [{ text: "never" }] });
  try {
    const missing = await runTrellis(["exec", "-C", "missing/", ...s.flags(server.url), "hi"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.deepEqual([missing.code, missing.stdout], [2, ""]);
    assert.match(missing.stderr, /Cannot use --cd "missing\/": no such directory/);
    const intoDir = await runTrellis(["exec", "-o", s.root, ...s.flags(server.url), "hi"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.deepEqual([intoDir.code, intoDir.stdout], [2, ""]);
    assert.match(
      intoDir.stderr,
      new RegExp(`Cannot write the last message to "${s.root}": it is a directory`),
    );
    for (const run of [missing, intoDir]) assert.doesNotMatch(run.stderr, /internal error|\s+at\s/);
    assert.equal(server.requests.length, 0);
    assert.deepEqual(sessionFiles(s.env.TRELLIS_HOME), []);
  } finally {
    await server.close();
  }
});

Deno.test("-c and -p before the subcommand apply to it, as codex takes them (#16 item 8)", async () => {
  const s = await setup();
  const server = await startFixtureModelServer({
    script: [
      { text: "from -c" },
      { text: "from -p" },
      { tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }] },
      { text: "from -C" },
    ],
  });
  try {
    const [, , , baseUrl, , model] = s.flags(server.url);
    const viaConfig = await runTrellis(
      ["-c", "model_provider=fixture", "-c", baseUrl, "exec", "-m", model, "hi"],
      { env: s.env, cwd: s.workspace },
    );
    assert.deepEqual([viaConfig.code, viaConfig.stdout], [0, "from -c\n"], viaConfig.stderr);
    await Deno.writeTextFile(
      `${s.env.TRELLIS_HOME}/config.toml`,
      `[profiles.fx]\nmodel_provider = "fixture"\nmodel = "fixture-model"\n`,
    );
    const viaProfile = await runTrellis(["-p", "fx", "-c", baseUrl, "exec", "hi"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.deepEqual([viaProfile.code, viaProfile.stdout], [0, "from -p\n"], viaProfile.stderr);
    // -C before the command: notes.md is read from the workspace although the process runs above it.
    const viaCd = await runTrellis(["-p", "fx", "-c", baseUrl, "-C", "workspace", "exec", "--json", "hi"], {
      env: s.env,
      cwd: s.root,
    });
    assert.equal(viaCd.code, 0, viaCd.stderr);
    assert.deepEqual(callItems(viaCd.stdout).map((item) => [item.name, item.call_status]), [[
      "read_file",
      "completed",
    ]]);
    assert.deepEqual(
      server.requests.map((r) => (r as { model: string }).model),
      Array(4).fill("fixture-model"),
    );
  } finally {
    await server.close();
  }
});

Deno.test("--version prints the version, the runtime and the commit the binary was built from", async () => {
  const s = await setup();
  const run = await runTrellis(["--version"], { env: s.env, cwd: s.workspace });
  assert.equal(run.code, 0);
  // dist/trellis has its commit baked in by scripts/compile/bun_build.ts; the sources have none.
  const commit = Deno.env.get("TRELLIS_BIN") ? "[0-9a-f]{12}(-dirty)?" : "unknown";
  assert.match(
    run.stdout,
    new RegExp(`^trellis \\d+\\.\\d+\\.\\d+ \\((bun|deno) \\d+\\.\\d+\\.\\d+[^,]*, commit ${commit}\\)\\n$`),
  );
});

Deno.test("an endless or keep-alive-only model stream fails the turn cleanly at its bound: exit 1, transcript resumable (#13)", async () => {
  const cases = [
    {
      step: { text: "more ", endless: true },
      limit: "stream_max_bytes=300000",
      reason: /exceeded 300000 bytes/,
    },
    {
      step: { text: "one two", stall_after_events: 3, keepalive_ms: 10 },
      limit: "stream_idle_timeout_ms=400",
      reason: /no data for 400 ms \(stream_idle_timeout_ms\)/,
    },
    {
      step: { text: "one two", stall_after_events: 3, keepalive_ms: 10 },
      limit: "stream_max_duration_ms=400",
      reason: /took longer than 400 ms \(stream_max_duration_ms\)/,
    },
  ];
  for (const { step, limit, reason } of cases) {
    const s = await setup();
    const server = await startFixtureModelServer({ script: [step, { text: "recovered" }] });
    try {
      const flags = [
        ...s.flags(server.url),
        "-c",
        `model_providers.fixture.${limit}`,
        "-c",
        "model_providers.fixture.stream_max_retries=0",
      ];
      const run = await runTrellis(["exec", "--json", ...flags, "go"], {
        env: s.env,
        cwd: s.workspace,
        timeoutMs: 30_000,
      });
      assert.equal(run.code, 1, `${limit}: ${run.stderr}`);
      const last = events(run.stdout).at(-1);
      assert.equal(last?.type, "turn.failed");
      assert.match(last?.error.message, reason);
      const resumed = await runTrellis(["exec", "resume", "--last", ...flags, "again"], {
        env: s.env,
        cwd: s.workspace,
      });
      assert.deepEqual([resumed.code, resumed.stdout], [0, "recovered\n"], resumed.stderr);
    } finally {
      await server.close();
    }
  }
});

Deno.test("-m, -s and -a before the subcommand apply to it too; the command's own win (#16 item 8)", async () => {
  const s = await setup();
  const server = await startFixtureModelServer({
    script: [
      { tool_calls: [{ name: "shell", arguments: { command: "touch made-by-shell" } }] },
      { text: "global flags" },
      { text: "own flag wins" },
    ],
  });
  try {
    const [, provider, , baseUrl] = s.flags(server.url);
    const global = await runTrellis(
      [
        "-m",
        "from-root",
        "-s",
        "read-only",
        "-a",
        "never",
        "-c",
        provider,
        "-c",
        baseUrl,
        "exec",
        "--json",
        "hi",
      ],
      { env: s.env, cwd: s.workspace },
    );
    assert.equal(global.code, 0, global.stderr);
    // read-only with never: the write is refused inside the sandbox, never asked about.
    assert.equal(await Deno.stat(`${s.workspace}/made-by-shell`).then(() => true, () => false), false);
    const own = await runTrellis([
      "-m",
      "from-root",
      "-c",
      provider,
      "-c",
      baseUrl,
      "exec",
      "-m",
      "own",
      "hi",
    ], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.deepEqual([own.code, own.stdout], [0, "own flag wins\n"], own.stderr);
    assert.deepEqual(
      server.requests.map((r) => (r as { model: string }).model),
      ["from-root", "from-root", "own"],
    );
    const bad = await runTrellis(["-s", "bogus", "exec", "hi"], { env: s.env, cwd: s.workspace });
    assert.equal(bad.code, 2);
    // Blamed on the flag that carried it, with its choices (#21 item 11).
    assert.match(bad.stderr, /option '-s, --sandbox <mode>' argument 'bogus' is invalid/);
  } finally {
    await server.close();
  }
});

Deno.test("exec started in $HOME warns once and runs read-only: the model's `touch` cannot write there; -s workspace-write can (#20 item 5)", async () => {
  const s = await setup();
  const home = s.env.HOME;
  const server = await startFixtureModelServer({ script: fixture("shell_touch") });
  try {
    const plain = await runTrellis(["exec", ...s.flags(server.url), "touch it"], { env: s.env, cwd: home });
    assert.equal(plain.code, 0, plain.stderr);
    const warned = plain.stderr.split("\n").filter((l) => /is your home directory/.test(l));
    assert.equal(warned.length, 1, plain.stderr);
    assert.match(
      warned[0],
      /^warning: The workspace ".*" is your home directory: sandbox_mode defaults to "read-only"/,
    );
    assert.equal(await Deno.stat(`${home}/approved.txt`).then(() => true, () => false), false);
    // A second server: the first one's script is spent.
    const again = await startFixtureModelServer({ script: fixture("shell_touch") });
    const chosen = await runTrellis(["exec", "-s", "workspace-write", ...s.flags(again.url), "touch it"], {
      env: s.env,
      cwd: home,
    });
    assert.equal(chosen.code, 0, chosen.stderr);
    assert.match(chosen.stderr, /sandbox_mode = "workspace-write" \(-c\) lets commands write/);
    await again.close();
    assert.ok(await Deno.stat(`${home}/approved.txt`));
  } finally {
    await server.close();
  }
});

Deno.test("the binary's exec_command runs on its own PTY under bwrap: a session write_stdin types into later, a terminal on stdin, stderr on the one output (#23 item 2)", async () => {
  const s = await setup();
  const server = await startFixtureModelServer({
    script: [
      { tool_calls: [{ name: "exec_command", arguments: { cmd: "cat", tty: true, yield_time_ms: 500 } }] },
      {
        tool_calls: [{
          name: "write_stdin",
          arguments: { session_id: 1000, chars: "KESTREL\n", yield_time_ms: 1000 },
        }],
      },
      {
        tool_calls: [{
          name: "exec_command",
          arguments: { cmd: "test -t 0 && echo TTY || echo PIPE; echo OOPS >&2", tty: true },
        }],
      },
      { tool_calls: [{ name: "exec_command", arguments: { cmd: "test -t 0 && echo TTY || echo PIPE" } }] },
      { text: "done" },
    ],
  });
  try {
    const run = await runTrellis(
      ["exec", "--json", "-c", 'tool_set="codex"', ...s.flags(server.url), "type into cat"],
      { env: s.env, cwd: s.workspace },
    );
    assert.equal(run.code, 0, run.stderr);
    // deno-lint-ignore no-explicit-any
    const last = (server.requests as Record<string, any>[]).at(-1)!;
    // deno-lint-ignore no-explicit-any
    const out = last.input.filter((i: any) => i.type === "function_call_output").map((i: any) => i.output);
    assert.match(out[0], /Process running with session ID 1000/);
    assert.match(out[1], /KESTREL/);
    assert.match(out[2], /TTY\r?\n[\s\S]*OOPS/, "a terminal, and stderr on it");
    assert.match(out[3], /PIPE/, "no tty: plain pipes");
  } finally {
    await server.close();
  }
});
