import assert from "node:assert/strict";
import { listSessions, resolveResume } from "../../lib/app/mod.ts";
import { platform } from "../../lib/platform/mod.ts";

const meta = (id: string, cwd: string) =>
  JSON.stringify({ type: "session_meta", meta: { id, created: "2026-01-02T03:04:05Z", cwd, model: "m" } });
const user = (content: string) =>
  JSON.stringify({ type: "item", item: { type: "message", role: "user", content } });
const agentsMd = (cwd: string) =>
  user(`# AGENTS.md instructions for ${cwd}\n\n<INSTRUCTIONS>\nbe brief\n</INSTRUCTIONS>`);

async function write(dir: string, id: string, lines: string[], mtime: number) {
  await Deno.writeTextFile(`${dir}/${id}.jsonl`, lines.join("\n") + "\n");
  await Deno.utime(`${dir}/${id}.jsonl`, mtime, mtime);
}

Deno.test("listSessions lists transcripts newest first with their cwd and first prompt", async () => {
  const dir = await Deno.makeTempDir();
  await write(dir, "old", [meta("old", "/a"), user("<skills_instructions>"), user("first old")], 1000);
  await write(dir, "new", [meta("new", "/b"), user("first new")], 2000);
  await Deno.writeTextFile(`${dir}/notes.txt`, "x");
  await Deno.symlink(`${dir}/new.jsonl`, `${dir}/link.jsonl`);
  const { sessions, total } = await listSessions(platform.fs, dir, { cwd: null });
  assert.deepEqual(sessions.map((s) => [s.id, s.cwd, s.firstPrompt]), [
    ["new", "/b", "first new"],
    ["old", "/a", "first old"],
  ]);
  assert.equal(total, 2);
});

// #21 item 3: the injected AGENTS.md / CLAUDE.md message is not the first prompt.
Deno.test("listSessions: the first prompt is the first one typed, not the injected instructions or a summary", async () => {
  const dir = await Deno.makeTempDir();
  await write(dir, "a", [meta("a", "/w"), agentsMd("/w"), user("fix the parser")], 1000);
  await write(dir, "b", [meta("b", "/w"), agentsMd("/w")], 2000);
  const { sessions } = await listSessions(platform.fs, dir, { cwd: null });
  assert.deepEqual(sessions.map((s) => [s.id, s.firstPrompt]), [["b", ""], ["a", "fix the parser"]]);
});

Deno.test("listSessions: only the sessions of `cwd`; a session file cut mid-line is named, the rest loads", async () => {
  const dir = await Deno.makeTempDir();
  await write(
    dir,
    "here",
    [meta("here", "/w"), '{"type":"item","item":{"type":"mess', user("after the cut")],
    1000,
  );
  await write(dir, "there", [meta("there", "/other"), user("elsewhere")], 2000);
  const { sessions } = await listSessions(platform.fs, dir, { cwd: "/w" });
  assert.deepEqual(sessions.map((s) => [s.id, s.firstPrompt]), [["here", "after the cut"]]);
  assert.match(sessions[0].warning ?? "", /line 2 is not JSON/);
  const all = await listSessions(platform.fs, dir, { cwd: null });
  assert.equal(all.sessions[0].warning, undefined, "a whole file gets no warning");
});

Deno.test("listSessions over 1,000 sessions lists the newest `limit` and counts the rest", async () => {
  const dir = await Deno.makeTempDir();
  for (let i = 0; i < 1000; i++) {
    await write(dir, `s${i}`, [meta(`s${i}`, "/w"), user(`prompt ${i}`)], 1000 + i);
  }
  const { sessions, total } = await listSessions(platform.fs, dir, { cwd: "/w", limit: 200 });
  assert.equal(sessions.length, 200);
  assert.equal(total, 1000);
  assert.equal(sessions[0].firstPrompt, "prompt 999");
});

// #21 item 4: `--last` is the newest session of this directory (of any with --all), as Codex picks it.
Deno.test("resolveResume --last picks the newest session recorded in cwd; --all the newest anywhere", async () => {
  const dir = await Deno.makeTempDir();
  await write(dir, "mine", [meta("mine", "/w"), user("here")], 1000);
  await write(dir, "theirs", [meta("theirs", "/other"), user("there")], 2000);
  assert.deepEqual(await resolveResume(platform.fs, dir, { last: true, cwd: "/w", all: false }), {
    id: "mine",
    cwd: "/w",
  });
  assert.deepEqual(await resolveResume(platform.fs, dir, { last: true, cwd: "/w", all: true }), {
    id: "theirs",
    cwd: "/other",
  });
  await assert.rejects(
    resolveResume(platform.fs, dir, { last: true, cwd: "/nowhere", all: false }),
    /none was recorded in \/nowhere; `trellis resume --last --all`/,
  );
  assert.deepEqual(await resolveResume(platform.fs, dir, { id: "theirs" }), { id: "theirs", cwd: "/other" });
});
