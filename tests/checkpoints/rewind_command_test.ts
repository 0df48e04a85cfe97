/**
 * #25 item 2: every turn keeps the state of the files the file tools change, and `trellis rewind`
 * puts them back — real `exec` turns against the fixture model server, real files, real CLI.
 */
import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

const fs = platform.fs;
const read = (file: string) => Deno.readTextFile(file);
const exists = (file: string) => fs.sync.exists(file);

/** Three recorded turns: 1 edits a.txt, 2 creates b.txt and edits a.txt again, 3 runs a shell command. */
async function threeTurns(extra: string[] = []) {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await fs.mkdir(`${ws}/.git`);
  await Deno.writeTextFile(`${ws}/a.txt`, "one\n");
  const script: FixtureScript = {
    steps: [
      {
        tool_calls: [{
          name: "edit_file",
          arguments: { path: "a.txt", old_string: "one", new_string: "two" },
        }],
      },
      { text: "turn 1 done" },
      {
        tool_calls: [
          { name: "write_file", arguments: { path: "b.txt", content: "new file\n" } },
        ],
      },
      {
        tool_calls: [{
          name: "edit_file",
          arguments: { path: "a.txt", old_string: "two", new_string: "three" },
        }],
      },
      { text: "turn 2 done" },
      { tool_calls: [{ name: "shell", arguments: { command: "echo shell > c.txt" } }] },
      { text: "turn 3 done" },
    ],
  };
  const server = await startFixtureModelServer({ script });
  const config = [
    "model_provider=fixture",
    "tool_set=trellis",
    `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
    "model_providers.fixture.request_max_retries=0",
    "skills.bundled.enabled=false",
    ...extra,
  ].flatMap((c) => ["-c", c]);
  const exec = async (args: string[]) => {
    const run = await runCliCaptured(["exec", ...config, "--json", ...args], { env, cwd: ws });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    return run;
  };
  const first = await exec(["fix a"]);
  const id = JSON.parse(first.stdout.split("\n")[0]).thread_id as string;
  await exec(["resume", id, "add b"]);
  await exec(["resume", id, "run shell"]);
  await server.close();
  const rewind = (args: string[]) => runCliCaptured(["rewind", ...args], { env, cwd: ws });
  return { root, env, ws, id, rewind, home: env.TRELLIS_HOME, config, server };
}

Deno.test("#25 item 2: checkpoints live under $TRELLIS_HOME, content-addressed, never in the workspace", async () => {
  const { ws, home, id } = await threeTurns();
  assert.equal(await read(`${ws}/a.txt`), "three\n");
  const dir = `${home}/checkpoints/${id}`;
  const records = (await read(`${dir}/records.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));
  const befores = records.filter((r) => r.kind === "before").map((
    r,
  ) => [r.turn, r.path.slice(ws.length + 1)]);
  assert.deepEqual(befores, [[1, "a.txt"], [2, "b.txt"], [2, "a.txt"]]);
  // Each blob is named by its content's SHA-256: "one\n" is kept as itself.
  const { createHash } = await import("node:crypto");
  const blob = createHash("sha256").update("one\n").digest("hex");
  assert.equal(await read(`${dir}/objects/${blob}`), "one\n");
  const inWorkspace = [...Deno.readDirSync(ws)].map((e) => e.name).sort();
  assert.deepEqual(inWorkspace, [".git", "a.txt", "b.txt", "c.txt"]);
  assert.deepEqual([...Deno.readDirSync(`${ws}/.git`)], []);
});

Deno.test("#25 item 2: rewind --to 2 puts a.txt back to before turn 2, removes b.txt, names the shell command", async () => {
  const { ws, id, rewind } = await threeTurns();
  const run = await rewind([id, "--to", "2"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await read(`${ws}/a.txt`), "two\n");
  assert.equal(exists(`${ws}/b.txt`), false);
  // A shell command's changes are not restorable: named, and c.txt stays.
  assert.match(run.stdout, /not restorable: shell command `echo shell > c\.txt` \(turn 3\)/);
  assert.equal(await read(`${ws}/c.txt`), "shell\n");
  assert.match(run.stdout, /removed .*b\.txt \(created in turn 2\)/);
  // Files only: the conversation still has its three turns.
  const again = await rewind([id, "--to", "1", "--json"]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(await read(`${ws}/a.txt`), "one\n");
  assert.deepEqual(JSON.parse(again.stdout).kept_edited, []);
});

Deno.test("#25 item 2: --last picks this directory's newest session", async () => {
  const { ws, rewind } = await threeTurns();
  const run = await rewind(["--last", "--to", "1"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await read(`${ws}/a.txt`), "one\n");
});

Deno.test("#25 item 2 bad input: a file you edited since is named and kept unless --force", async () => {
  const { ws, id, rewind } = await threeTurns();
  // In place and of the same size as the agent's "three\n": seen all the same (inode, size, mtime).
  await Deno.writeTextFile(`${ws}/a.txt`, "THREE\n");
  const run = await rewind([id, "--to", "1"]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /kept .*a\.txt: it was edited since the agent left it \(your edit stays; --force puts it back\)/,
  );
  assert.equal(await read(`${ws}/a.txt`), "THREE\n");
  // The neighbour: b.txt, untouched since the agent wrote it, is rewound all the same.
  assert.equal(exists(`${ws}/b.txt`), false);
  const forced = await rewind([id, "--to", "1", "--force"]);
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal(await read(`${ws}/a.txt`), "one\n");
});

Deno.test("#25 item 2 bad input: unknown session, a path for an id, N out of range — exit 2, nothing changed", async () => {
  const { ws, id, rewind } = await threeTurns();
  const unknown = await rewind(["nope-123", "--to", "1"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Cannot rewind session "nope-123": no such session/);
  const pathy = await rewind(["../x", "--to", "1"]);
  assert.equal(pathy.code, 2);
  assert.match(pathy.stderr, /not a session id/);
  for (const n of ["0", "4", "-1", "x", "1.5"]) {
    const run = await rewind([id, "--to", n]);
    assert.equal(run.code, 2, `--to ${n}: ${run.stdout}`);
    assert.match(run.stderr, n === "4" ? /its turns are 1 to 3/ : /Cannot (rewind|use --to)/);
    assert.doesNotMatch(run.stderr, /at .*\.ts:\d+/); // no stack trace for a mistake
  }
  assert.equal(await read(`${ws}/a.txt`), "three\n");
  assert.equal(exists(`${ws}/b.txt`), true);
});

Deno.test("#25 item 2 bad input: a missing or corrupt checkpoint stops the rewind before any file is touched", async () => {
  const { ws, id, rewind, home } = await threeTurns();
  const { createHash } = await import("node:crypto");
  const blob = `${home}/checkpoints/${id}/objects/${createHash("sha256").update("one\n").digest("hex")}`;
  await Deno.writeTextFile(blob, "tampered\n");
  const corrupt = await rewind([id, "--to", "1"]);
  assert.equal(corrupt.code, 1);
  assert.match(corrupt.stderr, /Cannot rewind .*a\.txt: its checkpoint .* is corrupt/);
  // Nothing lost: b.txt (whose rewind needed no blob) is still there too.
  assert.equal(await read(`${ws}/a.txt`), "three\n");
  assert.equal(exists(`${ws}/b.txt`), true);
  await Deno.remove(blob);
  const missing = await rewind([id, "--to", "1"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /its checkpoint .* is missing from the store/);
  assert.equal(await read(`${ws}/a.txt`), "three\n");
  // The neighbour: a rewind that needs no missing blob still works.
  const fine = await rewind([id, "--to", "2"]);
  assert.equal(fine.code, 0, fine.stderr);
  assert.equal(await read(`${ws}/a.txt`), "two\n");
});

Deno.test("#25 item 2: --conversation cuts the transcript to before turn N; resume continues from there", async () => {
  const { ws, id, rewind, env, home } = await threeTurns();
  const run = await rewind([id, "--to", "2", "--conversation"]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /conversation cut to before turn 2/);
  assert.equal(await read(`${ws}/a.txt`), "two\n");
  const transcript = await read(`${home}/sessions/${id}.jsonl`);
  assert.match(transcript, /fix a/);
  assert.doesNotMatch(transcript, /add b|run shell/);
  // The whole transcript is kept beside the checkpoints.
  const saved = [...Deno.readDirSync(`${home}/checkpoints/${id}`)].find((e) =>
    e.name.startsWith("transcript-")
  );
  assert.ok(saved);
  assert.match(await read(`${home}/checkpoints/${id}/${saved.name}`), /run shell/);
  // resume sends turn 1's history only, and the next turn is turn 2 again.
  const server = await startFixtureModelServer({ script: { steps: [{ text: "again" }] } });
  const resumed = await runCliCaptured([
    "exec",
    "-c",
    "model_provider=fixture",
    "-c",
    "tool_set=trellis",
    "-c",
    `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
    "-c",
    "skills.bundled.enabled=false",
    "--json",
    "resume",
    id,
    "retry",
  ], { env, cwd: ws });
  await server.close();
  assert.equal(resumed.code, 0, resumed.stderr);
  const body = JSON.stringify(server.requests[0]);
  assert.match(body, /fix a/);
  assert.doesNotMatch(body, /add b|run shell/);
  assert.match(resumed.stdout, new RegExp(`"turn_id":"${id}-t2"`));
});

Deno.test("#25 item 2: checkpoints expire with the session: its transcript gone, the next session removes them", async () => {
  const { ws, id, home, env, config } = await threeTurns();
  await Deno.remove(`${home}/sessions/${id}.jsonl`);
  assert.equal(exists(`${home}/checkpoints/${id}`), true);
  const server = await startFixtureModelServer({ script: { steps: [{ text: "hi" }] } });
  const fresh = await runCliCaptured([
    "exec",
    ...config.slice(0, 0),
    "-c",
    "model_provider=fixture",
    "-c",
    "tool_set=trellis",
    "-c",
    `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
    "-c",
    "skills.bundled.enabled=false",
    "hi",
  ], {
    env,
    cwd: ws,
  });
  await server.close();
  assert.equal(fresh.code, 0, fresh.stderr);
  assert.equal(exists(`${home}/checkpoints/${id}`), false);
});

Deno.test("#25 item 2 bad input: a file that cannot be written back stops only itself, left whole; a second run finishes", async () => {
  const { ws, id, rewind, home } = await threeTurns();
  // A directory where a.txt was: the temp-then-rename cannot replace it.
  await Deno.remove(`${ws}/a.txt`);
  await fs.mkdir(`${ws}/a.txt`);
  await Deno.writeTextFile(`${ws}/a.txt/inside`, "keep me\n");
  const run = await rewind([id, "--to", "1", "--conversation", "--force"]);
  assert.equal(run.code, 1);
  assert.match(run.stdout, /could not put back .*a\.txt .*left as it was/);
  assert.match(run.stderr, /The conversation was not rewound/);
  assert.equal(await read(`${ws}/a.txt/inside`), "keep me\n");
  assert.equal(exists(`${ws}/b.txt`), false); // the neighbour was put back
  assert.match(await read(`${home}/sessions/${id}.jsonl`), /run shell/);
  // No temp file left beside anything.
  assert.deepEqual([...Deno.readDirSync(ws)].map((e) => e.name).filter((n) => n.includes(".tmp-")), []);
  await Deno.remove(`${ws}/a.txt`, { recursive: true });
  const again = await rewind([id, "--to", "1", "--force"]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(await read(`${ws}/a.txt`), "one\n");
});

Deno.test("#25 item 2: on a terminal rewind shows the plan and asks; n changes nothing, y rewinds", async () => {
  const { ws, id, env } = await threeTurns();
  const no = await runCliCaptured(["rewind", id, "--to", "1"], { env, cwd: ws, tty: true, stdin: "n" });
  assert.equal(no.code, 0, no.stderr);
  assert.match(
    no.stdout,
    /Would rewind session .* to before turn 1:[\s\S]*would restore .*a\.txt[\s\S]*Rewind\? \[y\/N\] Nothing rewound\./,
  );
  assert.equal(await read(`${ws}/a.txt`), "three\n");
  const yes = await runCliCaptured(["rewind", id, "--to", "1"], { env, cwd: ws, tty: true, stdin: "y" });
  assert.equal(yes.code, 0, yes.stderr);
  assert.equal(await read(`${ws}/a.txt`), "one\n");
});

Deno.test('#25 item 2: checkpoints.shell = "snapshot" keeps what a shell command changed, so rewind puts it back', async () => {
  const { ws, id, rewind } = await threeTurns(['checkpoints.shell="snapshot"']);
  assert.equal(await read(`${ws}/c.txt`), "shell\n");
  const run = await rewind([id, "--to", "3"]);
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stdout, /not restorable/);
  assert.equal(exists(`${ws}/c.txt`), false);
  // The neighbour: the file tools' changes of earlier turns are untouched by a rewind to turn 3.
  assert.equal(await read(`${ws}/a.txt`), "three\n");
  assert.equal(exists(`${ws}/b.txt`), true);
});

Deno.test("#25 item 2: [checkpoints] enabled = false records nothing; a bad shell value is a config error", async () => {
  const { home, id, rewind, ws } = await threeTurns(["checkpoints.enabled=false"]);
  assert.equal(exists(`${home}/checkpoints/${id}`), false);
  const run = await rewind([id, "--to", "1"]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /no file to put back/);
  assert.equal(await read(`${ws}/a.txt`), "three\n");
  const bad = await runCliCaptured(["exec", "-c", 'checkpoints.shell="always"', "hi"], {
    env: (await makeSandboxHome()).env,
    cwd: ws,
  });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /checkpoints\.shell/);
});

Deno.test("#25 item 2: a sandboxed shell command cannot read the checkpoints (they are masked like sessions/)", async () => {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await fs.mkdir(`${ws}/.git`);
  await Deno.writeTextFile(`${ws}/a.txt`, "SECRET-BEFORE\n");
  const dir = `${env.TRELLIS_HOME}/checkpoints`;
  const script: FixtureScript = {
    steps: [
      { tool_calls: [{ name: "write_file", arguments: { path: "a.txt", content: "after\n" } }] },
      {
        tool_calls: [{
          name: "shell",
          arguments: { command: `cat ${dir}/*/objects/* ; ls ${dir} ; echo done` },
        }],
      },
      { text: "ok" },
    ],
  };
  const server = await startFixtureModelServer({ script });
  const run = await runCliCaptured([
    "exec",
    "-c",
    "model_provider=fixture",
    "-c",
    "tool_set=trellis",
    "-c",
    `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
    "-c",
    "skills.bundled.enabled=false",
    "go",
  ], { env, cwd: ws });
  await server.close();
  assert.equal(run.code, 0, run.stderr);
  const output = JSON.stringify(server.requests[2]);
  assert.match(output, /done/); // the command ran, inside the sandbox
  assert.doesNotMatch(output, /SECRET-BEFORE/);
  // The neighbour: the checkpoint is there, outside the sandbox.
  assert.equal(exists(dir), true);
});
