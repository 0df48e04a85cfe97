/**
 * #24 items 1–2 through a real Session, the real fixture model server and real hook commands:
 * the new events fire where Claude Code fires them (a failed call fires PostToolUseFailure instead
 * of PostToolUse, PostToolBatch once per step, StopFailure, PermissionDenied, SessionEnd), a
 * PreToolUse `ask` reaches the approval prompt, `defer` leaves the call unrun, a prompt hook costs
 * exactly one model request, and http hooks need the user's own allowlist (HK-1, HK-5, HK-8).
 */
import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { loadHooks } from "../../lib/hooks/mod.ts";
import type { ApprovalRequest, Approver } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { trustEntry } from "../helpers/trust_project.ts";

// `shell: /bin/sh` (#24 item 2): the test never depends on the login profile of the user's $SHELL.
/** Appends the hook's stdin to `<cwd>/<name>.jsonl`. */
const logTo = (name: string) => ({
  type: "command",
  command: `cat >> ${name}.jsonl; echo >> ${name}.jsonl`,
  shell: "/bin/sh",
});
const print = (value: unknown) => ({
  type: "command",
  command: `printf '%s' '${JSON.stringify(value)}'`,
  shell: "/bin/sh",
});

interface Open {
  hooks: Record<string, unknown>;
  script: FixtureScript;
  userToml?: string;
  projectToml?: string;
  approve?: boolean;
}

/** Writes `~/.trellis/hooks.json`, trusts every hook in it (as `trellis hooks trust` does), opens a session. */
async function open(o: Open) {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(`${cwd}/.git`);
  await platform.fs.writeTextFile(`${cwd}/a.txt`, "alpha\n");
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/hooks.json`, JSON.stringify({ hooks: o.hooks }));
  const server = await startFixtureModelServer({ script: o.script });
  const overrides = [
    "model_provider=fixture",
    `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
    "model_providers.fixture.request_max_retries=0",
    "model_providers.fixture.stream_max_retries=0",
    "skills.bundled.enabled=false",
  ];
  if (o.projectToml !== undefined) {
    await platform.fs.mkdir(`${cwd}/.trellis`);
    await platform.fs.writeTextFile(`${cwd}/.trellis/config.toml`, o.projectToml);
  }
  // A trusted project (its layer is read), trusted after its files were written.
  const trust = o.projectToml !== undefined ? trustEntry(cwd) : "";
  // The scripts call Trellis's names for gpt-5 (auto, the default, would give it Codex's); a test
  // that names its own tool_set keeps it.
  const pin = /^tool_set\s*=/m.test(o.userToml ?? "") ? "" : 'tool_set = "trellis"\n';
  const configure = async (state: string) => {
    await platform.fs.writeTextFile(
      `${env.TRELLIS_HOME}/config.toml`,
      `${pin}${o.userToml ?? ""}\n${trust}\n${state}`,
    );
    return await loadConfig(platform.fs, { cwd, env: (name) => env[name], overrides });
  };
  const first = await loadHooks({ loaded: await configure(""), platform, pluginSources: [] });
  const state = first.handlers.map((h) =>
    `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = "${h.hash}"\n`
  )
    .join("");
  const loaded = await configure(state);
  if (o.projectToml !== undefined) assert.ok(loaded.projectTrusted, "the project's layer is read");
  const events: TrellisEventBody[] = [];
  const asked: string[] = [];
  const approver: Approver = {
    request(request: ApprovalRequest) {
      asked.push(request.reason);
      return Promise.resolve({ decision: o.approve === false ? "denied" : "approved" });
    },
  };
  const session = await Session.open({ platform, loaded, events: (e) => events.push(e), approver });
  const lines = async (name: string) => {
    try {
      return (await platform.fs.readTextFile(`${cwd}/${name}.jsonl`)).split("\n").filter((l) => l.trim())
        .map((l) => JSON.parse(l));
    } catch {
      return [];
    }
  };
  const turn = () => session.runTurn({ prompt: "go", maxSteps: 5, signal: new AbortController().signal });
  const close = async () => {
    await session.close();
    await server.close();
  };
  // deno-lint-ignore no-explicit-any
  return {
    session,
    events,
    asked,
    lines,
    turn,
    close,
    bodies: server.requests as Record<string, any>[],
    cwd,
  };
}

const warnings = (events: TrellisEventBody[]) =>
  events.flatMap((e) => e.type === "warning" ? [e.message] : []);

Deno.test("a failed call fires PostToolUseFailure instead of PostToolUse; a step's calls fire one PostToolBatch (#24 item 1, HK-1)", async () => {
  const s = await open({
    hooks: {
      PostToolUse: [{ hooks: [logTo("post")] }],
      PostToolUseFailure: [{ matcher: "Read", hooks: [logTo("failure")] }],
      PostToolBatch: [{ hooks: [logTo("batch")] }],
    },
    script: {
      steps: [
        {
          tool_calls: [
            { name: "read_file", arguments: { path: "a.txt" } },
            { name: "read_file", arguments: { path: "missing.txt" } },
          ],
        },
        { text: "done" },
      ],
    },
  });
  try {
    await s.turn();
  } finally {
    await s.close();
  }
  const post = await s.lines("post");
  const failure = await s.lines("failure");
  const batch = await s.lines("batch");
  assert.deepStrictEqual(post.map((p) => p.tool_input.file_path.split("/").at(-1)), ["a.txt"]);
  assert.deepStrictEqual(failure.map((f) => [f.hook_event_name, f.tool_name, f.is_interrupt]), [
    ["PostToolUseFailure", "Read", false],
  ]);
  assert.match(failure[0].error, /missing\.txt/);
  assert.equal(batch.length, 1);
  assert.deepStrictEqual(batch[0].tool_calls.map((c: { tool_name: string }) => c.tool_name), [
    "Read",
    "Read",
  ]);
});

Deno.test("PreToolUse ask sends a call no policy asks about to the approval prompt; a refusal fires PermissionDenied (#24 item 2)", async () => {
  const ask = print({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "ask",
      permissionDecisionReason: "reads a.txt",
    },
  });
  const s = await open({
    hooks: {
      PreToolUse: [{ matcher: "Read", hooks: [ask] }],
      PermissionDenied: [{ hooks: [logTo("denied")] }],
      Notification: [{ matcher: "permission_prompt", hooks: [logTo("notify")] }],
    },
    script: {
      steps: [{ tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }] }, { text: "done" }],
    },
    approve: false,
  });
  try {
    await s.turn();
  } finally {
    await s.close();
  }
  assert.deepStrictEqual(s.asked, ["a PreToolUse hook asks before this call: reads a.txt"]);
  const denied = await s.lines("denied");
  assert.deepStrictEqual(denied.map((d) => [d.hook_event_name, d.tool_name]), [["PermissionDenied", "Read"]]);
  // The prompt was announced to Notification hooks (#24 item 1) before the person answered.
  const notified = await s.lines("notify");
  assert.deepStrictEqual(notified.map((n) => [n.notification_type, n.message]), [
    ["permission_prompt", "Trellis needs your permission to use read_file"],
  ]);
  const output = s.bodies.at(-1)!.input.find((i: { type: string }) => i.type === "function_call_output");
  assert.match(output.output, /^denied: /);
});

Deno.test("a subagent's approval prompt is announced too, naming the agent in the message and the payload (#22 item 3, #24 item 1)", async () => {
  const ask = print({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "ask",
      permissionDecisionReason: "reads",
    },
  });
  const s = await open({
    hooks: {
      PreToolUse: [{ matcher: "Read", hooks: [ask] }],
      Notification: [{ matcher: "permission_prompt", hooks: [logTo("notify")] }],
    },
    userToml: '[agents]\ntool_style = "claude"\n',
    script: {
      steps: [
        {
          tool_calls: [{
            name: "Agent",
            arguments: {
              subagent_type: "general-purpose",
              description: "read",
              prompt: "CHILD-R: read a.txt",
            },
          }],
        },
        { text: "done" },
      ],
      replies: [
        { when_input_contains: "CHILD-R", tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }] },
        { when_input_contains: "denied", text: "child could not read" },
      ],
    },
    approve: false,
  });
  try {
    await s.turn();
  } finally {
    await s.close();
  }
  const notified = await s.lines("notify");
  assert.equal(notified.length, 1, JSON.stringify(notified));
  assert.equal(notified[0].agent_type, "general-purpose");
  assert.match(notified[0].agent_id, /-agent1$/);
  assert.equal(
    notified[0].message,
    `Trellis needs your permission to use read_file (subagent general-purpose, ${notified[0].agent_id})`,
  );
});

Deno.test("without an ask, the same read runs unasked (the neighbour of ask)", async () => {
  const s = await open({
    hooks: { PreToolUse: [{ matcher: "Read", hooks: [logTo("pre")] }] },
    script: {
      steps: [{ tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }] }, { text: "done" }],
    },
  });
  try {
    await s.turn();
  } finally {
    await s.close();
  }
  assert.deepStrictEqual(s.asked, []);
  assert.equal((await s.lines("pre")).length, 1);
});

Deno.test("PreToolUse defer: the call does not run and the turn ends pending (#24 item 2)", async () => {
  const defer = print({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "defer",
      permissionDecisionReason: "wait for CI",
    },
  });
  const s = await open({
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [defer] }] },
    script: {
      steps: [{ tool_calls: [{ name: "shell", arguments: { command: "touch ran.txt" } }] }, { text: "done" }],
    },
  });
  let result;
  try {
    result = await s.turn();
  } finally {
    await s.close();
  }
  assert.equal(result.status, "stopped");
  assert.equal(await platform.fs.stat(`${s.cwd}/ran.txt`), null);
  assert.equal(s.bodies.length, 1, "the model was not asked again after the deferral");
  assert.ok(warnings(s.events).includes("tool call deferred: wait for CI"));
});

Deno.test("a model error fires StopFailure; closing the session fires SessionEnd (#24 item 1)", async () => {
  const s = await open({
    hooks: {
      StopFailure: [{ matcher: "server_error", hooks: [logTo("failure")] }],
      SessionEnd: [{ hooks: [logTo("end")] }],
    },
    script: {
      steps: [{
        fail: { status: 500, body: { error: { message: "The server had an error", type: "server_error" } } },
      }],
    },
  });
  let result;
  try {
    result = await s.turn();
  } finally {
    await s.close();
  }
  assert.equal(result.status, "failed");
  const failure = await s.lines("failure");
  assert.deepStrictEqual(failure.map((f) => [f.hook_event_name, f.error]), [["StopFailure", "server_error"]]);
  const end = await s.lines("end");
  assert.deepStrictEqual(end.map((e) => [e.hook_event_name, e.reason, "turn_id" in e]), [[
    "SessionEnd",
    "other",
    false,
  ]]);
});

Deno.test("a prompt hook costs exactly one model request; its ok:false blocks the call with the model's reason (#24 item 2)", async () => {
  const s = await open({
    hooks: {
      PreToolUse: [{
        matcher: "Bash",
        hooks: [{ type: "prompt", prompt: "JUDGE-HOOK: may this run? $ARGUMENTS", timeout: 20 }],
      }],
    },
    script: {
      steps: [{ tool_calls: [{ name: "shell", arguments: { command: "touch judged.txt" } }] }, {
        text: "done",
      }],
      replies: [{
        when_input_contains: "JUDGE-HOOK",
        text: '{"ok": false, "reason": "touching files is off today"}',
      }],
    },
  });
  try {
    await s.turn();
  } finally {
    await s.close();
  }
  const judged = s.bodies.filter((b) => JSON.stringify(b.input).includes("JUDGE-HOOK"));
  assert.equal(judged.length, 1);
  assert.ok((judged[0].tools ?? []).length === 0, "a prompt hook offers the model no tools");
  assert.match(JSON.stringify(judged[0].input), /touch judged\.txt/);
  assert.equal(await platform.fs.stat(`${s.cwd}/judged.txt`), null);
  const output = s.bodies.at(-1)!.input.find((i: { type: string }) => i.type === "function_call_output");
  assert.match(output.output, /touching files is off today/);
});

Deno.test("http hooks: with no allowlist in the user's own config ONE warning names the key; a project's list is not read (#24 item 2)", async () => {
  const url = "http://127.0.0.1:9/hook";
  const s = await open({
    hooks: {
      PreToolUse: [{ hooks: [{ type: "http", url }] }],
      PostToolUse: [{ hooks: [{ type: "http", url }] }],
    },
    projectToml: `[hooks]\nallowed_http_hook_urls = ["http://127.0.0.1:*/*"]\n`,
    script: { steps: [{ text: "hi" }] },
  });
  await s.close();
  const named = warnings(s.events).filter((w) => w.includes("allowed_http_hook_urls"));
  assert.equal(named.length, 1);
  assert.match(
    named[0],
    /^2 http hook\(s\) will not run: set \[hooks\] allowed_http_hook_urls in your own config/,
  );
  // The neighbour: set in the user's config, no such warning.
  const ok = await open({
    hooks: { PreToolUse: [{ hooks: [{ type: "http", url }] }] },
    userToml: `[hooks]\nallowed_http_hook_urls = ["http://127.0.0.1:*/*"]\n`,
    script: { steps: [{ text: "hi" }] },
  });
  await ok.close();
  assert.deepStrictEqual(warnings(ok.events).filter((w) => w.includes("allowed_http_hook_urls")), []);
});

Deno.test("apply_patch (Codex's set, gpt-5.5) fires PreToolUse and PostToolUse as Edit, with the file's path and the patch; a hook matching Bash does not see it (#23 item 2)", async () => {
  const patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n*** End Patch";
  const s = await open({
    hooks: {
      PreToolUse: [{ matcher: "Edit", hooks: [logTo("pre")] }, { matcher: "Bash", hooks: [logTo("bash")] }],
      PostToolUse: [{ matcher: "Edit", hooks: [logTo("post")] }],
    },
    userToml: 'model = "gpt-5.5"\ntool_set = "auto"',
    script: [
      { tool_calls: [{ name: "apply_patch", custom: true, arguments: patch }] },
      { text: "done" },
    ],
  });
  try {
    assert.equal((await s.turn()).status, "completed");
    const [pre] = await s.lines("pre");
    assert.equal(pre.tool_name, "Edit");
    assert.equal(pre.tool_input.file_path, `${s.cwd}/a.txt`);
    assert.equal(pre.tool_input.patch, patch);
    assert.equal((await s.lines("post")).length, 1);
    assert.deepEqual(await s.lines("bash"), []);
    assert.equal(await platform.fs.readTextFile(`${s.cwd}/a.txt`), "ALPHA\n");
  } finally {
    await s.close();
  }
});
