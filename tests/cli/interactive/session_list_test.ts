import assert from "node:assert/strict";
import { listSessions } from "../../../lib/cli/interactive/session_list.ts";
import { platform } from "../../../lib/platform/mod.ts";

const meta = (id: string, cwd: string) =>
  JSON.stringify({ type: "session_meta", meta: { id, created: "2026-01-02T03:04:05Z", cwd, model: "m" } });
const user = (content: string) =>
  JSON.stringify({ type: "item", item: { type: "message", role: "user", content } });

Deno.test("listSessions lists transcripts newest first with their cwd and first prompt", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/old.jsonl`,
    [meta("old", "/a"), user("<skills_instructions>"), user("first old")].join("\n"),
  );
  await Deno.utime(`${dir}/old.jsonl`, 1000, 1000);
  await Deno.writeTextFile(`${dir}/new.jsonl`, [meta("new", "/b"), user("first new")].join("\n"));
  await Deno.writeTextFile(`${dir}/notes.txt`, "x");
  await Deno.symlink(`${dir}/new.jsonl`, `${dir}/link.jsonl`);
  const list = await listSessions(platform.fs, dir);
  assert.deepEqual(list.map((s) => [s.id, s.cwd, s.firstPrompt]), [["new", "/b", "first new"], [
    "old",
    "/a",
    "first old",
  ]]);
});
