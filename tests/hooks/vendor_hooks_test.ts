/**
 * #24 item 3 (HK-2, HK-3): Gemini CLI's and GitHub Copilot CLI's hook files read in place run in a
 * real session against the fixture model server: each hook is a real command reading its own CLI's
 * stdin (its event name, its field names) and answering by its own CLI's contract.
 */
import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { trustEntry } from "../helpers/trust_project.ts";

const fs = platform.fs;

type Home = { root: string; env: Record<string, string>; ws: string };

/** A workspace with `a.md`, the files `setup` writes, every hook trusted, and a session on the fixture model. */
async function open(script: FixtureScript, setup: (h: Home) => Promise<void>, overrides: string[] = []) {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await fs.mkdir(`${ws}/.git`);
  await fs.writeTextFile(`${ws}/a.md`, "ALPHA-CONTENT\n");
  await setup({ root, env, ws });
  const trust = await runCliCaptured(["hooks", "trust", "--all"], { env, cwd: ws });
  assert.equal(trust.code, 0, trust.stderr);
  const server = await startFixtureModelServer({ script });
  const loaded = await loadConfig(fs, {
    cwd: ws,
    env: (name) => env[name],
    overrides: [
      "model_provider=fixture",
      "tool_set=trellis",
      `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
      "model_providers.fixture.request_max_retries=0",
      "model_providers.fixture.stream_max_retries=0",
      "skills.bundled.enabled=false",
      ...overrides,
    ],
  });
  const events: TrellisEventBody[] = [];
  // Hooks run by `$SHELL -lc` with the session's environment: the sandbox's HOME, so the login shell
  // reads the temp home's (absent) profile, not this machine's (a shared box's can stall a minute).
  const hookPlatform = { ...platform, envAll: () => ({ ...platform.envAll(), ...env, SHELL: "/bin/sh" }) };
  const session = await Session.open({
    platform: hookPlatform,
    loaded,
    events: (e) => events.push(e),
    approver: noTtyApprover,
  });
  const run = async (prompt: string) => {
    try {
      const signal = new AbortController().signal;
      await session.start(signal);
      return await session.runTurn({ prompt, maxSteps: 6, signal });
    } finally {
      await session.close();
      await server.close();
    }
  };
  // deno-lint-ignore no-explicit-any
  return { root, ws, env, run, events, bodies: server.requests as Record<string, any>[] };
}

/** An executable script under `root`; returns its path. */
async function script(root: string, name: string, body: string): Promise<string> {
  const file = `${root}/${name}.sh`;
  await fs.writeTextFile(file, `#!/bin/sh\n${body}\n`);
  await fs.chmod(file, 0o755);
  return file;
}

// deno-lint-ignore no-explicit-any
const outputsOf = (body: Record<string, any>): string[] =>
  body.input.filter((i: { type: string }) => i.type === "function_call_output").map((i: { output: string }) =>
    i.output
  );

Deno.test("Gemini CLI hooks of ~/.gemini/settings.json (comments, trailing commas) run with Gemini's stdin and are read by Gemini's contract", async () => {
  const s = await open(
    {
      steps: [
        {
          tool_calls: [
            { name: "read_file", arguments: { path: "a.md" } },
            { name: "list_dir", arguments: { path: "." } },
          ],
        },
        { text: "all done" },
      ],
    },
    async ({ root, env }) => {
      const before = await script(
        root,
        "before",
        `cat > "${root}/before.json"; echo "reading is off today" >&2; exit 2`,
      );
      const after = await script(
        root,
        "after",
        `cat > "${root}/after.json"; echo '{"hookSpecificOutput":{"additionalContext":"LISTED-OK"}}'`,
      );
      const agent = await script(
        root,
        "agent",
        `cat > "${root}/agent.json"; echo '{"hookSpecificOutput":{"additionalContext":"<remember> OSPREY"}}'`,
      );
      await fs.mkdir(`${env.HOME}/.gemini`);
      await fs.writeTextFile(
        `${env.HOME}/.gemini/settings.json`,
        `{
  // Gemini CLI settings, as its users write them
  "ui": { "theme": "GitHub" },
  "hooksConfig": { "enabled": true },
  "hooks": {
    "BeforeTool": [
      { "matcher": "read_file", "hooks": [{ "type": "command", "command": "${before}", "name": "no-reads", "timeout": 5000 }] },
    ],
    "AfterTool": [
      { "matcher": "list_directory", "hooks": [{ "type": "command", "command": "${after}" }] },
    ],
    "BeforeAgent": [{ "hooks": [{ "type": "command", "command": "${agent}" }] }],
  },
}
`,
      );
    },
  );
  const result = await s.run("look around");
  assert.equal(result.lastMessage, "all done");
  // BeforeAgent's context reached the model, angle brackets escaped as Gemini escapes them.
  assert.match(JSON.stringify(s.bodies[0].input), /&lt;remember&gt; OSPREY/);
  const [read, list] = outputsOf(s.bodies[1]);
  // Exit 2 of BeforeTool blocked the read with stderr as the reason: the file never reached the model.
  assert.match(read, /reading is off today/);
  assert.doesNotMatch(JSON.stringify(s.bodies[1]), /ALPHA-CONTENT/);
  // AfterTool's additionalContext follows the listing (its neighbour, not blocked).
  assert.match(JSON.stringify(s.bodies[1].input), /LISTED-OK/);
  assert.match(list, /a\.md/);
  const before = JSON.parse(await fs.readTextFile(`${s.root}/before.json`));
  assert.equal(before.hook_event_name, "BeforeTool");
  assert.equal(before.tool_name, "read_file");
  assert.deepEqual(before.tool_input, { file_path: `${s.ws}/a.md` });
  assert.match(before.timestamp, /^\d{4}-\d\d-\d\dT/);
  assert.equal(before.cwd, s.ws);
  assert.equal(typeof before.session_id, "string");
  assert.ok(!("turn_id" in before) && !("permission_mode" in before), "Trellis-only fields sent");
  const after = JSON.parse(await fs.readTextFile(`${s.root}/after.json`));
  assert.equal(after.hook_event_name, "AfterTool");
  assert.equal(after.tool_name, "list_directory");
  assert.match(after.tool_response.llmContent, /a\.md/);
  const agent = JSON.parse(await fs.readTextFile(`${s.root}/agent.json`));
  assert.deepEqual([agent.hook_event_name, agent.prompt], ["BeforeAgent", "look around"]);
});

Deno.test("Gemini's BeforeTool `tool_input` merges over the call's arguments; `decision: deny` with a reason blocks", async () => {
  const s = await open(
    {
      steps: [
        { tool_calls: [{ name: "read_file", arguments: { path: "a.md" } }] },
        { tool_calls: [{ name: "list_dir", arguments: { path: "." } }] },
        { text: "ok" },
      ],
    },
    async ({ root, env, ws }) => {
      await fs.writeTextFile(`${ws}/b.md`, "BRAVO-CONTENT\n");
      const redirect = await script(
        root,
        "redirect",
        `echo '{"decision":"allow","hookSpecificOutput":{"tool_input":{"file_path":"${ws}/b.md"}}}'`,
      );
      const deny = await script(root, "deny", `echo '{"decision":"deny","reason":"no listing here"}'`);
      await fs.mkdir(`${env.HOME}/.gemini`);
      await fs.writeTextFile(
        `${env.HOME}/.gemini/settings.json`,
        JSON.stringify({
          hooks: {
            BeforeTool: [
              { matcher: "read_file", hooks: [{ type: "command", command: redirect }] },
              { matcher: "list_directory", hooks: [{ type: "command", command: deny }] },
            ],
          },
        }),
      );
    },
  );
  await s.run("go");
  assert.match(outputsOf(s.bodies[1])[0], /BRAVO-CONTENT/);
  assert.match(outputsOf(s.bodies[2]).at(-1)!, /no listing here/);
});

Deno.test("Copilot CLI hooks of a trusted project's .github/hooks and ~/.copilot/hooks run with Copilot's camelCase stdin", async () => {
  const s = await open(
    {
      steps: [
        { tool_calls: [{ name: "read_file", arguments: { path: "a.md" } }] },
        { text: "first answer" },
        { text: "second answer" },
      ],
    },
    async ({ root, env, ws }) => {
      const guard = await script(
        root,
        "guard",
        `cat > "${root}/guard.json"
echo '{"type":"progress","message":"checking policy"}'
echo '{"permissionDecision":"deny","permissionDecisionReason":"view blocked by policy"}'`,
      );
      const stop = await script(
        root,
        "stop",
        `input=$(cat); echo "$input" >> "${root}/stop.jsonl"
case "$input" in *'"stop_hook_active":true'*) exit 0;; esac
echo '{"decision":"block","reason":"say COPILOT-AGAIN"}'`,
      );
      const start = await script(
        root,
        "start",
        `cat > "${root}/start.json"; echo '{"additionalContext":"HERON"}'`,
      );
      await fs.mkdir(`${ws}/.github/hooks`);
      await fs.writeTextFile(
        `${ws}/.github/hooks/policy.json`,
        JSON.stringify({
          version: 1,
          hooks: {
            preToolUse: [{
              type: "command",
              bash: guard,
              powershell: "guard.ps1",
              matcher: "view",
              timeoutSec: 10,
            }],
            agentStop: [{ type: "command", bash: stop }],
          },
        }),
      );
      await fs.mkdir(`${env.HOME}/.copilot/hooks`);
      await fs.writeTextFile(
        `${env.HOME}/.copilot/hooks/start.json`,
        JSON.stringify({ version: 1, hooks: { sessionStart: [{ type: "command", bash: start }] } }),
      );
      await fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, trustEntry(ws));
    },
  );
  const result = await s.run("read it");
  assert.equal(result.lastMessage, "second answer");
  assert.match(JSON.stringify(s.bodies[0].input), /HERON/);
  assert.match(outputsOf(s.bodies[1])[0], /view blocked by policy/);
  assert.doesNotMatch(JSON.stringify(s.bodies[1]), /ALPHA-CONTENT/);
  // agentStop's block asked for another turn with its reason; the second stop let it end.
  assert.match(JSON.stringify(s.bodies[2].input), /say COPILOT-AGAIN/);
  const guard = JSON.parse(await fs.readTextFile(`${s.root}/guard.json`));
  assert.equal(guard.toolName, "view");
  assert.equal(typeof guard.toolArgs, "string");
  assert.deepEqual(JSON.parse(guard.toolArgs), { path: `${s.ws}/a.md` });
  assert.equal(typeof guard.timestamp, "number");
  assert.equal(guard.cwd, s.ws);
  assert.ok(
    !("hook_event_name" in guard) && !("tool_name" in guard),
    "Claude Code's fields sent to a Copilot hook",
  );
  const stops = (await fs.readTextFile(`${s.root}/stop.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(stops.map((x) => [x.stopReason, x.stop_hook_active]), [["end_turn", false], [
    "end_turn",
    true,
  ]]);
  const start = JSON.parse(await fs.readTextFile(`${s.root}/start.json`));
  assert.deepEqual([start.source, typeof start.sessionId], ["startup", "string"]);
});

Deno.test("a Copilot preToolUse hook that errors denies the call (fail-closed); its neighbour on another tool does not fire", async () => {
  const s = await open(
    {
      steps: [
        { tool_calls: [{ name: "read_file", arguments: { path: "a.md" } }] },
        { tool_calls: [{ name: "list_dir", arguments: { path: "." } }] },
        { text: "ok" },
      ],
    },
    async ({ root, env }) => {
      const broken = await script(root, "broken", `echo '{"permissionDecision":"allow"}'; exit 7`);
      await fs.mkdir(`${env.HOME}/.copilot/hooks`);
      await fs.writeTextFile(
        `${env.HOME}/.copilot/hooks/broken.json`,
        JSON.stringify({ version: 1, hooks: { preToolUse: [{ bash: broken, matcher: "view" }] } }),
      );
    },
  );
  await s.run("go");
  assert.match(outputsOf(s.bodies[1])[0], /Denied by preToolUse hook \(hook errored\)/);
  assert.match(outputsOf(s.bodies[2]).at(-1)!, /a\.md/);
});
