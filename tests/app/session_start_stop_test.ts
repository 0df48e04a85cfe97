/**
 * #26 item 2: a SessionStart hook's "stop" (`continue: false`) is handled once, in the Session —
 * one notice names the reason and every turn ends `stopped` without a model request — so each
 * front end (exec, the interactive app, mcp-server, the library) gets it by running a turn,
 * never by re-implementing it. HK-12.
 */
import assert from "node:assert/strict";
import { noTtyApprover, Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

const STOP = { continue: false, stopReason: "maintenance window" };

/** A home whose one trusted SessionStart hook prints `output`, and a fixture model. */
async function setUp(output: unknown) {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(`${cwd}/.git`);
  const hook = { type: "command", command: `printf '%s' '${JSON.stringify(output)}'`, shell: "/bin/sh" };
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/hooks.json`,
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [hook] }] } }),
  );
  const server = await startFixtureModelServer({ script: [{ text: "answered" }] });
  const toml = [
    'model_provider = "fixture"',
    'model = "fixture-model"',
    "[model_providers.fixture]",
    `base_url = ${JSON.stringify(server.url)}`,
    "request_max_retries = 0",
  ].join("\n") + "\n";
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, toml);
  const trust = await runCliCaptured(["hooks", "trust", "--all"], { env, cwd });
  assert.equal(trust.code, 0, trust.stderr);
  return { env, cwd, server };
}

Deno.test("exec: a SessionStart stop is said once and no model request is made (#26 item 2, HK-12)", async () => {
  const { env, cwd, server } = await setUp(STOP);
  try {
    const run = await runCliCaptured(["exec", "hello"], { env, cwd });
    const said = run.stderr.split("\n").filter((l) => l.includes("SessionStart hook stopped the session"));
    assert.deepStrictEqual(
      said,
      ["note: SessionStart hook stopped the session: maintenance window"],
      run.stderr,
    );
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});

Deno.test("Session: runTurn starts the session itself; a stop ends every turn unrun, notice once (#26 item 2)", async () => {
  const { env, cwd, server } = await setUp(STOP);
  const loaded = await loadConfig(platform.fs, { cwd, env: (name) => env[name] });
  const events: TrellisEventBody[] = [];
  const session = await Session.open({
    platform,
    loaded,
    events: (e) => events.push(e),
    approver: noTtyApprover,
  });
  try {
    assert.equal(session.stoppedBy, null, "nothing has run before the first turn");
    const turn = () => session.runTurn({ prompt: "go", maxSteps: 3, signal: new AbortController().signal });
    assert.equal((await turn()).status, "stopped");
    assert.equal((await turn()).status, "stopped", "a later turn of a stopped session stays unrun");
    assert.equal(session.stoppedBy, "maintenance window");
    const notices = events.filter((e) =>
      e.type === "notice" && String(e.message).includes("stopped the session")
    );
    assert.equal(notices.length, 1, "said once, not per turn");
    assert.equal(server.requests.length, 0);
  } finally {
    await session.close();
    await server.close();
  }
});

Deno.test("Session: a SessionStart hook that does not stop runs once, and the turn reaches the model (#26 item 2)", async () => {
  // The neighbour: start() called by the front end and again by runTurn runs the hooks once.
  const context = { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx-once" } };
  const { env, cwd, server } = await setUp(context);
  const loaded = await loadConfig(platform.fs, { cwd, env: (name) => env[name] });
  const session = await Session.open({ platform, loaded, events: () => {}, approver: noTtyApprover });
  try {
    await session.start(new AbortController().signal);
    const result = await session.runTurn({ prompt: "go", maxSteps: 3, signal: new AbortController().signal });
    assert.equal(result.status, "completed");
    assert.equal(session.stoppedBy, null);
    const body = JSON.stringify(server.requests[0]);
    assert.equal(body.split("ctx-once").length - 1, 1, "the hook's context was recorded once");
  } finally {
    await session.close();
    await server.close();
  }
});
