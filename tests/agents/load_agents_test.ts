import assert from "node:assert/strict";
import {
  agentHookSource,
  agentSources,
  childPermissions,
  loadAgents,
  type PluginAgentFiles,
  resolveAgentModel,
  selectAgentTools,
} from "../../lib/agents/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { Diagnostic, ToolDefinition } from "../../lib/shared/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { trustEntry } from "../helpers/trust_project.ts";

// #22 item 1 with real files: where definitions come from, and what a bad one does.

const agentFile = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: The ${name} agent.\n${extra}---\nYou are ${name}.\n`;

async function box() {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await platform.fs.mkdir(`${ws}/.git`);
  return { root, env, ws };
}

async function load(b: Awaited<ReturnType<typeof box>>, plugins: PluginAgentFiles[] = []) {
  const loaded = await loadConfig(platform.fs, { cwd: b.ws, env: (n) => b.env[n] });
  const diagnostics: Diagnostic[] = loaded.diagnostics.filter((d) => d.file?.includes("/agents/"));
  const sources = agentSources(loaded, plugins, platform.fs, diagnostics);
  const result = await loadAgents(platform.fs, sources);
  return { agents: result.agents, diagnostics: [...diagnostics, ...result.diagnostics] };
}

async function write(file: string, text: string) {
  await platform.fs.mkdir(file.slice(0, file.lastIndexOf("/")));
  await platform.fs.writeTextFile(file, text);
}

Deno.test("user, Claude Code and plugin agents load with their origin; the built-in general-purpose is first", async () => {
  const b = await box();
  await write(
    `${b.env.HOME}/.claude/agents/explorer.md`,
    agentFile("explorer", "tools: Read, Grep\nmodel: haiku\n"),
  );
  await write(`${b.env.TRELLIS_HOME}/agents/writer.md`, agentFile("writer", "tools:\n  - Write\n  - Edit\n"));
  await write(`${b.root}/plugin/agents/code-reviewer.md`, agentFile("code-reviewer"));
  const { agents, diagnostics } = await load(b, [
    { pluginId: "review@market", namespace: "review", path: `${b.root}/plugin/agents/code-reviewer.md` },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(agents.map((a) => [a.name, a.origin, a.plugin ?? null]), [
    ["general-purpose", "built-in", null],
    ["explorer", "claude-user", null],
    ["review:code-reviewer", "plugin", "review@market"],
    ["writer", "trellis-user", null],
  ]);
  const explorer = agents.find((a) => a.name === "explorer")!;
  assert.deepEqual([explorer.tools, explorer.model, explorer.prompt], [
    ["Read", "Grep"],
    "haiku",
    "You are explorer.",
  ]);
  assert.deepEqual(agents.find((a) => a.name === "writer")!.tools, ["Write", "Edit"]);
});

Deno.test("a broken frontmatter is one warning naming the file; the next file still loads", async () => {
  const b = await box();
  await write(
    `${b.env.TRELLIS_HOME}/agents/broken.md`,
    "---\nname: broken\n- not: a mapping\ndescription: x\n---\nbody\n",
  );
  await write(`${b.env.TRELLIS_HOME}/agents/nameless.md`, "---\ndescription: no name\n---\nbody\n");
  await write(`${b.env.TRELLIS_HOME}/agents/fine.md`, agentFile("fine"));
  const { agents, diagnostics } = await load(b);
  assert.deepEqual(agents.map((a) => a.name), ["general-purpose", "fine"]);
  assert.equal(diagnostics.length, 2);
  assert.match(diagnostics[0].message, /^Agent file .*\/agents\/broken\.md is not loaded: invalid YAML/);
  assert.equal(diagnostics[0].level, "warning");
  assert.equal(
    diagnostics[1].message,
    `Agent file ${b.env.TRELLIS_HOME}/agents/nameless.md is not loaded: missing field \`name\``,
  );
});

Deno.test("unknown frontmatter fields are named once per file; Claude Code's known ones are not", async () => {
  const b = await box();
  await write(
    `${b.env.TRELLIS_HOME}/agents/odd.md`,
    agentFile(
      "odd",
      "colour: red\ncolor: blue\ntoolz: Read\npermissionMode: plan\nmemory: project\neffort: high\n" +
        "background: true\nisolation: worktree\ninitialPrompt: go\n",
    ),
  );
  const { agents, diagnostics } = await load(b);
  assert.deepEqual(diagnostics.map((d) => d.message), [
    `Agent file ${b.env.TRELLIS_HOME}/agents/odd.md: unknown fields \`colour\`, \`toolz\` ignored`,
  ]);
  const odd = agents.find((a) => a.name === "odd")!;
  assert.equal(odd.color, "blue");
  // Claude Code's fields Trellis reads but does not apply yet: named (agents show), never "unknown".
  assert.deepEqual(odd.notApplied, ["memory", "background", "isolation", "initialPrompt"]);
  assert.equal(odd.permissionMode, "plan");
  assert.equal(odd.effort, "high");
});

Deno.test("#22 item 1: permissionMode, skills, mcpServers and hooks are read; a bad value is one warning naming file and field", async () => {
  const b = await box();
  await write(
    `${b.env.TRELLIS_HOME}/agents/full.md`,
    agentFile(
      "full",
      "permissionMode: dontAsk\nskills: review, style\nmcpServers:\n  - github\n  - local:\n      command: node\n" +
        "      args: [srv.js]\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo hi\n",
    ),
  );
  await write(`${b.env.TRELLIS_HOME}/agents/badmode.md`, agentFile("badmode", "permissionMode: yolo\n"));
  await write(`${b.env.TRELLIS_HOME}/agents/badmcp.md`, agentFile("badmcp", "mcpServers: 3\n"));
  await write(`${b.env.TRELLIS_HOME}/agents/badeffort.md`, agentFile("badeffort", "effort: 3\n"));
  const { agents, diagnostics } = await load(b);
  assert.deepEqual(diagnostics.map((d) => d.message), [
    `Agent file ${b.env.TRELLIS_HOME}/agents/badeffort.md is not loaded: \`effort\` must be a reasoning effort such as low, medium or high`,
    `Agent file ${b.env.TRELLIS_HOME}/agents/badmcp.md is not loaded: \`mcpServers\` must be a list of server names or \`name: {command …}\` definitions`,
    `Agent file ${b.env.TRELLIS_HOME}/agents/badmode.md is not loaded: \`permissionMode\` "yolo" is not one of default, acceptEdits, plan, dontAsk, bypassPermissions, auto`,
  ]);
  const full = agents.find((a) => a.name === "full")!;
  assert.equal(full.permissionMode, "dontAsk");
  assert.deepEqual(full.skills, ["review", "style"]);
  assert.deepEqual(full.mcpServers, [
    { kind: "ref", name: "github" },
    { kind: "inline", name: "local", entry: { command: "node", args: ["srv.js"] } },
  ]);
  assert.deepEqual(agentHookSource(full)!.hooks, {
    SubagentStop: [{ hooks: [{ type: "command", command: "echo hi" }] }],
  });
  assert.deepEqual(full.notApplied, []);
});

Deno.test("#22 item 1: model aliases map through [agents.model_aliases]; an unmapped alias warns and runs on the session's model; an id is sent as written", () => {
  const def = (model: string) => ({ name: "x", path: "/a/x.md", model });
  const aliases = { sonnet: "claude-sonnet-4-5" };
  assert.deepEqual(resolveAgentModel(def("sonnet"), aliases, "gpt-5.1"), {
    model: "claude-sonnet-4-5",
    how: "alias sonnet → claude-sonnet-4-5",
  });
  assert.deepEqual(resolveAgentModel(def("inherit"), aliases, "gpt-5.1"), {
    model: "gpt-5.1",
    how: "inherit",
  });
  assert.deepEqual(resolveAgentModel(def("gpt-5.1-mini"), aliases, "gpt-5.1"), {
    model: "gpt-5.1-mini",
    how: "model id",
  });
  const haiku = resolveAgentModel(def("haiku"), aliases, "gpt-5.1");
  assert.equal(haiku.model, "gpt-5.1");
  assert.match(haiku.warning!, /model alias "haiku" has no entry in \[agents.model_aliases\]/);
  // The neighbour: a typo of an alias is an alias too (a bare word), never sent to the provider.
  const typo = resolveAgentModel(def("sonet"), aliases, "gpt-5.1");
  assert.equal(typo.model, "gpt-5.1");
  assert.match(typo.warning!, /"sonet" \(not one of Claude Code's aliases either\)/);
});

Deno.test("#22 item 1: permissionMode is never looser than the parent", () => {
  assert.deepEqual(childPermissions("plan", "never"), {
    approvalPolicy: "untrusted",
    readOnly: true,
    denyPrompts: false,
  });
  assert.equal(childPermissions("bypassPermissions", "untrusted").approvalPolicy, "untrusted");
  assert.equal(childPermissions("acceptEdits", "on-request").approvalPolicy, "on-request");
  assert.equal(childPermissions("dontAsk", "on-request").denyPrompts, true);
  assert.equal(childPermissions("plan", "untrusted").approvalPolicy, "untrusted");
});

Deno.test("a project's agents are never read in an untrusted folder: a note says they were skipped", async () => {
  const b = await box();
  await write(`${b.ws}/.claude/agents/planted.md`, agentFile("planted"));
  await write(`${b.ws}/.trellis/agents/planted2.md`, agentFile("planted2"));
  const { agents, diagnostics } = await load(b);
  assert.deepEqual(agents.map((a) => a.name), ["general-purpose"]);
  assert.deepEqual(diagnostics.map((d) => [d.level, d.message]), [
    [
      "info",
      `Skipped ${b.ws}/.claude/agents: this project is not trusted (run \`trellis project trust\` to load its agents)`,
    ],
    [
      "info",
      `Skipped ${b.ws}/.trellis/agents: this project is not trusted (run \`trellis project trust\` to load its agents)`,
    ],
  ]);
});

Deno.test("a trusted project's agents load, and override a user agent of the same name with a warning naming both", async () => {
  const b = await box();
  await write(`${b.ws}/.claude/agents/helper.md`, agentFile("helper", "tools: Read\n"));
  await write(`${b.ws}/.trellis/agents/extra.md`, agentFile("extra"));
  await write(`${b.env.HOME}/.claude/agents/helper.md`, agentFile("helper"));
  await platform.fs.writeTextFile(`${b.env.TRELLIS_HOME}/config.toml`, trustEntry(b.ws));
  const { agents, diagnostics } = await load(b);
  assert.deepEqual(agents.map((a) => [a.name, a.origin]), [
    ["general-purpose", "built-in"],
    ["extra", "trellis-project"],
    ["helper", "claude-project"],
  ]);
  assert.deepEqual(diagnostics.map((d) => d.message), [
    `Agent "helper" is defined twice: ${b.ws}/.claude/agents/helper.md (claude-project) overrides ` +
    `${b.env.HOME}/.claude/agents/helper.md (claude-user)`,
  ]);
});

Deno.test("selectAgentTools() maps Claude tool names onto the catalog; disallowedTools removes; a write tool is not let in by Read", () => {
  const tool = (name: string, hookName: string): ToolDefinition => ({
    name,
    hookName,
    hookAliases: [],
    description: "",
    parameters: {},
    parallel: true,
    source: { kind: "builtin" },
    approval: () => ({ kind: "none" }),
    run: () => Promise.resolve({ output: "", status: "success" }),
    parseArguments: (raw) => raw,
  });
  const catalog = [
    tool("read_file", "Read"),
    tool("write_file", "Write"),
    tool("edit_file", "Edit"),
    tool("shell", "Bash"),
    tool("mcp__docs__search", "mcp__docs__search"),
    tool("mcp__docs__fetch", "mcp__docs__fetch"),
  ];
  const names = (d: { tools?: string[]; disallowedTools: string[] }) => {
    const r = selectAgentTools(d, catalog);
    return [r.tools.map((t) => t.name), r.unmatched];
  };
  assert.deepEqual(names({ tools: ["Read"], disallowedTools: [] }), [["read_file"], []]);
  assert.deepEqual(names({ tools: ["MultiEdit", "Bash(git:*)", "WebFetch"], disallowedTools: [] }), [
    ["edit_file", "shell"],
    ["WebFetch"],
  ]);
  assert.deepEqual(names({ tools: ["mcp__docs"], disallowedTools: ["mcp__docs__fetch"] }), [[
    "mcp__docs__search",
  ], []]);
  assert.deepEqual(names({ disallowedTools: ["Write", "Edit", "Bash"] })[0], [
    "read_file",
    "mcp__docs__search",
    "mcp__docs__fetch",
  ]);
});

Deno.test("a project agent file added or changed after `project trust` is held back with a warning naming it", async () => {
  const b = await box();
  await write(`${b.ws}/.claude/agents/kept.md`, agentFile("kept"));
  await write(`${b.ws}/.trellis/agents/edited.md`, agentFile("edited"));
  await platform.fs.writeTextFile(`${b.env.TRELLIS_HOME}/config.toml`, trustEntry(b.ws));
  await write(`${b.ws}/.claude/agents/planted.md`, agentFile("planted"));
  await write(`${b.ws}/.trellis/agents/edited.md`, agentFile("edited", "tools: Bash\n"));
  const { agents, diagnostics } = await load(b);
  assert.deepEqual(agents.map((a) => a.name), ["general-purpose", "kept"]);
  assert.deepEqual(diagnostics.map((d) => d.message.replace(/ \(review it.*$/, "")), [
    `Skipped ${b.ws}/.claude/agents/planted.md: it is new since you trusted ${b.ws}`,
    `Skipped ${b.ws}/.trellis/agents/edited.md: it changed since you trusted ${b.ws}`,
  ]);
});

Deno.test("Codex role files load from $CODEX_HOME/agents (recursively) and a trusted project's .codex/agents", async () => {
  const b = await box();
  const role = (name: string, extra = "") =>
    `name = "${name}"\ndescription = "The ${name} role."\nmodel = "gpt-5.1-codex-mini"\n` +
    `model_reasoning_effort = "low"\n${extra}developer_instructions = """\nYou are ${name}.\n"""\n`;
  await write(`${b.env.HOME}/.codex/agents/team/reviewer.toml`, role("reviewer"));
  await write(
    `${b.env.HOME}/.codex/agents/broken.toml`,
    'name = "broken"\ndescription = "no instructions"\n',
  );
  await write(`${b.env.HOME}/.codex/agents/garbage.toml`, "name = \n");
  await write(`${b.ws}/.codex/agents/tester.toml`, role("tester", 'sandbox_mode = "read-only"\n'));
  await platform.fs.writeTextFile(`${b.env.TRELLIS_HOME}/config.toml`, trustEntry(b.ws));
  const { agents, diagnostics } = await load(b);
  assert.deepEqual(agents.map((a) => [a.name, a.origin]), [
    ["general-purpose", "built-in"],
    ["reviewer", "codex-user"],
    ["tester", "codex-project"],
  ]);
  const reviewer = agents.find((a) => a.name === "reviewer")!;
  assert.deepEqual([reviewer.prompt, reviewer.model, reviewer.effort, reviewer.tools, reviewer.notApplied], [
    "You are reviewer.",
    "gpt-5.1-codex-mini",
    "low",
    undefined,
    [],
  ]);
  assert.deepEqual(agents.find((a) => a.name === "tester")!.notApplied, ["sandbox_mode"]);
  assert.deepEqual(diagnostics.map((d) => d.message.replace(/: invalid TOML.*$/, ": invalid TOML")), [
    `Agent file ${b.env.HOME}/.codex/agents/broken.toml is not loaded: must define a non-empty \`developer_instructions\``,
    `Agent file ${b.env.HOME}/.codex/agents/garbage.toml is not loaded: invalid TOML`,
  ]);
});

Deno.test("an untrusted project's .codex/agents is not read either", async () => {
  const b = await box();
  await write(
    `${b.ws}/.codex/agents/planted.toml`,
    'name = "planted"\ndescription = "x"\ndeveloper_instructions = "y"\n',
  );
  const { agents, diagnostics } = await load(b);
  assert.deepEqual(agents.map((a) => a.name), ["general-purpose"]);
  assert.match(diagnostics[0].message, /^Skipped .*\/ws\/\.codex\/agents: this project is not trusted/);
});
