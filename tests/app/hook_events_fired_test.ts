/**
 * #24 item 1, the rest of Claude Code's events, through a real Session, the fixture model server
 * and real hook commands: UserPromptExpansion (skills, plugin commands, MCP prompts), Elicitation /
 * ElicitationResult (a hook answers or overrides an MCP form), InstructionsLoaded, ConfigChange
 * (an edited skill), CwdChanged (a thread resumed elsewhere) and the Notification kinds
 * idle_prompt, agent_needs_input and agent_completed (HK-1).
 */
import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { loadHooks } from "../../lib/hooks/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody, UserQuestioner } from "../../lib/shared/mod.ts";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

const FIXTURE_MCP = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;
const EVERYTHING =
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url)
    .pathname;

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
const SKILL = "---\nname: deploy\ndescription: Deploys the app\n---\nDEPLOY-BODY: ship it\n";

interface Open {
  hooks: Record<string, unknown>;
  script: FixtureScript;
  userToml?: string;
  files?: Record<string, string>;
  watchSkills?: boolean;
  questioner?: UserQuestioner;
  resume?: string;
  cwdName?: string;
  home?: { root: string; env: Record<string, string> };
}

async function open(o: Open) {
  const home = o.home ?? await makeSandboxHome();
  const { root, env } = home;
  const cwd = `${root}/${o.cwdName ?? "ws"}`;
  await platform.fs.mkdir(`${cwd}/.git`);
  for (const [file, text] of Object.entries(o.files ?? {})) {
    const at = file.startsWith("~/") ? `${env.HOME}/${file.slice(2)}` : `${cwd}/${file}`;
    await platform.fs.mkdir(at.slice(0, at.lastIndexOf("/")));
    await platform.fs.writeTextFile(at, text);
  }
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/hooks.json`, JSON.stringify({ hooks: o.hooks }));
  const server = await startFixtureModelServer({ script: o.script });
  const overrides = [
    "model_provider=fixture",
    "tool_set=trellis",
    `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
    "model_providers.fixture.request_max_retries=0",
    "model_providers.fixture.stream_max_retries=0",
    "skills.bundled.enabled=false",
    "skills.watch_throttle_ms=20",
    'agents.tool_style="claude"', // the scripts call Agent (auto gives gpt-5 Codex's spawn_agent)
  ];
  const configure = async (state: string) => {
    await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, `${o.userToml ?? ""}\n${state}`);
    return await loadConfig(platform.fs, { cwd, env: (name) => env[name], overrides });
  };
  const first = await loadHooks({ loaded: await configure(""), platform, pluginSources: [] });
  const state = first.handlers.map((h) =>
    `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = "${h.hash}"\n`
  )
    .join("");
  const loaded = await configure(state);
  const events: TrellisEventBody[] = [];
  const session = await Session.open({
    platform,
    loaded,
    events: (e) => events.push(e),
    approver: { request: () => Promise.resolve({ decision: "approved" }) },
    ...(o.watchSkills ? { watchSkills: true } : {}),
    ...(o.questioner ? { questioner: o.questioner } : {}),
    ...(o.resume ? { resume: o.resume } : {}),
  });
  const lines = async (name: string) => {
    try {
      return (await platform.fs.readTextFile(`${cwd}/${name}.jsonl`)).split("\n").filter((l) => l.trim())
        .map((l) => JSON.parse(l));
    } catch {
      return [];
    }
  };
  const turn = (prompt = "go") =>
    session.runTurn({ prompt, maxSteps: 5, signal: new AbortController().signal });
  const close = async () => {
    await session.close();
    await server.close();
  };
  // deno-lint-ignore no-explicit-any
  return { session, events, lines, turn, close, bodies: server.requests as Record<string, any>[], cwd, home };
}

const warnings = (events: TrellisEventBody[]) =>
  events.flatMap((e) => e.type === "warning" ? [e.message] : []);
// deno-lint-ignore no-explicit-any
const userTexts = (body: Record<string, any>) =>
  (body.input as { type: string; role?: string; content?: string }[])
    .flatMap((i) => i.type === "message" && i.role === "user" ? [i.content as string] : []);

Deno.test("a $skill fires UserPromptExpansion with its name and arguments before its body reaches the model (#24 item 1)", async () => {
  const s = await open({
    hooks: { UserPromptExpansion: [{ matcher: "deploy", hooks: [logTo("expand")] }] },
    files: { ".agents/skills/deploy/SKILL.md": SKILL },
    script: { steps: [{ text: "done" }] },
  });
  try {
    await s.turn("$deploy now please");
  } finally {
    await s.close();
  }
  const expand = await s.lines("expand");
  assert.deepStrictEqual(
    expand.map((e) => [e.hook_event_name, e.expansion_type, e.command_name, e.prompt, typeof e.turn_id]),
    [["UserPromptExpansion", "slash_command", "deploy", "$deploy now please", "string"]],
  );
  assert.match(JSON.stringify(s.bodies[0].input), /DEPLOY-BODY/, "the body was sent");
});

Deno.test("a UserPromptExpansion block refuses the prompt: no model request, the reason in a warning; another command's hook does not (#24 item 1)", async () => {
  const s = await open({
    hooks: {
      UserPromptExpansion: [
        {
          matcher: "deploy",
          hooks: [{ type: "command", command: "echo 'not on Fridays' >&2; exit 2", shell: "/bin/sh" }],
        },
        { matcher: "other", hooks: [{ type: "command", command: "exit 2", shell: "/bin/sh" }] },
      ],
    },
    files: { ".agents/skills/deploy/SKILL.md": SKILL },
    script: { steps: [{ text: "done" }, { text: "done" }] },
  });
  let first, second;
  try {
    first = await s.turn("$deploy");
    second = await s.turn("no command here");
  } finally {
    await s.close();
  }
  assert.equal(first.status, "blocked");
  assert.ok(warnings(s.events).some((w) => /blocked deploy: not on Fridays/.test(w)));
  assert.equal(second.status, "completed");
  assert.equal(s.bodies.length, 1, "only the second prompt reached the model");
  assert.ok(!userTexts(s.bodies[0]).some((t) => t.includes("DEPLOY-BODY")));
});

Deno.test("a $mcp__server__prompt fires UserPromptExpansion as mcp_prompt; its additionalContext reaches the model (#24 item 1)", async () => {
  const s = await open({
    hooks: {
      UserPromptExpansion: [{
        matcher: "mcp__everything__args_prompt",
        hooks: [
          logTo("expand"),
          print({
            hookSpecificOutput: {
              hookEventName: "UserPromptExpansion",
              additionalContext: "EXPANSION-CONTEXT",
            },
          }),
        ],
      }],
    },
    userToml: `[mcp_servers.everything]\ncommand = "node"\nargs = [${
      JSON.stringify(EVERYTHING)
    }, "stdio"]\nrequired = true\n`,
    script: { steps: [{ text: "done" }] },
  });
  try {
    await s.turn("Use $mcp__everything__args_prompt Oslo");
  } finally {
    await s.close();
  }
  const expand = await s.lines("expand");
  assert.deepStrictEqual(
    expand.map((e) => [e.expansion_type, e.command_name, e.command_args, e.command_source]),
    [
      ["mcp_prompt", "mcp__everything__args_prompt", "Oslo", "mcp"],
    ],
  );
  const input = JSON.stringify(s.bodies[0].input);
  assert.match(input, /EXPANSION-CONTEXT/);
  assert.match(input, /weather in Oslo/);
});

Deno.test("an Elicitation hook answers an MCP form nobody could answer; ElicitationResult sees the answer (#24 item 1)", async () => {
  const s = await open({
    hooks: {
      Elicitation: [{
        matcher: "fix",
        hooks: [
          logTo("elicit"),
          print({
            hookSpecificOutput: {
              hookEventName: "Elicitation",
              action: "accept",
              content: { name: "hook-answer" },
            },
          }),
        ],
      }],
      ElicitationResult: [{ hooks: [logTo("result")] }],
    },
    userToml: `[mcp_servers.fix]\ncommand = "node"\nargs = [${
      JSON.stringify(FIXTURE_MCP)
    }, "echo"]\nrequired = true\n`,
    script: { steps: [{ tool_calls: [{ name: "mcp__fix__ask", arguments: {} }] }, { text: "done" }] },
  });
  try {
    await s.turn();
  } finally {
    await s.close();
  }
  const elicit = await s.lines("elicit");
  assert.deepStrictEqual(elicit.map((e) => [e.hook_event_name, e.mcp_server_name, e.message, e.mode]), [
    ["Elicitation", "fix", "Who are you?", "form"],
  ]);
  assert.equal(elicit[0].requested_schema.properties.name.type, "string");
  const result = await s.lines("result");
  assert.deepStrictEqual(result.map((r) => [r.action, r.content]), [["accept", { name: "hook-answer" }]]);
  const output = s.bodies.at(-1)!.input.find((i: { type: string }) => i.type === "function_call_output");
  assert.match(output.output, /hook-answer/);
});

Deno.test("without an Elicitation hook the form is declined as before; an ElicitationResult hook overrides that answer (#24 item 1)", async () => {
  const s = await open({
    hooks: {
      ElicitationResult: [{
        hooks: [print({ hookSpecificOutput: { hookEventName: "ElicitationResult", action: "cancel" } })],
      }],
    },
    userToml: `[mcp_servers.fix]\ncommand = "node"\nargs = [${
      JSON.stringify(FIXTURE_MCP)
    }, "echo"]\nrequired = true\n`,
    script: { steps: [{ tool_calls: [{ name: "mcp__fix__ask", arguments: {} }] }, { text: "done" }] },
  });
  try {
    await s.turn();
  } finally {
    await s.close();
  }
  const output = s.bodies.at(-1)!.input.find((i: { type: string }) => i.type === "function_call_output");
  assert.match(output.output, /cancel/);
  assert.doesNotMatch(output.output, /decline/);
});

Deno.test("InstructionsLoaded fires once per AGENTS.md / CLAUDE.md file at start, an import as include (#24 item 1)", async () => {
  const s = await open({
    hooks: { InstructionsLoaded: [{ hooks: [logTo("instructions")] }] },
    files: { "AGENTS.md": "Be brief.\n", "CLAUDE.md": "@notes.md\n", "notes.md": "Notes.\n" },
    script: { steps: [{ text: "done" }] },
  });
  try {
    await s.session.start(new AbortController().signal);
    await s.turn();
  } finally {
    await s.close();
  }
  const loaded = await s.lines("instructions");
  assert.deepStrictEqual(
    loaded.map((
      l,
    ) => [
      l.file_path.split("/").at(-1),
      l.memory_type,
      l.load_reason,
      l.parent_file_path?.split("/").at(-1),
    ]),
    [["AGENTS.md", "Project", "session_start", undefined], [
      "CLAUDE.md",
      "Project",
      "session_start",
      undefined,
    ], [
      "notes.md",
      "Project",
      "include",
      "CLAUDE.md",
    ]],
  );
});

Deno.test("a thread resumed in another directory fires CwdChanged; resumed where it ran, it does not (#24 item 1)", async () => {
  const hooks = { CwdChanged: [{ hooks: [logTo("cwd")] }] };
  const a = await open({ hooks, script: { steps: [{ text: "done" }] } });
  try {
    await a.session.start(new AbortController().signal);
    await a.turn();
  } finally {
    await a.close();
  }
  const thread = a.session.threadId;
  const same = await open({ hooks, script: { steps: [] }, resume: thread, home: a.home });
  try {
    await same.session.start(new AbortController().signal);
  } finally {
    await same.close();
  }
  assert.deepStrictEqual(await same.lines("cwd"), []);
  const moved = await open({
    hooks,
    script: { steps: [] },
    resume: thread,
    home: a.home,
    cwdName: "elsewhere",
  });
  try {
    await moved.session.start(new AbortController().signal);
  } finally {
    await moved.close();
  }
  const changed = await moved.lines("cwd");
  assert.equal(changed.length, 1);
  assert.equal(changed[0].hook_event_name, "CwdChanged");
  assert.match(changed[0].old_cwd, /\/ws$/);
  assert.match(changed[0].new_cwd, /\/elsewhere$/);
});

Deno.test("ConfigChange fires for an edited skill; a block keeps the skills catalog as it was (#24 item 1)", async () => {
  const s = await open({
    hooks: {
      ConfigChange: [{
        matcher: "skills",
        hooks: [logTo("config"), {
          type: "command",
          command: "echo 'skills are frozen' >&2; exit 2",
          shell: "/bin/sh",
        }],
      }],
    },
    files: { "~/.agents/skills/deploy/SKILL.md": SKILL },
    watchSkills: true,
    script: { steps: [{ text: "done" }, { text: "done" }] },
  });
  try {
    await s.turn("$deploy");
    await new Promise((r) => setTimeout(r, 300)); // the watcher is up
    const file = `${s.home.env.HOME}/.agents/skills/deploy/SKILL.md`;
    await platform.fs.writeTextFile(file, SKILL.replace("Deploys the app", "EDITED-DESCRIPTION"));
    for (let i = 0; i < 100 && (await s.lines("config")).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300));
    await s.turn("$deploy");
  } finally {
    await s.close();
  }
  const config = await s.lines("config");
  assert.ok(config.length >= 1);
  assert.deepStrictEqual([config[0].hook_event_name, config[0].source], ["ConfigChange", "skills"]);
  assert.match(config[0].file_path, /deploy/);
  assert.ok(
    warnings(s.events).some((w) => /ConfigChange hook blocked the change .*skills are frozen/.test(w)),
  );
  const second = JSON.stringify(s.bodies[1].input);
  // The catalog the model sees keeps the skill as it was (its body is read from the file at use).
  assert.doesNotMatch(second, /- deploy: EDITED-DESCRIPTION/);
  assert.match(second, /deploy: Deploys the app/);
});

Deno.test("Notification idle_prompt fires after the prompt waits; a turn started before it cancels it (#24 item 1)", async () => {
  const s = await open({
    hooks: { Notification: [{ matcher: "idle_prompt", hooks: [logTo("idle")] }] },
    script: { steps: [{ text: "done" }] },
  });
  try {
    s.session.waitingForInput(60_000);
    await s.turn(); // cancels the wait
    s.session.waitingForInput(20);
    for (let i = 0; i < 100 && (await s.lines("idle")).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await s.close();
  }
  const idle = await s.lines("idle");
  assert.deepStrictEqual(idle.map((n) => [n.notification_type, n.message]), [[
    "idle_prompt",
    "Trellis is waiting for your input",
  ]]);
});

Deno.test("Notification agent_needs_input fires as request_user_input asks; agent_completed when a subagent finishes (#24 item 1)", async () => {
  const questioner: UserQuestioner = {
    ask: (qs) => Promise.resolve(qs.map((q) => ({ id: q.id, answer: "yes" }))),
  };
  const s = await open({
    hooks: { Notification: [{ matcher: "agent_needs_input|agent_completed", hooks: [logTo("notify")] }] },
    questioner,
    script: {
      steps: [
        {
          tool_calls: [{
            name: "request_user_input",
            arguments: {
              questions: [{
                id: "q",
                header: "Go",
                question: "Proceed?",
                options: [{ label: "yes", description: "y" }, { label: "no", description: "n" }],
              }],
            },
          }],
        },
        {
          tool_calls: [{
            name: "Agent",
            arguments: { subagent_type: "general-purpose", description: "child", prompt: "say hi" },
          }],
        },
        { text: "hi" },
        { text: "done" },
      ],
    },
  });
  try {
    await s.turn();
  } finally {
    await s.close();
  }
  const notified = await s.lines("notify");
  assert.deepStrictEqual(notified.map((n) => n.notification_type), ["agent_needs_input", "agent_completed"]);
  assert.match(notified[0].message, /Proceed\?/);
});

const HOOKED_SKILL = `---
name: guarded
description: Reads with a guard
hooks:
  PostToolUse:
    - matcher: Read
      hooks:
        - type: command
          command: cat >> scoped.jsonl; echo >> scoped.jsonl
          shell: /bin/sh
---
GUARDED-BODY
`;

Deno.test("a skill's frontmatter hooks run while it is selected, once trusted; not in a turn without it, not untrusted (#24 item 2)", async () => {
  const { loadScopedHooks } = await import("../../lib/hooks/mod.ts");
  const read = { tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }] };
  const script = { steps: [read, { text: "done" }, read, { text: "done" }] };
  const files = { "a.txt": "alpha\n", ".agents/skills/guarded/SKILL.md": HOOKED_SKILL };
  // Untrusted: the skill's hook does not run, and a notice says it needs review.
  const untrusted = await open({ hooks: {}, files, script });
  try {
    await untrusted.turn("$guarded read a.txt");
  } finally {
    await untrusted.close();
  }
  assert.deepStrictEqual(await untrusted.lines("scoped"), []);
  assert.ok(untrusted.events.some((e) => e.type === "notice" && /guarded: 1 hook/.test(e.message)));
  // Trusted by its hash (as `trellis hooks trust` records it): it runs in the turn that selects the skill only.
  const home = await makeSandboxHome();
  const cwd = `${home.root}/ws`;
  const loaded = await loadConfig(platform.fs, { cwd, env: (name) => home.env[name] });
  const path = `${cwd}/.agents/skills/guarded/SKILL.md`;
  await platform.fs.mkdir(`${cwd}/.agents/skills/guarded`);
  await platform.fs.writeTextFile(path, HOOKED_SKILL);
  const scoped = loadScopedHooks({
    loaded,
    source: {
      kind: "skill",
      name: "guarded",
      path: await platform.fs.realPath(path),
      hooks: {
        PostToolUse: [{
          matcher: "Read",
          hooks: [{
            type: "command",
            command: "cat >> scoped.jsonl; echo >> scoped.jsonl",
            shell: "/bin/sh",
          }],
        }],
      },
    },
  });
  const state = scoped.handlers.map((h) =>
    `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = "${h.hash}"\n`
  )
    .join("");
  const trusted = await open({ hooks: {}, files, script, userToml: state, home });
  try {
    await trusted.turn("$guarded read a.txt");
    await trusted.turn("read a.txt without the skill");
  } finally {
    await trusted.close();
  }
  const ran = await trusted.lines("scoped");
  assert.deepStrictEqual(ran.map((r) => [r.hook_event_name, r.tool_name]), [["PostToolUse", "Read"]]);
});

Deno.test("an mcp_tool guard naming a server that is not connected blocks the call under on_failure=block; without it the call runs (#24 bad input)", async () => {
  const gone = { type: "mcp_tool", server: "gone", tool: "scan" };
  const read = { tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }] };
  const outputOf = (s: { bodies: Record<string, unknown>[] }) =>
    JSON.stringify(
      (s.bodies.at(-1)!.input as { type: string; output?: string }[])
        .find((i) => i.type === "function_call_output")?.output,
    );
  const guarded = await open({
    hooks: { PreToolUse: [{ matcher: "Read", hooks: [{ ...gone, on_failure: "block" }] }] },
    files: { "a.txt": "ALPHA-TEXT\n" },
    script: { steps: [read, { text: "done" }] },
  });
  try {
    await guarded.turn();
  } finally {
    await guarded.close();
  }
  assert.doesNotMatch(outputOf(guarded), /ALPHA-TEXT/);
  assert.match(outputOf(guarded), /gone/);
  const lenient = await open({
    hooks: { PreToolUse: [{ matcher: "Read", hooks: [gone] }] },
    files: { "a.txt": "ALPHA-TEXT\n" },
    script: { steps: [read, { text: "done" }] },
  });
  try {
    await lenient.turn();
  } finally {
    await lenient.close();
  }
  assert.match(outputOf(lenient), /ALPHA-TEXT/);
});
