import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

const guard = (command: string) =>
  JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] } });

async function sandbox(command = "echo no >&2; exit 2") {
  const { root, env } = await makeSandboxHome();
  const file = `${env.TRELLIS_HOME}/hooks.json`;
  await platform.fs.writeTextFile(file, guard(command));
  const run = (...argv: string[]) => runCliCaptured(["hooks", ...argv], { env, cwd: root });
  return { root, env, file, key: `${file}:pre_tool_use:0:0`, run };
}

Deno.test("hooks list --json reports key, event, matcher, command, source, trust, hash and enabled", async () => {
  const { run, file, key } = await sandbox();
  const listed = await run("list", "--json");
  assert.deepStrictEqual(listed.code, 0, listed.stderr);
  const { hooks: [entry], needsReview } = JSON.parse(listed.stdout);
  assert.deepStrictEqual({ ...entry, hash: "…" }, {
    key,
    event: "PreToolUse",
    matcher: "Bash",
    if: null,
    async: false,
    asyncRewake: false,
    type: "command",
    command: "echo no >&2; exit 2",
    args: null,
    once: false,
    source: file,
    sourceKind: "user",
    origin: "trellis",
    vendorEvent: null,
    plugin: null,
    trust: "untrusted",
    trustReason: null,
    hash: "…",
    contentHash: null,
    enabled: true,
    runnable: false,
  });
  assert.deepStrictEqual(needsReview, 1);
  const text = await run("list");
  assert.match(text.stdout, /1 hook needs review: trellis hooks list/);
});

Deno.test("hooks trust writes trusted_hash into user config keeping its comments, and untrust removes it", async () => {
  const { run, env, key } = await sandbox();
  const userConfig = `${env.TRELLIS_HOME}/config.toml`;
  await platform.fs.writeTextFile(userConfig, '# my settings\nmodel = "m"\n');
  const trusted = await run("trust", key);
  assert.deepStrictEqual(trusted.code, 0, trusted.stderr);
  const hash = JSON.parse((await run("list", "--json")).stdout).hooks[0].hash;
  assert.deepStrictEqual(
    await platform.fs.readTextFile(userConfig),
    `# my settings\nmodel = "m"\n\n[hooks.state."${key}"]\ntrusted_hash = "${hash}"\n`,
  );
  assert.deepStrictEqual(JSON.parse((await run("list", "--json")).stdout).hooks[0].trust, "trusted");
  await run("untrust", key);
  assert.deepStrictEqual(await platform.fs.readTextFile(userConfig), `# my settings\nmodel = "m"\n`);
});

Deno.test("hooks trust --all, disable and enable change what `hooks test` runs", async () => {
  const { run, key } = await sandbox();
  const before = await run("test", "PreToolUse", "--input", '{"command":"ls"}');
  assert.deepStrictEqual(before.stdout, `skipped ${key}: untrusted\noutcome: {"additionalContexts":[]}\n`);
  await run("trust", "--all");
  const after = await run("test", "PreToolUse", "--tool", "Bash", "--input", '{"command":"ls"}');
  assert.match(
    after.stdout,
    new RegExp(`^blocked ${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(\\d+ ms, finished #1\\)\n`),
  );
  assert.match(after.stdout, /outcome: \{"block":\{"reason":"no"\},"additionalContexts":\[\]\}\n$/);
  await run("disable", key);
  assert.deepStrictEqual(
    (await run("test", "PreToolUse")).stdout,
    `skipped ${key}: disabled\noutcome: {"additionalContexts":[]}\n`,
  );
  await run("enable", key);
  assert.match((await run("test", "PreToolUse")).stdout, /^blocked /);
});

Deno.test("hooks trust exits 2 for an unknown key and hooks test for an unknown event", async () => {
  const { run } = await sandbox();
  const trust = await run("trust", "nope");
  assert.deepStrictEqual([trust.code, trust.stderr], [
    2,
    'error: Cannot trust hook "nope": no such hook (see `trellis hooks list`)\n',
  ]);
  const test = await run("test", "PreToolUze");
  assert.deepStrictEqual(test.code, 2);
  assert.match(test.stderr, /^error: Cannot test hook event "PreToolUze": unknown event/);
});

Deno.test("hooks doctor reports a trusted guard that cannot run and exits 1", async () => {
  const { run, key } = await sandbox("/nonexistent/guard.sh");
  await run("trust", "--all");
  const doctor = await run("doctor");
  assert.deepStrictEqual(doctor.code, 1);
  assert.match(
    doctor.stdout,
    new RegExp(`FAIL ${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: hook exited with code 127`),
  );
  assert.match(doctor.stdout, /0 of 1 runnable hook\(s\) work\n$/);
});

Deno.test("hooks list numbers its entries and trust/untrust/disable/enable take the number for the key (#21 item 11)", async () => {
  const { run, env, key } = await sandbox();
  const listed = await run("list");
  assert.match(
    listed.stdout,
    new RegExp(`^1\\. untrusted on  ${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"),
  );
  assert.match(listed.stdout, /trellis hooks trust N\|KEY\|--all/);
  const trusted = await run("trust", "1");
  assert.deepStrictEqual(trusted.code, 0, trusted.stderr);
  assert.match(trusted.stdout, new RegExp(`^Trusted ${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} `));
  assert.deepStrictEqual(JSON.parse((await run("list", "--json")).stdout).hooks[0].trust, "trusted");
  const userConfig = `${env.TRELLIS_HOME}/config.toml`;
  for (const [verb, past] of [["disable", "Disabled"], ["enable", "Enabled"], ["untrust", "Untrusted"]]) {
    const done = await run(verb, "1");
    assert.deepStrictEqual(done.stdout, `${past} ${key} (${userConfig})\n`, verb);
  }
  assert.deepStrictEqual(JSON.parse((await run("list", "--json")).stdout).hooks[0].trust, "untrusted");
  // A number past the list is no hook at all, and nothing is written.
  const before = await platform.fs.readTextFile(userConfig);
  const missing = await run("trust", "2");
  assert.deepStrictEqual(missing.code, 2);
  assert.match(missing.stderr, /Cannot trust hook "2": no such hook/);
  assert.deepStrictEqual(await platform.fs.readTextFile(userConfig), before);
});

Deno.test("hooks test fires each #24 event through the real engine with Claude Code's stdin (#24 item 1, HK-1)", async () => {
  const { root, env } = await makeSandboxHome();
  const file = `${env.TRELLIS_HOME}/hooks.json`;
  const events = ["SessionEnd", "Notification", "PostToolUseFailure", "CwdChanged", "Interrupt"];
  const hooks = Object.fromEntries(
    events.map((e) => [e, [{ hooks: [{ type: "command", command: `cat > ${e}.json`, shell: "/bin/sh" }] }]]),
  );
  await platform.fs.writeTextFile(file, JSON.stringify({ hooks }));
  const run = (...argv: string[]) => runCliCaptured(["hooks", ...argv], { env, cwd: root });
  assert.deepStrictEqual((await run("trust", "--all")).code, 0);
  for (const event of events) {
    const tested = await run("test", event);
    assert.deepStrictEqual(tested.code, 0, tested.stderr);
    const sent = JSON.parse(await platform.fs.readTextFile(`${root}/${event}.json`));
    assert.equal(sent.hook_event_name, event);
  }
  const sessionEnd = JSON.parse(await platform.fs.readTextFile(`${root}/SessionEnd.json`));
  assert.equal(sessionEnd.reason, "other");
  const failure = JSON.parse(await platform.fs.readTextFile(`${root}/PostToolUseFailure.json`));
  assert.deepStrictEqual([failure.tool_name, typeof failure.error], ["Bash", "string"]);
  // The neighbour: an event nobody fires is refused by name.
  const unknown = await run("test", "TaskCreated");
  assert.notDeepStrictEqual(unknown.code, 0);
  assert.match(unknown.stderr, /unknown event/);
});

Deno.test("hooks doctor names an http hook without an allowlist and a prompt hook without a model (#24 bad input)", async () => {
  const { root, env } = await makeSandboxHome();
  const file = `${env.TRELLIS_HOME}/hooks.json`;
  await platform.fs.writeTextFile(
    file,
    JSON.stringify({
      hooks: {
        PreToolUse: [{
          hooks: [{ type: "http", url: "http://127.0.0.1:9/h" }, {
            type: "prompt",
            prompt: "ok? $ARGUMENTS",
          }],
        }],
      },
    }),
  );
  const run = (...argv: string[]) => runCliCaptured(["hooks", ...argv], { env, cwd: root });
  assert.deepStrictEqual((await run("trust", "--all")).code, 0);
  const listed = await run("list");
  assert.match(listed.stdout, /PreToolUse: http http:\/\/127\.0\.0\.1:9\/h/);
  assert.match(listed.stdout, /PreToolUse: prompt ok\? \$ARGUMENTS/);
  const doctor = await run("doctor");
  assert.deepStrictEqual(doctor.code, 1);
  assert.match(
    doctor.stdout,
    /FAIL .*:pre_tool_use:0:0: http hook not run: \[hooks\] allowed_http_hook_urls is not set in your config/,
  );
  assert.match(doctor.stdout, /FAIL .*:pre_tool_use:0:1: prompt hook not run: no model in this session/);
});
