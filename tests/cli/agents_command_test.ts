import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

// `trellis agents list|show` (#22 item 1), through the real CLI entry.

async function box() {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  await platform.fs.mkdir(`${env.HOME}/.claude/agents`);
  await platform.fs.writeTextFile(
    `${env.HOME}/.claude/agents/explorer.md`,
    "---\nname: explorer\ndescription: Explores code.\ntools: Read, Grep, WebFetch\nmodel: haiku\ncolor: cyan\n---\nExplore the code base.\n",
  );
  await platform.fs.writeTextFile(`${env.HOME}/.claude/agents/broken.md`, "no frontmatter\n");
  const cli = (...argv: string[]) => runCliCaptured(argv, { env, cwd });
  return { env, cli };
}

Deno.test("agents list names each agent with its origin, and a broken file as a warning", async () => {
  const { env, cli } = await box();
  const run = await cli("agents", "list");
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^general-purpose \(from built-in\)\n/);
  assert.match(
    run.stdout,
    new RegExp(
      `\nexplorer \\(from claude-user\\)\n    Explores code\\.\n    ${env.HOME}/\\.claude/agents/explorer\\.md\n`,
    ),
  );
  assert.match(run.stdout, /warning: Agent file .*broken\.md is not loaded: missing YAML frontmatter/);
  const json = JSON.parse((await cli("agents", "list", "--json")).stdout);
  assert.deepEqual(json.agents.map((a: { name: string; origin: string }) => `${a.name}:${a.origin}`), [
    "general-purpose:built-in",
    "explorer:claude-user",
  ]);
  // The broken file, and (#22 item 1) the haiku alias no [agents.model_aliases] entry maps.
  assert.equal(json.warnings.length, 2);
  assert.match(
    json.warnings[1].message,
    /Agent "explorer" \(.*explorer\.md\): model alias "haiku" has no entry/,
  );
});

Deno.test("agents show resolves tools to Trellis's names and names what it cannot; an unknown name is a usage error", async () => {
  const { cli } = await box();
  const json = JSON.parse(
    (await cli("agents", "show", "explorer", "--json", "-c", 'model="gpt-test"')).stdout,
  );
  // Claude Code's Read also views images, and WebFetch is a built-in tool now (#23 item 3).
  assert.deepEqual(json.tools, ["read_file", "grep", "view_image", "web_fetch"]);
  assert.deepEqual(json.unmatchedTools, []);
  assert.equal(json.model, "gpt-test");
  assert.equal(json.modelSetting, "haiku (alias haiku (no mapping: the session's model))");
  const mapped = JSON.parse(
    (await cli("agents", "show", "explorer", "--json", "-c", 'agents.model_aliases.haiku="fast-model"'))
      .stdout,
  );
  assert.equal(mapped.model, "fast-model");
  assert.equal(mapped.color, "cyan");
  assert.equal(mapped.approvalPolicy, "on-request");
  assert.equal(json.prompt, "Explore the code base.");
  const text = await cli("agents", "show", "explorer");
  assert.match(text.stdout, /\ntools: read_file, grep, view_image, web_fetch\n/);
  assert.match(text.stdout, /\npermissions: default → approval policy /);
  assert.match(text.stdout, /\nExplore the code base\.\n$/);
  const general = JSON.parse((await cli("agents", "show", "general-purpose", "--json")).stdout);
  assert.ok(general.tools.includes("shell") && general.tools.includes("Agent"), general.tools.join(","));
  const missing = await cli("agents", "show", "explorr");
  assert.equal(missing.code, 2);
  assert.match(
    missing.stderr,
    /Cannot show agent "explorr": no agent with this name \(did you mean "explorer"\?\)/,
  );
});
