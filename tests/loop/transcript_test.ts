import assert from "node:assert/strict";
import { checkResumeId, checkSessionId, TranscriptStore } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { UsageError } from "../../lib/shared/mod.ts";

async function store() {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("transcript-test-"));
  return { root, dir: `${root}/sessions`, store: new TranscriptStore(platform.fs, `${root}/sessions`) };
}

const meta = (id: string) => ({ id, created: "2025-01-01T00:00:00Z", cwd: "/w", model: "m" });

Deno.test("TranscriptStore.create() writes no file until the first line, then the header and the line together", async () => {
  const { dir, store: sessions } = await store();
  const transcript = await sessions.create({}, meta("s1"));
  assert.equal(await platform.fs.stat(dir), null);
  await transcript.recordItem({ type: "message", role: "user", content: "hi" });
  await transcript.recordTurn("s1-t1", "completed", {
    inputTokens: 10,
    cachedInputTokens: 4,
    outputTokens: 3,
    reasoningTokens: 1,
  });
  await transcript.close();
  const lines = (await platform.fs.readTextFile(`${dir}/s1.jsonl`)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.deepEqual(lines, [
    { type: "session_meta", meta: meta("s1") },
    { type: "item", item: { type: "message", role: "user", content: "hi" } },
    {
      type: "turn",
      turn_id: "s1-t1",
      status: "completed",
      usage: { input_tokens: 10, cached_input_tokens: 4, output_tokens: 3, reasoning_output_tokens: 1 },
    },
  ]);
});

Deno.test("TranscriptStore.open() refuses ids that are paths and transcripts that are symlinks", async () => {
  const { root, dir, store: sessions } = await store();
  await platform.fs.mkdir(dir);
  const outside = `${root}/outside.jsonl`;
  await platform.fs.writeTextFile(outside, JSON.stringify({ type: "session_meta", meta: meta("o") }) + "\n");
  await platform.fs.symlink(outside, `${dir}/linked.jsonl`);
  for (const id of ["../outside", "/tmp/x", "a/b", ".hidden", ""]) {
    await assert.rejects(() => sessions.open(id), (error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /not a session id/);
      return true;
    });
  }
  await assert.rejects(() => sessions.open("linked"), /its transcript is not a regular file/);
  await assert.rejects(() => sessions.open("absent"), /Cannot resume session "absent": no such session in /);
  assert.doesNotThrow(() => checkSessionId("20250101120000-1a2b3c4d"));
});

Deno.test("checkResumeId() is the one check of exec resume, trellis resume and open(): id, missing, symlink", async () => {
  const { root, dir } = await store();
  await platform.fs.mkdir(dir);
  await platform.fs.writeTextFile(`${dir}/ok.jsonl`, "{}\n");
  await platform.fs.symlink(`${dir}/ok.jsonl`, `${dir}/link.jsonl`);
  assert.equal(await checkResumeId(platform.fs, dir, "ok"), `${dir}/ok.jsonl`);
  await assert.rejects(checkResumeId(platform.fs, dir, "../ok"), /not a session id/);
  await assert.rejects(checkResumeId(platform.fs, dir, `${root}/x`), /not a session id/);
  await assert.rejects(checkResumeId(platform.fs, dir, "missing"), /no such session in /);
  await assert.rejects(checkResumeId(platform.fs, dir, "link"), /not a regular file/);
});
