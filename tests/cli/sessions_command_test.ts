import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

// #21 item 3: `trellis sessions [--all] [--json]` lists the picker's rows without a terminal.

const meta = (id: string, cwd: string) =>
  JSON.stringify({ type: "session_meta", meta: { id, created: "2026-01-02T03:04:05Z", cwd, model: "m" } });
const user = (content: string) =>
  JSON.stringify({ type: "item", item: { type: "message", role: "user", content } });

async function recorded() {
  const { root, env } = await makeSandboxHome();
  const here = `${root}/here`;
  const there = `${root}/there`;
  await platform.fs.mkdir(here);
  await platform.fs.mkdir(there);
  const dir = `${env.TRELLIS_HOME}/sessions`;
  await platform.fs.mkdir(dir);
  const agents = user(`# AGENTS.md instructions for ${here}\n\n<INSTRUCTIONS>\nx\n</INSTRUCTIONS>`);
  await Deno.writeTextFile(
    `${dir}/s-here.jsonl`,
    [meta("s-here", here), agents, user("fix it")].join("\n") + "\n",
  );
  await Deno.utime(`${dir}/s-here.jsonl`, 1000, 1000);
  await Deno.writeTextFile(
    `${dir}/s-there.jsonl`,
    [meta("s-there", there), '{"type":"item","ite', user("over there")].join("\n") + "\n",
  );
  await Deno.utime(`${dir}/s-there.jsonl`, 2000, 2000);
  return { env, here, there };
}

Deno.test("trellis sessions lists this directory's sessions with their first typed prompt", async () => {
  const { env, here } = await recorded();
  const run = await runCliCaptured(["sessions"], { env, cwd: here });
  assert.equal(run.code, 0, run.stderr);
  const rows = run.stdout.trimEnd().split("\n");
  assert.equal(rows.length, 1, run.stdout);
  assert.match(rows[0], new RegExp(`^s-here  1970-01-01 00:16  ${here}  fix it$`));
  assert.doesNotMatch(run.stdout, /AGENTS\.md/);
});

Deno.test("trellis sessions --all --json: every directory's, newest first; a cut line is a named warning", async () => {
  const { env, here, there } = await recorded();
  const run = await runCliCaptured(["sessions", "--all", "--json"], { env, cwd: here });
  assert.equal(run.code, 0, run.stderr);
  const rows = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((r) => [r.id, r.cwd, r.first_prompt]), [
    ["s-there", there, "over there"],
    ["s-here", here, "fix it"],
  ]);
  assert.match(run.stderr, /warning: session s-there \(.*s-there\.jsonl\): line 2 is not JSON/);
});

// #22 item 3: a session's subagent transcripts (`<id>-agentN.jsonl`) show with it — the tree a
// resume restores — and are never rows of their own.
Deno.test("trellis sessions names each session's subagents; a child transcript is not a session row", async () => {
  const { env, here } = await recorded();
  const dir = `${env.TRELLIS_HOME}/sessions`;
  const child = (id: string, agentType: string) =>
    JSON.stringify({
      type: "session_meta",
      meta: {
        id,
        created: "2026-01-02T03:04:05Z",
        cwd: here,
        model: "m",
        parent: { threadId: "s-here", agentType, callId: "c" },
      },
    }) + "\n";
  await Deno.writeTextFile(`${dir}/s-here-agent2.jsonl`, child("s-here-agent2", "reviewer"));
  await Deno.writeTextFile(`${dir}/s-here-agent1.jsonl`, child("s-here-agent1", "code-explorer"));
  await Deno.writeTextFile(`${dir}/s-here-agent3.jsonl`, child("s-here-agent3", "code-explorer"));
  const run = await runCliCaptured(["sessions"], { env, cwd: here });
  assert.equal(run.code, 0, run.stderr);
  const rows = run.stdout.trimEnd().split("\n");
  assert.equal(rows.length, 1, run.stdout);
  assert.match(rows[0], / {2}fix it {2}\[agents: code-explorer ×2, reviewer\]$/);
  const json = await runCliCaptured(["sessions", "--json"], { env, cwd: here });
  assert.deepEqual(JSON.parse(json.stdout.trim()).agents, [
    { id: "s-here-agent1", agent_type: "code-explorer" },
    { id: "s-here-agent2", agent_type: "reviewer" },
    { id: "s-here-agent3", agent_type: "code-explorer" },
  ]);
});
