import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { events, runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

// #22 item 5 end to end through the binary: a plugin of feature-dev's shape (a command, three
// agents) installed from a marketplace; its command asks for three code-explorer agents in
// parallel, and the fixture model launches them as three Agent calls of one step.

const MARKET = new URL("../../fixtures/plugins/feature-market", import.meta.url).pathname;

const explore = (focus: string) => ({
  name: "Agent",
  arguments: {
    subagent_type: "feature-dev:code-explorer",
    description: `explore ${focus}`,
    prompt: `EXPLORE-${focus}: trace how ${focus} works and list the files to read`,
  },
});

Deno.test("#22 item 5: a feature-dev-shaped plugin command launches three plugin agents in parallel; each runs on its definition", async () => {
  const s = await e2eSetup();
  const trellis = (...argv: string[]) => runTrellis(argv, { env: s.env, cwd: s.workspace });
  const market = `${s.root}/feature-market`;
  assert.equal((await new Deno.Command("cp", { args: ["-a", MARKET, market] }).output()).code, 0);
  const add = await trellis("plugin", "marketplace", "add", market);
  assert.equal(add.code, 0, add.stderr);
  const install = await trellis("plugin", "install", "feature-dev@features");
  assert.equal(install.code, 0, install.stderr);
  const list = await trellis("agents", "list", "--json");
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(
    JSON.parse(list.stdout).agents.filter((a: { plugin: string | null }) => a.plugin).map((
      a: { name: string },
    ) => a.name),
    ["feature-dev:code-architect", "feature-dev:code-explorer", "feature-dev:code-reviewer"],
  );
  const show = await trellis(
    "agents",
    "show",
    "feature-dev:code-explorer",
    "-c",
    'agents.model_aliases.sonnet="fixture-sonnet"',
  );
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /model: fixture-sonnet \(sonnet \(alias sonnet → fixture-sonnet\)\)/);
  assert.match(show.stdout, /color: yellow/);

  const server = await startFixtureModelServer({
    script: {
      steps: [
        { tool_calls: [explore("search"), explore("storage"), explore("api")] },
        { text: "Three explorations done; the files to read are listed." },
      ],
      replies: [
        { when_input_contains: "EXPLORE-search", text: "search: read lib/search.ts" },
        { when_input_contains: "EXPLORE-storage", text: "storage: read lib/store.ts" },
        { when_input_contains: "EXPLORE-api", text: "api: read lib/api.ts" },
      ],
    },
  });
  try {
    const run = await runTrellis([
      "exec",
      "--json",
      ...s.flags(server.url),
      "-c",
      'agents.model_aliases.sonnet="fixture-sonnet"',
      "-c",
      'agents.tool_style="claude"', // feature-dev's commands launch Claude Code's Agent
      "$feature-dev:feature-dev add fuzzy search",
    ], { env: s.env, cwd: s.workspace });
    assert.equal(run.code, 0, run.stderr);
    // deno-lint-ignore no-explicit-any
    const bodies = server.requests as Record<string, any>[];
    // The command's body, with its arguments, reached the parent's first request.
    const first = JSON.stringify(bodies[0].input);
    assert.match(first, /Launch 3 code-explorer agents in parallel/);
    assert.match(first, /The feature to build: add fuzzy search/);
    // The three children started before any finished: they ran at once.
    const lifecycle = events(run.stdout).filter((e) =>
      e.type === "agent.started" || e.type === "agent.completed"
    );
    assert.deepEqual(lifecycle.map((e) => e.type), [
      "agent.started",
      "agent.started",
      "agent.started",
      "agent.completed",
      "agent.completed",
      "agent.completed",
    ]);
    assert.ok(lifecycle.every((e) => e.agent_type === "feature-dev:code-explorer"));
    assert.ok(lifecycle.filter((e) => e.type === "agent.completed").every((e) => e.status === "completed"));
    // Each child ran on the definition: its body as instructions, sonnet mapped, Read/Grep/Glob/LS
    // (and the other Claude Code tools Trellis has) only — never shell or a write tool.
    for (const focus of ["search", "storage", "api"]) {
      const child = bodies.find((b) => JSON.stringify(b.input).includes(`EXPLORE-${focus}`))!;
      assert.match(child.instructions, /^EXPLORER-PROMPT:/);
      assert.equal(child.model, "fixture-sonnet");
      const names = child.tools.map((t: { name: string }) => t.name);
      for (const tool of ["read_file", "grep", "glob", "list_dir"]) {
        assert.ok(names.includes(tool), names.join(","));
      }
      for (const tool of ["shell", "write_file", "edit_file", "Agent"]) {
        assert.ok(!names.includes(tool), names.join(","));
      }
    }
    // The parent's last request carries the three answers as the Agent calls' outputs.
    const outputs = bodies.at(-1)!.input.filter((i: { type: string }) => i.type === "function_call_output")
      .map((i: { output: string }) => i.output.split("\n")[0]).sort();
    assert.deepEqual(outputs, [
      "api: read lib/api.ts",
      "search: read lib/search.ts",
      "storage: read lib/store.ts",
    ]);
  } finally {
    await server.close();
  }
});
