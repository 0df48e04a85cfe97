/**
 * #25 item 2: the live session's rewind — what `/rewind` and the ACP front end call
 * (`Session.rewindPoints()`, `Session.rewind()`) — on a real session against the fixture model.
 */
import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { openFixtureSession } from "../helpers/fixture_session.ts";

const fs = platform.fs;

Deno.test("#25 item 2: Session.rewind({ conversation }) puts files back, trims the history, and the next turn is turn N again", async () => {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await fs.mkdir(`${ws}/.git`);
  await Deno.writeTextFile(`${ws}/a.txt`, "one\n");
  const server = await startFixtureModelServer({
    script: [
      {
        tool_calls: [{
          name: "edit_file",
          arguments: { path: "a.txt", old_string: "one", new_string: "two" },
        }],
      },
      { text: "first" },
      { tool_calls: [{ name: "write_file", arguments: { path: "b.txt", content: "b\n" } }] },
      { text: "second" },
      { text: "third" },
    ],
  });
  const { session, events } = await openFixtureSession({
    cwd: ws,
    env,
    url: server.url,
    overrides: ["tool_set=trellis"],
  });
  try {
    const signal = new AbortController().signal;
    assert.deepEqual(await session.rewindPoints(), []);
    await assert.rejects(session.rewind({ to: 1 }), /this session has no turns yet/);
    await session.runTurn({ prompt: "alpha", maxSteps: 5, signal });
    await session.runTurn({ prompt: "beta", maxSteps: 5, signal });
    const points = await session.rewindPoints();
    assert.deepEqual(points.map((p) => [p.turn, p.prompt, p.files]), [
      [1, "alpha", [`${ws}/a.txt`]],
      [2, "beta", [`${ws}/b.txt`]],
    ]);
    await assert.rejects(session.rewind({ to: 3 }), /its turns are 1 to 2/);
    const outcome = await session.rewind({ to: 2, conversation: true });
    assert.deepEqual(outcome.restored, [`${ws}/b.txt`]);
    assert.equal(fs.sync.exists(`${ws}/b.txt`), false);
    assert.equal(await Deno.readTextFile(`${ws}/a.txt`), "two\n");
    await session.runTurn({ prompt: "gamma", maxSteps: 5, signal });
    const last = JSON.stringify(server.requests.at(-1));
    assert.match(last, /alpha/);
    assert.doesNotMatch(last, /beta/);
    const started = events.filter((e) => e.type === "turn.started").map((e) =>
      (e as { turn_id: string }).turn_id
    );
    assert.deepEqual(started.map((id) => id.slice(-3)), ["-t1", "-t2", "-t2"]);
    // The transcript agrees: a resume would see alpha and gamma only.
    const transcript = await Deno.readTextFile(session.transcript.file!);
    assert.match(transcript, /alpha[\s\S]*gamma/);
    assert.doesNotMatch(transcript, /beta/);
  } finally {
    await session.close();
    await server.close();
  }
});
