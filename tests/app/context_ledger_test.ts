import assert from "node:assert/strict";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { type ContextLedger, Session, sessionContextLedger } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { contextLedgerLines } from "../../lib/cli/context_ledger_table.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { call, say, scriptedModel } from "../loop/_fakes.ts";

// The ledger of a live session (`/context`, #17 item 3): its real history, the context a
// SessionStart hook added, the tool outputs — and `debug context --resume` counts the same history.

const rowTokens = (ledger: ContextLedger, source: string) =>
  ledger.rows.filter((r) => r.source === source).reduce((sum, r) => sum + r.tokens, 0);

Deno.test("a live session's ledger counts its history, tool outputs and hook-added context; --resume counts the same", async () => {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  const notes = "Hello, world! The quick brown fox jumps over the lazy dog.\n".repeat(40);
  await platform.fs.writeTextFile(`${cwd}/notes.txt`, notes);
  const hook = `${root}/start.sh`;
  await platform.fs.writeTextFile(
    hook,
    `#!/bin/sh\ncat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"remember HERON"}}'\n`,
  );
  await platform.fs.chmod(hook, 0o755);
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/hooks.json`,
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: hook }] }] } }),
  );
  assert.equal((await runCliCaptured(["hooks", "trust", "--all"], { env, cwd })).code, 0);
  const loaded = await loadConfig(platform.fs, {
    cwd,
    env: (name) => env[name],
    overrides: ['model="gpt-5"', "skills.bundled.enabled=false", "tool_set=trellis"],
  });
  const hookEnv = { ...env, PATH: platform.env("PATH") ?? "/usr/bin:/bin", SHELL: "/bin/sh" };
  const sessionPlatform = {
    ...platform,
    env: (name: string) => hookEnv[name as keyof typeof hookEnv],
    envAll: () => ({ ...hookEnv }),
  };
  const session = await Session.open({
    platform: sessionPlatform,
    loaded,
    events: () => {},
    approver: noTtyApprover,
    model: scriptedModel([[call("read_file", { path: "notes.txt" })], [say("The fox is in notes.txt.")]]),
  });
  let live: ContextLedger;
  try {
    await session.start(new AbortController().signal);
    const result = await session.runTurn({
      prompt: "where is the fox?",
      maxSteps: 5,
      signal: new AbortController().signal,
    });
    assert.equal(result.status, "completed");
    live = await sessionContextLedger(session, { preview: false });
  } finally {
    await session.close();
  }
  assert.equal(live.encoding, "o200k_base");
  assert.equal(rowTokens(live, "hook_context"), countTokens("remember HERON"));
  const output = session.transcript.items.find((i) => i.type === "function_call_output");
  assert.ok(output?.type === "function_call_output");
  assert.equal(rowTokens(live, "tool_outputs"), countTokens(output.output));
  assert.ok(rowTokens(live, "tool_outputs") > 40 * 13, "the 40 lines of notes are in the output");
  // The earlier prompt, the call and the answer; the next prompt is empty.
  const callItem = session.transcript.items.find((i) => i.type === "function_call")!;
  assert.ok(callItem.type === "function_call");
  assert.equal(
    rowTokens(live, "history"),
    countTokens("where is the fox?") + countTokens(callItem.name + callItem.arguments) +
      countTokens("The fox is in notes.txt."),
  );
  assert.deepEqual(live.notes, []);

  const resumed = await runCliCaptured(
    ["debug", "context", "--json", "--resume", session.threadId, "-c", "skills.bundled.enabled=false"],
    { env, cwd },
  );
  assert.equal(resumed.code, 0, resumed.stderr);
  const ledger = JSON.parse(resumed.stdout) as ContextLedger;
  for (const source of ["hook_context", "tool_outputs", "history", "project_instructions"]) {
    assert.equal(rowTokens(ledger, source), rowTokens(live, source), source);
  }
  assert.match(ledger.notes[0], /hooks do not run for a preview/);
});

Deno.test("bad input: a tokenizer that fails to load gives the labelled estimate and one warning naming the cause", async () => {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  const known = "Hello, world! The quick brown fox jumps over the lazy dog.";
  await platform.fs.writeTextFile(`${cwd}/AGENTS.md`, known);
  const loaded = await loadConfig(platform.fs, {
    cwd,
    env: (name) => env[name],
    overrides: ['model="gpt-5"', "skills.bundled.enabled=false", "tool_set=trellis"],
  });
  const session = await Session.open({
    platform,
    loaded,
    events: () => {},
    approver: noTtyApprover,
    preview: true,
    model: scriptedModel([]),
  });
  let ledger: ContextLedger;
  try {
    // A real import of a module that is not there: what a broken install or a bad bundle does.
    const missing = `file://${root}/no_such_tokenizer.mjs`;
    ledger = await sessionContextLedger(session, { preview: true, importEncoding: () => import(missing) });
  } finally {
    await session.close();
  }
  assert.equal(ledger.encoding, "estimate");
  assert.equal(ledger.warnings.length, 1);
  assert.match(ledger.warnings[0], /o200k_base tokenizer of gpt-5 failed to load \(.*no_such_tokenizer\.mjs/);
  assert.equal(
    ledger.rows.find((r) => r.name === `AGENTS.md ${cwd}/AGENTS.md`)!.tokens,
    Math.ceil(known.length / 4),
  );
  const lines = contextLedgerLines(ledger);
  assert.match(lines[0], /tokens by ESTIMATE \(characters \/ 4\)/);
  assert.equal(lines.filter((l) => l.startsWith("warning: ")).length, 1);
});
