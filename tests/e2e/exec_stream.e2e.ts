/**
 * What `exec` writes while a turn runs: the JSONL stream in Codex's shapes (#16 item 8), its size
 * (#13 item 12), the human answer streaming to stdout (#15 item 7), and a reader that goes away.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { events, PipeReader, spawnTrellis, trellisArgv } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";
import { execArgs } from "../helpers/exec_args.ts";

const FX = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;

/** The answer's bytes on stdout, read as they come; stops (false) past `maxBytes`. */
async function jsonlFor(answer: string, maxBytes: number): Promise<{ within: boolean; stdout: string }> {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({ script: [{ text: answer }] });
  const child = spawnTrellis(["exec", "--json", ...s.flags(server.url), "write a lot"], {
    env: s.env,
    cwd: s.workspace,
  });
  try {
    const out = new PipeReader(child.stdout);
    const within = await out.toEnd(maxBytes);
    if (!within) child.kill("SIGKILL");
    return { within, stdout: out.text };
  } finally {
    await child.stderr.cancel();
    await child.status;
    await server.close();
  }
}

Deno.test("exec --json writes a streamed answer once as deltas and once whole: O(answer), not O(answer²)", async () => {
  for (const words of [20_000, 40_000]) {
    const answer = "word ".repeat(words);
    // One delta line per word would be ~22× the answer; the text re-sent per word was ~10,000×.
    const bound = 30 * answer.length + 64 * 1024;
    const { within, stdout } = await jsonlFor(answer, bound);
    assert.ok(within, `${answer.length} bytes of answer gave more than ${bound} bytes of JSONL`);
    const stream = events(stdout);
    const deltas = stream.filter((e) => e.type === "item.agent_message.delta").map((e) => e.delta).join("");
    const completed = stream.filter((e) => e.type === "item.completed" && e.item.type === "agent_message");
    assert.equal(deltas, answer);
    assert.deepEqual(completed.map((e) => e.item.text), [answer]);
    assert.equal(stream.filter((e) => e.type === "item.updated").length, 0);
  }
});

Deno.test("exec --json gives tool calls Codex's item shapes and usage in Codex's fields (#16 item 8)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo"]\nrequired = true\n`,
  );
  const server = await startFixtureModelServer({
    script: [{
      tool_calls: [
        { name: "shell", arguments: { command: "echo hi" } },
        { name: "shell", arguments: { command: "echo oops; exit 3" } },
        { name: "write_file", arguments: { path: "new.txt", content: "x" } },
        { name: "read_file", arguments: { path: "notes.md" } },
        { name: "mcp__fx__echo", arguments: { text: "ping" } },
      ],
      usage: { input_tokens: 100, cached_tokens: 50, output_tokens: 20, reasoning_tokens: 3 },
    }, { text: "done", usage: { input_tokens: 7, cached_tokens: 2, output_tokens: 1, reasoning_tokens: 0 } }],
  });
  try {
    const child = spawnTrellis(["exec", "--json", ...s.flags(server.url), "do things"], {
      env: s.env,
      cwd: s.workspace,
    });
    const out = new PipeReader(child.stdout);
    await out.toEnd();
    await child.stderr.cancel();
    assert.equal((await child.status).code, 0);
    const stream = events(out.text);
    const started = stream.filter((e) => e.type === "item.started" && "call_id" in e.item).map((e) => e.item);
    const done = stream.filter((e) => e.type === "item.completed" && "call_id" in e.item).map((e) => e.item);
    const shape = (item: Record<string, any>) => {
      const { id: _id, call_id: _call, duration_ms: _ms, output: _output, ...rest } = item;
      return rest;
    };
    assert.deepEqual(started.map(shape), [
      {
        type: "command_execution",
        command: "echo hi",
        aggregated_output: "",
        status: "in_progress",
        name: "shell",
        source: "builtin",
        call_status: "in_progress",
      },
      {
        type: "command_execution",
        command: "echo oops; exit 3",
        aggregated_output: "",
        status: "in_progress",
        name: "shell",
        source: "builtin",
        call_status: "in_progress",
      },
      {
        type: "file_change",
        changes: [{ path: `${s.workspace}/new.txt`, kind: "add" }],
        status: "in_progress",
        name: "write_file",
        source: "builtin",
        call_status: "in_progress",
      },
      {
        type: "tool_call",
        arguments: '{"path":"notes.md"}',
        status: "in_progress",
        name: "read_file",
        source: "builtin",
        call_status: "in_progress",
      },
      {
        type: "mcp_tool_call",
        server: "fx",
        tool: "echo",
        arguments: { text: "ping" },
        status: "in_progress",
        name: "mcp__fx__echo",
        source: "mcp:fx",
        call_status: "in_progress",
      },
    ]);
    assert.deepEqual(done.map(shape), [
      {
        ...shape(started[0]),
        aggregated_output: "hi\n",
        exit_code: 0,
        status: "completed",
        call_status: "completed",
      },
      {
        ...shape(started[1]),
        aggregated_output: "oops\n",
        exit_code: 3,
        status: "failed",
        call_status: "failed",
      },
      { ...shape(started[2]), status: "completed", call_status: "completed" },
      { ...shape(started[3]), status: "completed", call_status: "completed" },
      {
        ...shape(started[4]),
        result: { content: [{ type: "text", text: "ping" }], structured_content: null },
        status: "completed",
        call_status: "completed",
      },
    ]);
    assert.ok(done.every((item) => item.id.startsWith("item_") && typeof item.duration_ms === "number"));
    assert.deepEqual(started.map((item) => item.id), done.map((item) => item.id));
    const last = stream.at(-1)!;
    assert.deepEqual({ type: last.type, usage: last.usage, steps: last.steps }, {
      type: "turn.completed",
      usage: { input_tokens: 107, cached_input_tokens: 52, output_tokens: 21, reasoning_output_tokens: 3 },
      steps: 2,
    });
  } finally {
    await server.close();
  }
});

/**
 * `trellis exec … | head -n LINES`: head reads its lines and exits while the answer still streams.
 * The fixture holds the stream until head has printed, then streams for a second more, then calls
 * a tool that would create `marker`.
 */
async function underHead(json: boolean, lines: number) {
  const s = await e2eSetup();
  let seen: () => void = () => {};
  const headPrinted = new Promise<void>((resolve) => seen = resolve);
  // Should head never print (nothing streamed), the hold ends after 30 s and the assertions fail.
  const guard = setTimeout(seen, 30_000);
  const server = await startFixtureModelServer({
    script: [{
      text: `first line\n${"more ".repeat(50)}`,
      event_delay_ms: 20,
      tool_calls: [{ name: "shell", arguments: { command: `touch ${s.root}/marker` } }],
    }, { text: "after the tool" }],
    hold: (request, chunk) => request === 0 && chunk === 4 ? headPrinted : undefined,
  });
  try {
    const argv = [
      ...trellisArgv(),
      ...execArgs(["exec", ...(json ? ["--json"] : []), ...s.flags(server.url), "go"]),
    ];
    const child = new Deno.Command("bash", {
      args: ["-c", `"$@" 2>"$ERR" | head -n ${lines}; echo "\${PIPESTATUS[0]}" >"$CODE"`, "bash", ...argv],
      cwd: s.workspace,
      env: {
        ...s.env,
        PATH: Deno.env.get("PATH") ?? "",
        ERR: `${s.root}/err.txt`,
        CODE: `${s.root}/code.txt`,
      },
      clearEnv: true,
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const out = new PipeReader(child.stdout);
    await out.until((text) => text.split("\n").length > lines);
    seen();
    await out.toEnd();
    await child.status;
    const transcript = await lastTranscript(s.env.TRELLIS_HOME);
    return {
      line: out.text,
      code: (await Deno.readTextFile(`${s.root}/code.txt`)).trim(),
      stderr: await Deno.readTextFile(`${s.root}/err.txt`),
      marker: await Deno.stat(`${s.root}/marker`).then(() => true, () => false),
      requests: server.requests.length,
      turn: transcript.filter((l) => l.type === "turn").map((l) => l.status),
    };
  } finally {
    clearTimeout(guard);
    await server.close();
  }
}

async function lastTranscript(home: string): Promise<Record<string, any>[]> {
  const dir = `${home}/sessions`;
  const [file] = [...Deno.readDirSync(dir)].map((e) => e.name).sort().reverse();
  return (await Deno.readTextFile(`${dir}/${file}`)).trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("exec --json | head -3 exits quietly when head goes away, cancelling the turn before its tool runs", async () => {
  const run = await underHead(true, 3);
  assert.deepEqual(events(run.line).map((e) => e.type), ["thread.started", "turn.started", "item.started"]);
  assert.deepEqual(
    { code: run.code, stderr: run.stderr, marker: run.marker, requests: run.requests, turn: run.turn },
    { code: "141", stderr: "", marker: false, requests: 1, turn: ["aborted"] },
  );
});

Deno.test("exec | head -1 (human mode) exits quietly when head goes away, cancelling the turn", async () => {
  const run = await underHead(false, 1);
  assert.equal(run.line, "first line\n");
  assert.doesNotMatch(run.stderr, /EPIPE|Broken pipe|rror|^\s+at /m);
  assert.deepEqual(
    { code: run.code, marker: run.marker, requests: run.requests, turn: run.turn },
    { code: "141", marker: false, requests: 1, turn: ["aborted"] },
  );
});

Deno.test("exec streams the answer to stdout as it arrives, before the model's stream has ended (#15 item 7)", async () => {
  const s = await e2eSetup();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  // If nothing reaches stdout while the stream is held, the hold ends after 30 s and the test fails.
  const guard = setTimeout(release, 30_000);
  let released = false;
  const server = await startFixtureModelServer({
    script: [{ text: "Streaming answers arrive piece by piece until the end" }],
    hold: (_request, chunk) => chunk === 6 ? held.then(() => void (released = true)) : undefined,
  });
  try {
    const child = spawnTrellis(["exec", ...s.flags(server.url), "go"], { env: s.env, cwd: s.workspace });
    const out = new PipeReader(child.stdout);
    await out.until((text) => text.length > 0);
    const firstSeenWhileHeld = !released;
    const first = out.text;
    release();
    await out.toEnd();
    await child.stderr.cancel();
    assert.equal((await child.status).code, 0);
    assert.ok(firstSeenWhileHeld, "stdout stayed empty while the model stream was held");
    assert.ok(first.length > 0 && "Streaming answers arrive".startsWith(first.slice(0, 23).trimEnd()));
    assert.equal(out.text, "Streaming answers arrive piece by piece until the end\n");
  } finally {
    clearTimeout(guard);
    await server.close();
  }
});
