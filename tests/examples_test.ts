import assert from "node:assert/strict";
import { startFixtureModelServer } from "../scripts/fixture_model_server.ts";
import { bunCommand } from "../scripts/lib/bun_path.ts";
import { childEnv, platform, runCommand } from "../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "./helpers/cli_harness.ts";

// Issue #16 item 6: the embedding examples run as an embedder runs them — a real Deno or Bun
// process importing mod.ts — against the fixture model server, with a real SessionStart hook.

const examples = new URL("../examples/", import.meta.url).pathname;
const RUNTIMES = [
  { name: "deno", argv: () => [platform.execPath(), "run", "-A", `${examples}deno_embed.ts`] },
  { name: "bun", argv: () => [bunCommand(), "run", `${examples}bun_embed.ts`] },
];

for (const runtime of RUNTIMES) {
  Deno.test(`examples/${runtime.name}_embed.ts runs two turns (t1, t2) after a trusted SessionStart hook added its context (#16 item 6, HK-12)`, async () => {
    const model = await startFixtureModelServer({
      script: [{ text: "first answer" }, { text: "second answer" }],
    });
    try {
      const { root, env } = await makeSandboxHome();
      const ws = `${root}/ws`;
      await platform.fs.mkdir(ws);
      const context = `context from the ${runtime.name} SessionStart hook`;
      const hookOutput = JSON.stringify({
        hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context },
      });
      await platform.fs.writeTextFile(
        `${env.TRELLIS_HOME}/config.toml`,
        [
          'model_provider = "fixture"',
          'model = "fixture-model"',
          "[model_providers.fixture]",
          `base_url = ${JSON.stringify(model.url)}`,
          "[[hooks.SessionStart]]",
          `hooks = [{ type = "command", command = ${JSON.stringify(`printf '%s' '${hookOutput}'`)} }]`,
        ].join("\n") + "\n",
      );
      // A hook runs only once trusted (HK-3): trusted as a user would, with the CLI.
      const trust = await runCliCaptured(["hooks", "trust", "--all"], { env, cwd: ws });
      assert.equal(trust.code, 0, trust.stderr);

      const run = await runCommand(platform, {
        cmd: [...runtime.argv(), "first prompt", "second prompt"],
        cwd: ws,
        env: childEnv({ ...env, PATH: platform.env("PATH") ?? "/usr/bin:/bin" }),
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /first answer\nsecond answer\n/);
      const summary = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
      assert.match(summary.runtime, new RegExp(`^${runtime.name} \\d`));
      assert.deepStrictEqual(summary.turns, [`${summary.session}-t1`, `${summary.session}-t2`]);
      assert.deepStrictEqual(summary.outcomes, [
        { status: "completed", lastMessage: "first answer", steps: 1 },
        { status: "completed", lastMessage: "second answer", steps: 1 },
      ]);
      assert.deepStrictEqual(summary.hooks, ["SessionStart:trusted"]);
      // The hook's context reached the model in the first request, before the first prompt.
      const first = JSON.stringify(model.requests[0]);
      assert.ok(first.includes(context), first);
      assert.ok(first.indexOf(context) < first.indexOf("first prompt"));
      assert.equal(model.requests.length, 2);
    } finally {
      await model.close();
    }
  });
}

for (const runtime of RUNTIMES) {
  Deno.test(`examples/${runtime.name}_embed.ts without an API key says which variable to set, no stack trace, exit 1`, async () => {
    const { root, env } = await makeSandboxHome();
    const ws = `${root}/ws`;
    await platform.fs.mkdir(ws);
    const run = await runCommand(platform, {
      cmd: [...runtime.argv(), "hello"],
      cwd: ws,
      env: childEnv({ ...env, PATH: platform.env("PATH") ?? "/usr/bin:/bin" }),
    });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(
      run.stderr.trim().split("\n").at(-1),
      'error: Cannot use model provider "openai": set the environment variable OPENAI_API_KEY, or choose another provider with model_provider in config.toml (built in: anthropic, ollama; or your own [model_providers.<id>]) — README, "Configuration"',
    );
    assert.doesNotMatch(run.stderr, /\bat .*\.ts:\d+/);
  });
}
