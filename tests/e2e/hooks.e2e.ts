import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { events, runTrellis, trellisArgv } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";
import { execArgs } from "../helpers/exec_args.ts";

const guard = {
  hooks: {
    PreToolUse: [{
      matcher: "Write|Edit",
      hooks: [{
        type: "command",
        command: "cat > \"$TMPDIR/pre.json\"; echo 'edits are frozen' >&2; exit 2",
      }],
    }],
    Stop: [{
      hooks: [{
        type: "command",
        command:
          `if grep -q '"stop_hook_active":true'; then echo '{}'; else echo '{"decision":"block","reason":"check the tests"}'; fi`,
      }],
    }],
  },
};

Deno.test("HK-3 an untrusted user hook never runs; after `trellis hooks trust --all` it guards edits (HK-9, HK-13)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/hooks.json`, JSON.stringify(guard));
  const script = [
    {
      tool_calls: [{
        name: "edit_file",
        arguments: { path: "notes.md", old_string: "TODO", new_string: "DONE" },
      }],
    },
    { text: "tried" },
    { text: "checked" },
  ];
  const first = await startFixtureModelServer({ script });
  try {
    const untrusted = await runTrellis(["exec", "--json", ...s.flags(first.url), "edit"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(untrusted.code, 0, untrusted.stderr);
    const notices = events(untrusted.stdout).filter((e) => e.type === "notice").map((e) => e.message);
    assert.ok(
      notices.some((m) => /2 hooks need review: trellis hooks list/.test(m)),
      JSON.stringify(notices),
    );
    assert.equal(await Deno.readTextFile(`${s.workspace}/notes.md`), "# Notes\n- DONE: ship\n");
  } finally {
    await first.close();
  }

  await Deno.writeTextFile(`${s.workspace}/notes.md`, "# Notes\n- TODO: ship\n");
  const trust = await runTrellis(["hooks", "trust", "--all"], { env: s.env, cwd: s.workspace });
  assert.equal(trust.code, 0, trust.stderr);
  const second = await startFixtureModelServer({ script });
  try {
    const guarded = await runTrellis(["exec", "--json", ...s.flags(second.url), "edit"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(guarded.code, 0, guarded.stderr);
    const stream = events(guarded.stdout);
    const call = stream.find((e) => e.type === "item.completed" && "call_id" in e.item);
    assert.equal(call?.item.call_status, "denied");
    assert.match(call?.item.output, /Tool call blocked by PreToolUse hook: edits are frozen/);
    assert.equal(await Deno.readTextFile(`${s.workspace}/notes.md`), "# Notes\n- TODO: ship\n");
    const stdin = JSON.parse(await Deno.readTextFile(`${s.env.TMPDIR}/pre.json`));
    assert.equal(stdin.tool_name, "Edit");
    assert.equal(stdin.hook_event_name, "PreToolUse");
    assert.deepEqual(stdin.tool_input, {
      file_path: `${s.workspace}/notes.md`,
      old_string: "TODO",
      new_string: "DONE",
      replace_all: false,
    });
    // Stop blocked once with a reason: a third sampling saw the continuation prompt.
    assert.equal(second.requests.length, 3);
    assert.match(
      JSON.stringify(second.requests[2]),
      /<hook_prompt hook_run_id=[^>]*>check the tests<\/hook_prompt>/,
    );
    assert.ok(
      stream.some((e) => e.type === "hook.completed" && e.event === "PreToolUse" && e.status === "blocked"),
    );
  } finally {
    await second.close();
  }
});

// #14 / #13 against the binary: hooks as Claude Code runs them, output as it reads it.

const WARNING = "⚠️ Security Warning: eval() executes arbitrary code and is a major security risk.";

/** Writes `hooks` as the user's hooks.json and trusts every hook in it, as a user would. */
async function trustedHooks(s: Awaited<ReturnType<typeof e2eSetup>>, hooks: unknown): Promise<void> {
  await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/hooks.json`, JSON.stringify({ hooks }));
  const trust = await runTrellis(["hooks", "trust", "--all"], { env: s.env, cwd: s.workspace });
  assert.equal(trust.code, 0, trust.stderr);
}

/** A shell script in the setup's root; hooks call it by path (no quoting games). */
async function script(s: Awaited<ReturnType<typeof e2eSetup>>, name: string, body: string): Promise<string> {
  const file = `${s.root}/${name}`;
  await Deno.writeTextFile(file, `#!/bin/sh\n${body}\n`);
  await Deno.chmod(file, 0o755);
  return file;
}

Deno.test("#14 item 1: a hook gets the user's environment and writes under ~ while shell is sandboxed (HK-6)", async () => {
  const s = await e2eSetup();
  const log = await script(s, "log.sh", 'cat >/dev/null; echo "$NOTIFY_TOKEN" >> "$HOME/hook.log"');
  await trustedHooks(s, { PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: log }] }] });
  const server = await startFixtureModelServer({
    script: [{ tool_calls: [{ name: "write_file", arguments: { path: "a.txt", content: "x" } }] }, {
      text: "ok",
    }],
  });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "write"], {
      env: { ...s.env, NOTIFY_TOKEN: "xoxb-secret" },
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await Deno.readTextFile(`${s.env.HOME}/hook.log`), "xoxb-secret\n");
  } finally {
    await server.close();
  }
});

Deno.test("#14 item 2: security-guidance's PostToolUse warning beside metrics, and a trailing metrics line, reach the model (HK-8)", async () => {
  const s = await e2eSetup();
  const out = {
    metrics: { pattern_hits: 1, rule_id: 4 },
    hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: WARNING },
  };
  const guard = await script(
    s,
    "guard.sh",
    `cat >/dev/null\ncat <<'JSON'\n${JSON.stringify(out)}\n{"metrics":{"tok_in":3}}\nJSON`,
  );
  await trustedHooks(s, {
    PostToolUse: [{
      matcher: "Edit|Write|MultiEdit|NotebookEdit",
      hooks: [{ type: "command", command: guard }],
    }],
  });
  const server = await startFixtureModelServer({
    script: [
      { tool_calls: [{ name: "write_file", arguments: { path: "app.js", content: "eval(input)" } }] },
      { text: "noted" },
    ],
  });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "write"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(server.requests.length, 2);
    assert.ok(JSON.stringify(server.requests[1]).includes(JSON.stringify(WARNING).slice(1, -1)));
    const test = await runTrellis(
      [
        "hooks",
        "test",
        "PostToolUse",
        "--tool",
        "Write",
        "--input",
        '{"file_path":"a.js","content":"eval(x)"}',
      ],
      { env: s.env, cwd: s.workspace },
    );
    assert.ok(test.stdout.includes("\n    ignored: metrics, line 2\n"), test.stdout);
  } finally {
    await server.close();
  }
});

Deno.test("#14 item 3: an if-gated asyncRewake review wakes the model before the turn ends; the other if never runs (HK-5)", async () => {
  const s = await e2eSetup();
  const review = await script(
    s,
    "review.sh",
    // The review ends only once the model answers the step after the commit (the fixture server
    // marks it), so its wake arrives while the model works, as a slow review's does.
    `cat > "$TMPDIR/review-stdin.json"\nfor i in $(seq 200); do [ -e "$TMPDIR/second-request" ] && break; sleep 0.05; done\n` +
      `echo '{"metrics":{"findings":1}}'\necho 'Hardcoded secret in config.py:3' >&2\nexit 2`,
  );
  const push = await script(s, "push.sh", 'cat >/dev/null; touch "$TMPDIR/push-review-ran"');
  await trustedHooks(s, {
    PostToolUse: [{
      matcher: "Bash",
      hooks: [
        {
          type: "command",
          command: review,
          if: "Bash(git commit:*)",
          asyncRewake: true,
          rewakeMessage: "Background security review of commit:",
          rewakeSummary: "Commit security review found issues",
        },
        { type: "command", command: push, if: "Bash(git push:*)", asyncRewake: true },
        { type: "command", command: "echo never", if: "Bash(git push" },
      ],
    }],
  });
  const server = await startFixtureModelServer({
    script: [
      // `|| true`: the workspace is no git repository, and a failed call fires PostToolUseFailure
      // instead of PostToolUse (#24, as Claude Code does); the `if` still sees `git commit`.
      { tool_calls: [{ name: "shell", arguments: { command: "git commit -m wip || true" } }] },
      { text: "committed" },
      { text: "acknowledged the finding" },
    ],
    hold: async (request, chunk) => {
      if (request === 1 && chunk === 0) await Deno.writeTextFile(`${s.env.TMPDIR}/second-request`, "");
    },
  });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "commit"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const stream = events(run.stdout);
    assert.equal(server.requests.length, 3);
    assert.match(
      JSON.stringify(server.requests[2]),
      /<hook_prompt hook_run_id=[^>]*>Background security review of commit:\\n\\nHardcoded secret in config.py:3<\/hook_prompt>/,
    );
    assert.equal(
      JSON.parse(await Deno.readTextFile(`${s.env.TMPDIR}/review-stdin.json`)).tool_input.command,
      "git commit -m wip || true",
    );
    assert.equal(await Deno.stat(`${s.env.TMPDIR}/push-review-ran`).then(() => true, () => false), false);
    const warnings = stream.filter((e) => e.type === "warning").map((e) => e.message);
    assert.ok(
      warnings.some((m) =>
        m.includes('skipping hook with invalid "if"') && m.includes(`${s.env.TRELLIS_HOME}/hooks.json`)
      ),
      JSON.stringify(warnings),
    );
    assert.ok(
      stream.some((e) => e.type === "notice" && /Commit security review found issues/.test(e.message)),
    );
  } finally {
    await server.close();
  }
});

Deno.test("#20 item 8: an `if: Bash(rm:*)` guard stops rm inside `bash -c`, lets `echo rm` run, and stops (with a warning) a line it cannot read", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(`${s.workspace}/keep.txt`, "kept\n");
  const guard = await script(
    s,
    "no_rm.sh",
    "cat >/dev/null; echo 'rm is not allowed here' >&2; exit 2",
  );
  await trustedHooks(s, {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard, if: "Bash(rm:*)" }] }],
  });
  const shell = (command: string) => ({ tool_calls: [{ name: "shell", arguments: { command } }] });
  const server = await startFixtureModelServer({
    script: [
      shell("bash -c 'rm -f keep.txt'"),
      shell("echo rm > said.txt"),
      shell("echo hi; fi"),
      { text: "done" },
    ],
  });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "clean up"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await Deno.readTextFile(`${s.workspace}/keep.txt`), "kept\n");
    assert.equal(await Deno.readTextFile(`${s.workspace}/said.txt`), "rm\n");
    assert.match(JSON.stringify(server.requests[1]), /rm is not allowed here/);
    assert.match(JSON.stringify(server.requests[3]), /rm is not allowed here/);
    const warnings = events(run.stdout).filter((e) => e.type === "warning").map((e) => e.message);
    assert.ok(
      warnings.some((m) => m.includes('its "if" "Bash(rm:*)" cannot judge this command (syntax error')),
      JSON.stringify(warnings),
    );
  } finally {
    await server.close();
  }
});

Deno.test("#14 item 3: an async hook never holds the turn; the session waits for it before exiting (HK-5)", async () => {
  const s = await e2eSetup();
  // The async hook can only finish once the turn has ended (its transcript records the turn) and the
  // Stop hook ran: waiting for it inside the turn would deadlock, so its output proves it never held
  // the turn; the output being there when exec exits proves the session waited for it.
  const slow = await script(
    s,
    "slow.sh",
    'cat >/dev/null; while [ ! -f "$TMPDIR/stopped" ] || ! grep -qs \'"type":"turn"\' "$TRELLIS_HOME"/sessions/*.jsonl; ' +
      'do sleep 0.01; done; echo done > "$TMPDIR/async-done"',
  );
  const stop = await script(s, "stop.sh", 'cat >/dev/null; touch "$TMPDIR/stopped"');
  await trustedHooks(s, {
    PostToolUse: [{
      matcher: "Write",
      hooks: [{ type: "command", command: slow, async: true, timeout: 20 }],
    }],
    Stop: [{ hooks: [{ type: "command", command: stop }] }],
  });
  const server = await startFixtureModelServer({
    script: [{ tool_calls: [{ name: "write_file", arguments: { path: "a.txt", content: "x" } }] }, {
      text: "ok",
    }],
  });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "write"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await Deno.readTextFile(`${s.env.TMPDIR}/async-done`), "done\n");
    const completed = events(run.stdout).filter((e) => e.type === "hook.completed").map((
      e,
    ) => [e.event, e.status]);
    // Which completion is printed first is a race the hooks' exits decide (10 ms apart): not the point.
    assert.deepStrictEqual(completed.sort(), [["PostToolUse", "completed"], ["Stop", "completed"]]);
  } finally {
    await server.close();
  }
});

Deno.test("#13 item 4: Ctrl-C while a blocking PreToolUse guard runs aborts the call, whatever the guard would say", async () => {
  const s = await e2eSetup();
  // This guard would allow (exit 0) if it ever answered.
  const guard = await script(
    s,
    "guard.sh",
    'cat >/dev/null; touch "$TMPDIR/guard-started"; sleep 30; exit 0',
  );
  await trustedHooks(s, { PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: guard }] }] });
  const server = await startFixtureModelServer({
    script: [{ tool_calls: [{ name: "write_file", arguments: { path: "planted.txt", content: "x" } }] }, {
      text: "ok",
    }],
  });
  try {
    const [bin, ...pre] = trellisArgv();
    const child = new Deno.Command(bin, {
      args: [...pre, ...execArgs(["exec", "--json", ...s.flags(server.url), "write"])],
      cwd: s.workspace,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...s.env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    while (!(await Deno.stat(`${s.env.TMPDIR}/guard-started`).then(() => true, () => false))) {
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill("SIGINT");
    const out = await child.output();
    assert.equal(out.code, 130, new TextDecoder().decode(out.stderr));
    assert.equal(await Deno.stat(`${s.workspace}/planted.txt`).then(() => true, () => false), false);
    const call = events(new TextDecoder().decode(out.stdout)).find((e) =>
      e.type === "item.completed" && e.item.call_id !== undefined
    );
    assert.deepStrictEqual([call?.item.type, call?.item.call_status], ["file_change", "aborted"]);
  } finally {
    await server.close();
  }
});

Deno.test("#24 figure: the binary keeps a hooks file's parse for its next start; an edited hook is modified and never run", async () => {
  const s = await e2eSetup();
  const hooksFile = `${s.env.TRELLIS_HOME}/hooks.json`;
  const write = (command: (i: number) => string) =>
    Deno.writeTextFile(
      hooksFile,
      JSON.stringify({
        hooks: {
          PreToolUse: Array.from({ length: 4 }, (_, g) => ({
            matcher: "Edit",
            hooks: [0, 1, 2].map((j) => ({ type: "command", command: command(g * 3 + j) })),
          })),
        },
      }),
    );
  const ran = async () =>
    (await Array.fromAsync(Deno.readDir(s.env.TMPDIR))).map((e) => e.name).filter((n) => n.startsWith("ran-"))
      .sort();
  const edit = async () => {
    for (const name of await ran()) await Deno.remove(`${s.env.TMPDIR}/${name}`);
    const model = await startFixtureModelServer({
      script: [
        {
          tool_calls: [{
            name: "edit_file",
            arguments: { path: "notes.md", old_string: "TODO", new_string: "DONE" },
          }],
        },
        { text: "done" },
      ],
    });
    try {
      const run = await runTrellis(["exec", "--json", ...s.flags(model.url), "edit"], {
        env: s.env,
        cwd: s.workspace,
      });
      assert.equal(run.code, 0, run.stderr);
    } finally {
      await model.close();
    }
    return await ran();
  };
  const all = Array.from({ length: 12 }, (_, i) => `ran-${i}`).sort();
  await write((i) => `touch "$TMPDIR/ran-${i}"`);
  const trust = await runTrellis(["hooks", "trust", "--all"], { env: s.env, cwd: s.workspace });
  assert.equal(trust.code, 0, trust.stderr);
  assert.deepEqual(await edit(), all);
  const cache = `${s.env.TRELLIS_HOME}/cache/hooks`;
  assert.equal((await Array.fromAsync(Deno.readDir(cache))).length, 1);
  // A start that reads the kept parse runs the same trusted hooks.
  assert.deepEqual(await edit(), all);

  await write((i) => (i === 7 ? `touch "$TMPDIR/ran-7-edited"` : `touch "$TMPDIR/ran-${i}"`));
  const listed = await runTrellis(["hooks", "list", "--json"], { env: s.env, cwd: s.workspace });
  assert.equal(listed.code, 0, listed.stderr);
  const trustOf = JSON.parse(listed.stdout).hooks.map((h: { trust: string }) => h.trust);
  assert.deepEqual(trustOf, all.map((_, i) => (i === 7 ? "modified" : "trusted")));
  assert.deepEqual(await edit(), all.filter((n) => n !== "ran-7"));
  assert.deepEqual(await edit(), all.filter((n) => n !== "ran-7"));
});
