import assert from "node:assert/strict";
import { childEnv, platform, runCommand } from "../../lib/platform/mod.ts";
import { EVERYTHING } from "../mcp/_helpers.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { ONE_CHILD_RUNS_A_COMMAND } from "../helpers/subagent_script.ts";

// Issue #16 item 6: extension inspection through the library face (mod.ts), in a child process
// whose HOME is a sandbox — what an embedder's program sees.

const probe = new URL("./_embed_inspect.ts", import.meta.url).pathname;

Deno.test("Trellis (mod.ts) lists config messages, MCP servers and their tools, skills (disabled ones too), hooks and plugins (#16 item 6)", async () => {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await platform.fs.mkdir(ws);
  for (const name of ["notes", "drafts"]) {
    await platform.fs.mkdir(`${env.HOME}/.agents/skills/${name}`);
    await platform.fs.writeTextFile(
      `${env.HOME}/.agents/skills/${name}/SKILL.md`,
      `---\nname: ${name}\ndescription: ${name} skill\n---\nbody\n`,
    );
  }
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    [
      "unknown_key = 1",
      "[skills.bundled]",
      "enabled = false",
      "[[skills.config]]",
      `path = ${JSON.stringify(`${env.HOME}/.agents/skills/drafts/SKILL.md`)}`,
      "enabled = false",
      "[mcp_servers.everything]",
      'command = "node"',
      `args = [${JSON.stringify(EVERYTHING)}, "stdio"]`,
      "[mcp_servers.off]",
      'command = "nothing-to-run"',
      "enabled = false",
      "[[hooks.Stop]]",
      'hooks = [{ type = "command", command = "true" }]',
    ].join("\n") + "\n",
  );
  const run = await runCommand(platform, {
    cmd: [platform.execPath(), "run", "-A", probe, 'model="from-flag"'],
    cwd: ws,
    env: childEnv({ ...env, PATH: platform.env("PATH") ?? "/usr/bin:/bin" }),
  });
  assert.equal(run.code, 0, run.stderr);
  const seen = JSON.parse(run.stdout);
  assert.deepStrictEqual([seen.cwd, seen.home, seen.projectTrusted, seen.model], [
    ws,
    env.TRELLIS_HOME,
    false,
    "from-flag",
  ]);
  assert.ok(seen.messages.some((m: { message: string }) => m.message.includes("unknown_key")), run.stdout);
  assert.deepStrictEqual(
    seen.mcpServers.map((
      s: { name: string; enabled: boolean; transport: string },
    ) => [s.name, s.enabled, s.transport]),
    [["everything", true, "stdio"], ["off", false, "stdio"]],
  );
  const echo = seen.mcpTools.find((t: { tool: string }) => t.tool === "echo");
  assert.deepStrictEqual([echo.server, echo.modelName, echo.offered], [
    "everything",
    "mcp__everything__echo",
    true,
  ]);
  // The sampling tool is there: the library's MCP runtime declares sampling, as a session's does.
  assert.ok(seen.mcpTools.some((t: { tool: string }) => t.tool === "trigger-sampling-request"));
  assert.deepStrictEqual(
    seen.skills.map((s: { name: string; enabled: boolean }) => [s.name, s.enabled]).sort(),
    [["drafts", false], ["notes", true]],
  );
  assert.deepStrictEqual(
    seen.hooks.map((h: { event: string; trust: string; command: string }) => [h.event, h.trust, h.command]),
    [["Stop", "untrusted", "true"]],
  );
  assert.deepStrictEqual(seen.plugins, []);
});

Deno.test("TrellisSession.subagents() (mod.ts) names each child: type, description, status, its last tool call, its tokens and its own transcript (#22 item 6)", async () => {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await platform.fs.mkdir(ws);
  const server = await startFixtureModelServer({ script: ONE_CHILD_RUNS_A_COMMAND });
  try {
    const run = await runCommand(platform, {
      cmd: [
        platform.execPath(),
        "run",
        "-A",
        new URL("./_embed_subagents.ts", import.meta.url).pathname,
        "model_provider=fixture",
        `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
        "model=fixture-model",
        "skills.bundled.enabled=false",
        "approval_policy=never",
      ],
      cwd: ws,
      env: childEnv({ ...env, PATH: platform.env("PATH") ?? "/usr/bin:/bin" }),
    });
    assert.equal(run.code, 0, run.stderr);
    const seen = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    assert.equal(seen.outcome.status, "completed");
    assert.equal(seen.subagents.length, 1, run.stdout);
    const [child] = seen.subagents;
    assert.match(child.id, /-agent1$/);
    assert.deepStrictEqual(
      [child.type, child.description, child.status, child.lastAction],
      ["general-purpose", "look around", "completed", "shell: echo KESTREL"],
    );
    assert.deepStrictEqual(child.usage, { inputTokens: 80, cachedInputTokens: 0, outputTokens: 10 });
    assert.notEqual(child.transcriptFile, seen.sessionFile);
    assert.match(await platform.fs.readTextFile(child.transcriptFile), /KESTREL/);
  } finally {
    await server.close();
  }
});
