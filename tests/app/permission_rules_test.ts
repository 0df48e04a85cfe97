/**
 * #21 item 7: Claude Code's `permissions` (allow / ask / deny) and Trellis's `[permissions]` are
 * enforced for built-in and MCP tools. Sessions run with real files, real built-in tools, the real
 * MCP fixture server and a scripted model whose every request is kept, so "never sent" is checked on
 * what the model received.
 */
import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import type { ApprovalRequest, Approver } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { ConversationItem, TrellisEventBody } from "../../lib/shared/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { trustEntry } from "../helpers/trust_project.ts";
import { call, say, scriptedModel } from "../loop/_fakes.ts";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";

const FX = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;
const SECRET = "API_KEY=sk-very-secret-41";

interface Setup {
  /** `~/.claude/settings.json`'s `permissions`. */
  claudeUser?: unknown;
  /** The project's `.claude/settings.json` `permissions`. */
  claudeProject?: unknown;
  /** Extra text of `~/.trellis/config.toml`. */
  userToml?: string;
  /** The project's `.trellis/config.toml`. */
  projectToml?: string;
  trust?: boolean;
  overrides?: string[];
}

async function workspace(setup: Setup) {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await platform.fs.mkdir(`${ws}/.git`);
  await platform.fs.writeTextFile(`${ws}/.env`, `${SECRET}\n`);
  await platform.fs.writeTextFile(`${ws}/notes.txt`, "plain notes\n");
  if (setup.claudeUser !== undefined) {
    await platform.fs.mkdir(`${env.HOME}/.claude`);
    await platform.fs.writeTextFile(
      `${env.HOME}/.claude/settings.json`,
      JSON.stringify({ permissions: setup.claudeUser }),
    );
  }
  if (setup.claudeProject !== undefined) {
    await platform.fs.mkdir(`${ws}/.claude`);
    await platform.fs.writeTextFile(
      `${ws}/.claude/settings.json`,
      JSON.stringify({ permissions: setup.claudeProject }),
    );
  }
  if (setup.projectToml !== undefined) {
    await platform.fs.mkdir(`${ws}/.trellis`);
    await platform.fs.writeTextFile(`${ws}/.trellis/config.toml`, setup.projectToml);
  }
  const trust = setup.trust ? trustEntry(ws) : "";
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, `${setup.userToml ?? ""}\n${trust}`);
  const overrides = ["skills.bundled.enabled=false", "tool_set=trellis", ...(setup.overrides ?? [])];
  const loaded = await loadConfig(platform.fs, { cwd: ws, env: (name) => env[name], overrides });
  return { root, ws, env, loaded, overrides };
}

/** Answers every approval "yes" and keeps each request's reason. */
function yesApprover(): Approver & { reasons: string[] } {
  const reasons: string[] = [];
  return {
    reasons,
    request(request: ApprovalRequest) {
      reasons.push(request.reason);
      return Promise.resolve({ decision: "approved" });
    },
  };
}

async function runSession(setup: Setup, steps: ConversationItem[][]) {
  return await runSessionIn(await workspace(setup), steps);
}

/** A session over a workspace already made (files changed after `workspace()`). */
async function runSessionIn(w: Awaited<ReturnType<typeof workspace>>, steps: ConversationItem[][]) {
  const model = scriptedModel([...steps, [say("done")]]);
  const approver = yesApprover();
  const events: TrellisEventBody[] = [];
  const session = await Session.open({
    platform,
    loaded: w.loaded,
    events: (e) => events.push(e),
    approver,
    model,
  });
  try {
    await session.runTurn({ prompt: "go", maxSteps: steps.length + 1, signal: new AbortController().signal });
  } finally {
    await session.close();
  }
  const outputs = model.requests.at(-1)!.input.filter((i) => i.type === "function_call_output")
    .map((i) => i.type === "function_call_output" ? i.output : "");
  const sent = JSON.stringify(model.requests);
  const warnings = events.filter((e) => e.type === "warning").map((e) =>
    e.type === "warning" ? e.message : ""
  );
  return { ...w, outputs, sent, asked: approver.reasons, events, warnings };
}

Deno.test("deny Read(./.env): read_file of .env is refused, naming the rule and its file; the secret is never sent", async () => {
  const r = await runSession({ claudeUser: { deny: ["Read(./.env)"] } }, [
    [call("read_file", { path: ".env" })],
    [call("read_file", { path: "notes.txt" })],
  ]);
  assert.match(
    r.outputs[0],
    /^denied: permission rule deny "Read\(\.\/\.env\)" \(.*\/home\/\.claude\/settings\.json\)/,
  );
  assert.ok(!r.sent.includes("sk-very-secret-41"), "the .env content reached the model");
  // The neighbour: another file of the same directory reads fine.
  assert.match(r.outputs[1], /plain notes/);
  // The user sees the refusal too.
  assert.ok(
    r.events.some((e) => e.type === "approval.decided" && e.by === "rule" && e.decision === "denied"),
  );
});

Deno.test("deny Read(.env) also covers grep: of .env refused, over the tree .env is left out; other files are searched", async () => {
  const r = await runSession({ claudeUser: { deny: ["Read(.env)"] } }, [
    [call("grep", { pattern: "API_KEY", path: ".env" })],
    [call("grep", { pattern: "notes", path: "notes.txt" })],
    // Over the whole tree: .env is left out (and said so), the other files are searched.
    [call("grep", { pattern: "API_KEY|plain" })],
  ]);
  assert.match(r.outputs[0], /^denied: permission rule deny "Read\(\.env\)"/);
  assert.match(r.outputs[1], /plain notes/);
  assert.match(r.outputs[2], /notes\.txt:1: plain notes/);
  assert.match(r.outputs[2], /\[not searched: \.env: permission rule deny "Read\(\.env\)"/);
  assert.ok(!r.sent.includes("sk-very-secret-41"));
});

Deno.test("deny Read(./.env) holds through symbolic links: a link to .env, and .env as a link elsewhere", async () => {
  const linkTo = await runSession({ claudeUser: { deny: ["Read(./.env)"] } }, []);
  await platform.fs.symlink(`${linkTo.ws}/.env`, `${linkTo.ws}/innocent.txt`);
  const byLink = await runSessionIn(linkTo, [[call("read_file", { path: "innocent.txt" })]]);
  assert.match(byLink.outputs[0], /^denied: permission rule deny "Read\(\.\/\.env\)"/);
  assert.ok(!byLink.sent.includes("sk-very-secret-41"));
  // .env itself a link to a file the rule does not name: the name the model used is denied.
  const w = await runSession({ claudeUser: { deny: ["Read(./.env)"] } }, []);
  await platform.fs.remove(`${w.ws}/.env`);
  await platform.fs.writeTextFile(`${w.ws}/real.txt`, `${SECRET}\n`);
  await platform.fs.symlink(`${w.ws}/real.txt`, `${w.ws}/.env`);
  const asLink = await runSessionIn(w, [[call("read_file", { path: ".env" })]]);
  assert.match(asLink.outputs[0], /^denied: permission rule deny "Read\(\.\/\.env\)"/);
  assert.ok(!asLink.sent.includes("sk-very-secret-41"));
});

Deno.test("without a rule the same read sends the file (the deny test can fail)", async () => {
  const r = await runSession({}, [[call("read_file", { path: ".env" })]]);
  assert.ok(r.sent.includes("sk-very-secret-41"));
});

Deno.test("deny Edit(...) covers write_file too; a write elsewhere goes on", async () => {
  const r = await runSession({ userToml: '[permissions]\ndeny = ["Edit(./locked/**)"]\n' }, [
    [call("write_file", { path: "locked/a.txt", content: "x" })],
    [call("write_file", { path: "free.txt", content: "y" })],
  ]);
  assert.match(r.outputs[0], /^denied: permission rule deny "Edit\(\.\/locked\/\*\*\)" \(.*config\.toml\)/);
  assert.equal(await platform.fs.lstat(`${r.ws}/locked/a.txt`), null);
  assert.equal(await platform.fs.readTextFile(`${r.ws}/free.txt`), "y");
});

Deno.test("ask Bash(ls:*) asks under on-request for a known-safe command; another safe command is not asked", async () => {
  const r = await runSession({
    claudeUser: { ask: ["Bash(ls:*)"] },
    overrides: ["approval_policy=on-request"],
  }, [
    [call("shell", { command: "ls" })],
    [call("shell", { command: "pwd" })],
  ]);
  assert.equal(r.asked.length, 1);
  assert.match(r.asked[0], /permission rule ask "Bash\(ls:\*\)"/);
  assert.match(r.outputs[0], /notes\.txt/);
});

Deno.test("ask under approval_policy never: nobody can be asked, so the call is refused", async () => {
  const r = await runSession({
    claudeUser: { ask: ["Read(notes.txt)"] },
    overrides: ["approval_policy=never"],
  }, [[call("read_file", { path: "notes.txt" })]]);
  assert.deepEqual(r.asked, []);
  assert.match(r.outputs[0], /^denied: permission rule ask "Read\(notes\.txt\)".*never/);
  assert.ok(!r.sent.includes("plain notes"));
});

Deno.test("allow Edit(./notes.txt) skips untrusted's prompt for that write; another write is still asked", async () => {
  const r = await runSession({
    claudeUser: { allow: ["Edit(./notes.txt)"] },
    overrides: ["approval_policy=untrusted"],
  }, [
    [call("write_file", { path: "notes.txt", content: "new" })],
    [call("write_file", { path: "other.txt", content: "o" })],
  ]);
  assert.equal(await platform.fs.readTextFile(`${r.ws}/notes.txt`), "new");
  assert.equal(r.asked.length, 1);
  assert.match(r.asked[0], /other\.txt" under approval policy untrusted/);
  assert.ok(
    r.events.some((e) => e.type === "approval.decided" && e.by === "rule" && e.decision === "approved"),
  );
});

Deno.test("allow never lifts the roots: a write outside the writable roots is still asked", async () => {
  const { root } = await makeSandboxHome();
  const r = await runSession({
    claudeUser: { allow: ["Edit(//**)", "Bash"] },
    overrides: ["approval_policy=on-request", "sandbox_workspace_write.exclude_tmpdir_env_var=true"],
  }, [[call("write_file", { path: `${root}/outside.txt`, content: "o" })]]);
  assert.equal(r.asked.length, 1);
  assert.match(r.asked[0], /outside the writable roots/);
});

Deno.test("allow Bash(touch:*) runs an untrusted-policy command without a prompt, still inside the sandbox", async () => {
  const { root } = await makeSandboxHome();
  const r = await runSession({
    claudeUser: { allow: ["Bash(touch:*)"] },
    overrides: ["approval_policy=untrusted", "sandbox_workspace_write.exclude_tmpdir_env_var=true"],
  }, [
    [call("shell", { command: "touch made.txt" })],
    [call("shell", { command: `touch ${root}/escaped.txt` })],
  ]);
  assert.deepEqual(r.asked, []);
  assert.ok(await platform.fs.lstat(`${r.ws}/made.txt`));
  // Allowed without a prompt, yet still sandboxed: the write outside the roots fails.
  assert.equal(await platform.fs.lstat(`${root}/escaped.txt`), null);
});

Deno.test("precedence: deny over ask over allow for the same call", async () => {
  const r = await runSession({
    claudeUser: { allow: ["Read"], ask: ["Read(notes.txt)"], deny: ["Read(.env)"] },
    overrides: ["approval_policy=on-request"],
  }, [
    [call("read_file", { path: ".env" })],
    [call("read_file", { path: "notes.txt" })],
  ]);
  assert.match(r.outputs[0], /^denied: permission rule deny "Read\(\.env\)"/);
  assert.equal(r.asked.length, 1);
  assert.match(r.asked[0], /permission rule ask "Read\(notes\.txt\)"/);
});

Deno.test("an MCP tool denied by mcp__fx__echo is refused; a server-wide rule covers it too", async () => {
  for (const rule of ["mcp__fx__echo", "mcp__fx"]) {
    const r = await runSession({
      userToml:
        `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo"]\nrequired = true\n` +
        `[permissions]\ndeny = [${JSON.stringify(rule)}]\n`,
    }, [[call("mcp__fx__echo", { text: "hello-from-model" })]]);
    assert.match(r.outputs[0], new RegExp(`^denied: permission rule deny "${rule}"`));
  }
  // The neighbour: without the rule the same call runs.
  const open = await runSession({
    userToml: `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo"]\nrequired = true\n`,
  }, [[call("mcp__fx__echo", { text: "hello-from-model" })]]);
  assert.match(open.outputs[0], /hello-from-model/);
});

Deno.test("allow mcp__fx__echo answers the server's prompt approval mode; without it the call is asked", async () => {
  const server =
    `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo"]\nrequired = true\n` +
    `default_tools_approval_mode = "prompt"\n`;
  const allowed = await runSession({ userToml: `${server}[permissions]\nallow = ["mcp__fx__echo"]\n` }, [
    [call("mcp__fx__echo", { text: "hi-allowed" })],
  ]);
  assert.deepEqual(allowed.asked, []);
  assert.match(allowed.outputs[0], /hi-allowed/);
  const asked = await runSession({ userToml: server }, [[call("mcp__fx__echo", { text: "hi-asked" })]]);
  assert.equal(asked.asked.length, 1);
  assert.match(asked.asked[0], /MCP tool 'echo' of server 'fx' needs approval/);
});

Deno.test("an untrusted project's .claude/settings.json rules are not loaded; trusted, its deny holds and its allow is ignored with a warning", async () => {
  const permissions = { deny: ["Read(.env)"], allow: ["Bash"] };
  const untrusted = await runSession({ claudeProject: permissions }, [[call("read_file", { path: ".env" })]]);
  assert.ok(untrusted.sent.includes("sk-very-secret-41"));
  assert.ok(
    untrusted.events.some((e) =>
      e.type === "notice" &&
      /Skipped permission rules in .*\/ws\/\.claude\/settings\.json: this project is not trusted/.test(
        e.message,
      )
    ),
    JSON.stringify(untrusted.events.filter((e) => e.type === "notice" || e.type === "warning")),
  );
  const trusted = await runSession({
    claudeProject: permissions,
    trust: true,
    overrides: ["approval_policy=untrusted"],
  }, [
    [call("read_file", { path: ".env" })],
    [call("shell", { command: "touch x.txt" })],
  ]);
  assert.match(
    trusted.outputs[0],
    /^denied: permission rule deny "Read\(\.env\)" \(.*\/ws\/\.claude\/settings\.json\)/,
  );
  // The project's allow did not pre-approve the command: it was asked.
  assert.equal(trusted.asked.length, 1);
  assert.equal(trusted.warnings.filter((w) => /Ignored 1 "allow" permission rule/.test(w)).length, 1);
});

Deno.test("a project's [permissions] allow is ignored with one warning; its deny applies", async () => {
  const r = await runSession({
    projectToml: '[permissions]\nallow = ["Bash", "Edit"]\ndeny = ["Read(notes.txt)"]\n',
    trust: true,
    overrides: ["approval_policy=untrusted"],
  }, [
    [call("read_file", { path: "notes.txt" })],
    [call("shell", { command: "touch y.txt" })],
  ]);
  assert.match(
    r.outputs[0],
    /^denied: permission rule deny "Read\(notes\.txt\)" \(.*\/ws\/\.trellis\/config\.toml\)/,
  );
  assert.equal(r.asked.length, 1);
  const ignored = r.warnings.filter((w) => /"allow" permission rule/.test(w));
  assert.equal(ignored.length, 1);
  assert.match(ignored[0], /Ignored 2 "allow" permission rules from .*\/ws\/\.trellis\/config\.toml/);
});

Deno.test("bad input: a wrong-shaped permissions, a rule that does not parse, an unknown tool: one warning each, the rest loads", async () => {
  const r = await runSession({
    claudeUser: {
      deny: ["Read(.env)", 5, "Bash(", "WebFetch(domain:x.com)"],
      allow: "Bash",
      defaultMode: "plan",
    },
  }, [[call("read_file", { path: ".env" })]]);
  assert.match(r.outputs[0], /^denied: permission rule deny "Read\(\.env\)"/);
  const about = (re: RegExp) => r.warnings.filter((w) => re.test(w)).length;
  assert.equal(about(/expected a string, got 5/), 1);
  assert.equal(about(/"Bash\(" is not a permission rule/), 1);
  assert.equal(about(/WebFetch.*no effect: Trellis has no WebFetch tool/), 1);
  assert.equal(about(/permissions\.allow: expected an array of rules, got string "Bash"/), 1);
  assert.equal(about(/permissions\.defaultMode = "plan": Trellis does not honour it/), 1);
  // The same in Trellis's own config: a warning, not a config error that would stop the session.
  const own = await runSession({
    userToml: '[permissions]\nask = "Bash"\ndeny = ["Read(.env)", "Bash("]\n',
  }, [[call("read_file", { path: ".env" })]]);
  assert.match(own.outputs[0], /^denied: permission rule deny "Read\(\.env\)" \(.*config\.toml\)/);
  assert.equal(
    own.warnings.filter((w) => /\[permissions\]\.ask: expected an array of rules/.test(w)).length,
    1,
  );
  assert.equal(own.warnings.filter((w) => /"Bash\(" is not a permission rule/.test(w)).length, 1);
  // A settings file that is not JSON: named, and the session goes on.
  const broken = await workspace({});
  await platform.fs.mkdir(`${broken.env.HOME}/.claude`);
  await platform.fs.writeTextFile(`${broken.env.HOME}/.claude/settings.json`, '{"permissions": {"deny": [');
  const listed = await runCliCaptured(["permissions", "list"], { env: broken.env, cwd: broken.ws });
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stderr, /Cannot load permissions ".*\/\.claude\/settings\.json": invalid JSON/);
  assert.match(listed.stdout, /No permission rules configured/);
  const notObject = await runSession({ claudeUser: ["Read(.env)"] }, [[call("read_file", { path: ".env" })]]);
  assert.equal(notObject.warnings.filter((w) => /expected an object .* got an array/.test(w)).length, 1);
});

Deno.test("trellis permissions list shows each rule, its kind and origin; --json too", async () => {
  const w = await workspace({
    claudeUser: { deny: ["Read(./.env)"], ask: ["Bash(git push:*)"] },
    userToml: '[permissions]\nallow = ["Bash(npm test)"]\n',
    claudeProject: { allow: ["Bash"] },
    trust: true,
  });
  const env = { ...w.env };
  const text = await runCliCaptured(["permissions", "list"], { env, cwd: w.ws });
  assert.equal(text.code, 0, text.stderr);
  const lines = text.stdout.trim().split("\n");
  assert.match(lines[0], /^deny {2}Read\(\.\/\.env\) .*\/home\/\.claude\/settings\.json$/);
  assert.match(lines[1], /^ask {3}Bash\(git push:\*\) .*\/home\/\.claude\/settings\.json$/);
  assert.match(text.stdout, /^allow Bash\(npm test\) .*\/home\/\.trellis\/config\.toml$/m);
  assert.match(
    text.stdout,
    /^allow Bash .*\/ws\/\.claude\/settings\.json\n\s+ignored: an allow rule from a project file/m,
  );
  const json = await runCliCaptured(["permissions", "list", "--json"], { env, cwd: w.ws });
  const rules = JSON.parse(json.stdout).rules;
  assert.deepEqual(rules[0], {
    kind: "deny",
    rule: "Read(./.env)",
    origin: `${env.HOME}/.claude/settings.json`,
  });
  // The switch: [compat] claude_permissions = false leaves Claude's files out.
  const off = await runCliCaptured(
    ["permissions", "list", "--json", "-c", "compat.claude_permissions=false"],
    {
      env,
      cwd: w.ws,
    },
  );
  assert.deepEqual(JSON.parse(off.stdout).rules.map((r: { rule: string }) => r.rule), ["Bash(npm test)"]);
});

Deno.test("trellis exec with the fixture model server: a deny Read(./.env) from ~/.claude/settings.json keeps .env out of every request, and the user sees it", async () => {
  const model = await startFixtureModelServer({
    script: [
      { tool_calls: [{ name: "read_file", arguments: { path: ".env" } }] },
      { tool_calls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
      { text: "done" },
    ],
  });
  try {
    const w = await workspace({
      claudeUser: { deny: ["Read(./.env)"] },
      userToml: [
        'model_provider = "fixture"',
        'model = "fixture-model"',
        "[model_providers.fixture]",
        `base_url = ${JSON.stringify(model.url)}`,
      ].join("\n"),
    });
    const run = await runCliCaptured(["exec", "read the env", "-c", "skills.bundled.enabled=false"], {
      env: w.env,
      cwd: w.ws,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /denied: permission rule deny "Read\(\.\/\.env\)" \(.*\/home\/\.claude\/settings\.json\)/,
    );
    assert.equal(model.requests.length, 3);
    const sent = JSON.stringify(model.requests);
    assert.ok(!sent.includes("sk-very-secret-41"), "the .env content reached the model server");
    assert.ok(sent.includes("plain notes"), "the neighbour file did not reach the model");
  } finally {
    await model.close();
  }
});
