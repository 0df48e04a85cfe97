import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

Deno.test("config show reports the layer each value came from", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, 'model = "m-user"\n');
  const run = await runCliCaptured(["config", "show", "--json", "-c", "approval_policy=never"], {
    env,
    cwd: root,
  });
  assert.deepStrictEqual(run.code, 0, run.stderr);
  const shown = JSON.parse(run.stdout);
  const byKey = Object.fromEntries(
    shown.values.map((v: { key: string; source: string }) => [v.key, v.source]),
  );
  assert.deepStrictEqual(byKey, {
    model: `${env.TRELLIS_HOME}/config.toml`,
    model_provider: "built-in",
    approval_policy: "-c",
    sandbox_mode: "built-in",
  });
});

Deno.test("config show exits 2 naming file, line and key for a wrong type", async () => {
  const { root, env } = await makeSandboxHome();
  const file = `${env.TRELLIS_HOME}/config.toml`;
  await platform.fs.writeTextFile(
    file,
    '# comment\nmodel = "ok"\n\n[sandbox_workspace_write]\nnetwork_access = "yes"\n',
  );
  const run = await runCliCaptured(["config", "show"], { env, cwd: root });
  assert.deepStrictEqual(run.code, 2);
  assert.match(run.stderr, new RegExp(`${file}:5: sandbox_workspace_write.network_access`));
  assert.doesNotMatch(run.stderr, /at .*\.ts/);
});

Deno.test("config show exits 2 naming file and line for malformed TOML", async () => {
  const { root, env } = await makeSandboxHome();
  const file = `${env.TRELLIS_HOME}/config.toml`;
  await platform.fs.writeTextFile(file, 'model = "ok"\nthis is not toml\n');
  const run = await runCliCaptured(["config", "show"], { env, cwd: root });
  assert.deepStrictEqual(run.code, 2);
  assert.match(run.stderr, new RegExp(`Invalid TOML in ${file}:2`));
});

Deno.test("project layers load only after `trellis project trust`", async () => {
  const { root, env } = await makeSandboxHome();
  const project = `${root}/repo`;
  await platform.fs.mkdir(`${project}/.git`);
  await platform.fs.mkdir(`${project}/.trellis`);
  await platform.fs.writeTextFile(`${project}/.trellis/config.toml`, 'model = "from-project"\n');
  const before = await runCliCaptured(["config", "show", "--json"], { env, cwd: project });
  assert.deepStrictEqual(JSON.parse(before.stdout).config.model, "gpt-5");
  assert.match(before.stderr, /trellis project trust/);
  const userConfig = `${env.TRELLIS_HOME}/config.toml`;
  await platform.fs.writeTextFile(userConfig, "# keep me\nmodel_context_window = 1000\n");
  const trust = await runCliCaptured(["project", "trust"], { env, cwd: project });
  assert.deepStrictEqual(trust.code, 0, trust.stderr);
  assert.ok(
    (await platform.fs.readTextFile(userConfig)).startsWith(
      `# keep me\nmodel_context_window = 1000\n\n[projects."${project}"]\ntrust_level = "trusted"\n` +
        'layer_hashes = { ".trellis/config.toml" = "sha256:',
    ),
  );
  assert.match(trust.stdout, /new: +\.trellis\/config\.toml/);
  const after = await runCliCaptured(["config", "show", "--json"], { env, cwd: project });
  assert.deepStrictEqual(JSON.parse(after.stdout).config.model, "from-project");
});

Deno.test("unknown keys are warnings, not errors", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, 'modle = "typo"\n');
  const run = await runCliCaptured(["config", "show"], { env, cwd: root });
  assert.deepStrictEqual(run.code, 0);
  assert.match(run.stderr, /warning: Unknown config key "modle"/);
});

Deno.test("a copied Codex config's settings Trellis does not use are one summary line naming them; a typo keeps its own warning (#16 item 8)", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    [
      'model = "gpt-5"',
      'model_reasoning_summary = "detailed"',
      'model_verbosity = "high"',
      "hide_agent_reasoning = true",
      'notify = ["notify-send"]',
      'file_opener = "vscode"',
      "disable_response_storage = true",
      'preferred_auth_method = "apikey"',
      "modle = 1",
      "[tui]",
      "notifications = true",
      "[history]",
      'persistence = "none"',
      "[profiles.fast]",
      'model = "o3"',
      'model_verbosity = "low"',
      "",
    ].join("\n"),
  );
  const run = await runCliCaptured(["config", "show", "--json"], { env, cwd: root });
  assert.deepStrictEqual(run.code, 0, run.stderr);
  const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning:"));
  assert.deepStrictEqual(warnings.filter((w) => /Unknown config key/.test(w)).length, 1, run.stderr);
  assert.match(run.stderr, /Unknown config key "modle"/);
  const summary = warnings.filter((w) => /Codex settings Trellis does not use/.test(w));
  assert.deepStrictEqual(summary.length, 1, run.stderr);
  for (
    const key of [
      "model_reasoning_summary",
      "model_verbosity",
      "hide_agent_reasoning",
      "notify",
      "file_opener",
      "disable_response_storage",
      "preferred_auth_method",
      "tui",
      "history",
      "profiles.fast.model_verbosity",
    ]
  ) assert.ok(summary[0].includes(key), `${key} missing from: ${summary[0]}`);
  assert.deepStrictEqual(JSON.parse(run.stdout).config.model, "gpt-5");
});

Deno.test("config show takes Codex's model keys with their origin and names in one line the keys it does not take (#21 item 8)", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.mkdir(`${env.HOME}/.codex`);
  const codex = `${env.HOME}/.codex/config.toml`;
  await platform.fs.writeTextFile(
    codex,
    'model = "o3"\nmodel_reasoning_effort = "high"\napproval_policy = "never"\nsandbox_mode = "danger-full-access"\n',
  );
  // A workspace beside the home, not above it (above it, the default sandbox is read-only: #20 item 5).
  const ws = `${root}/ws`;
  await platform.fs.mkdir(ws);
  const json = await runCliCaptured(["config", "show", "--json"], { env, cwd: ws });
  assert.deepStrictEqual(json.code, 0, json.stderr);
  const shown = JSON.parse(json.stdout);
  const byKey = Object.fromEntries(
    shown.values.map((v: { key: string; value: unknown; source: string }) => [v.key, [v.value, v.source]]),
  );
  assert.deepStrictEqual(byKey.model, ["o3", codex]);
  assert.deepStrictEqual(byKey.model_reasoning_effort, ["high", codex]);
  assert.deepStrictEqual(byKey.approval_policy, ["on-request", "built-in"]);
  assert.deepStrictEqual(byKey.sandbox_mode, ["workspace-write", "built-in"]);
  assert.match(shown.codex_not_taken, /: approval_policy, sandbox_mode$/);
  const text = await runCliCaptured(["config", "show"], { env, cwd: ws });
  assert.deepStrictEqual(
    text.stdout.split("\n").filter((l) => l.includes("not taken from")),
    [`# not taken from ${codex} (Trellis's own config decides these): approval_policy, sandbox_mode`],
  );
});

Deno.test("a mistyped config key is named with its line and the key it most likely meant (#21 item 11)", async () => {
  const { root, env } = await makeSandboxHome();
  const file = `${env.TRELLIS_HOME}/config.toml`;
  await platform.fs.writeTextFile(
    file,
    'model = "m"\napproval_polcy = "never"\n[sandbox_workspace_write]\nnetwrok_access = true\n[compat]\nzzz = false\n',
  );
  const run = await runCliCaptured(["config", "show"], { env, cwd: root });
  assert.deepStrictEqual(run.code, 0, run.stderr);
  const warnings = run.stderr.split("\n").filter((l) => l.startsWith("warning:")).sort();
  assert.deepStrictEqual(warnings, [
    `warning: Unknown config key "approval_polcy" in ${file}:2 (ignored); did you mean approval_policy?`,
    `warning: Unknown config key "compat.zzz" in ${file}:6 (ignored)`,
    `warning: Unknown config key "sandbox_workspace_write.netwrok_access" in ${file}:4 (ignored); did you mean sandbox_workspace_write.network_access?`,
  ]);
  // The misspelt safety key does not take effect: the default stands.
  const json = await runCliCaptured(["config", "show", "--json"], { env, cwd: root });
  assert.deepStrictEqual(JSON.parse(json.stdout).config.approval_policy, "on-request");
});
