import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { events, runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

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
