import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { events, runTrellis, trellisArgv } from "./_binary.ts";
import { e2eSetup, modelFixture } from "./_setup.ts";

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
    const calls = stream.filter((e) => e.type === "item.completed" && e.item.type === "tool_call");
    assert.deepEqual(calls.map((e) => [e.item.name, e.item.status]), [
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
    const calls = events(run.stdout).filter((e) =>
      e.type === "item.completed" && e.item.type === "tool_call"
    );
    assert.deepEqual(calls.map((e) => e.item.status), ["denied", "denied", "denied"]);
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
    const call = stream.find((e) => e.type === "item.completed" && e.item.type === "tool_call");
    assert.equal(call?.item.status, "failed", call?.item.output);
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
      args: [...argv.slice(1), "exec", "--json", ...s.flags(server.url), "sleep"],
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
    const call = events(seen).find((e) => e.type === "item.completed" && e.item.type === "tool_call");
    assert.equal(call?.item.status, "aborted");
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
