import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

// Issue #21 item 11: the small mistakes of a first hour, each one clear line, exit 2, nothing sent.

Deno.test("a first-word typo of a command asks 'did you mean' instead of opening a session with it", async () => {
  const { root, env } = await makeSandboxHome();
  const run = (...argv: string[]) => runCliCaptured(argv, { env, cwd: root });
  const typo = await run("exce", "hi");
  assert.deepStrictEqual(typo.code, 2);
  assert.deepStrictEqual(
    typo.stderr,
    'error: Unknown command "exce": did you mean `trellis exec`? To send it as the first prompt of a session, ' +
      'quote the prompt: trellis "exce hi"\n',
  );
  // Options before the word are passed over; their values are not taken for the command.
  const withOptions = await run("-m", "gpt-5", "-c", "x=1", "mpc", "list");
  assert.match(withOptions.stderr, /Unknown command "mpc": did you mean `trellis mcp`\?/);
  // Neighbours: an ordinary prompt word, a quoted prompt and a real command are never taken for typos.
  for (const argv of [["confirm", "the", "build"], ["exce hi"], ["--", "exce", "hi"]]) {
    const prompt = await run(...argv);
    assert.doesNotMatch(prompt.stderr, /Unknown command/, argv.join(" "));
  }
});

Deno.test("-s/-a values are checked against their choices and blamed on the flag, not on -c", async () => {
  const { root, env } = await makeSandboxHome();
  for (const argv of [["-s", "workspace", "exec", "hi"], ["exec", "-s", "workspace", "hi"]]) {
    const bad = await runCliCaptured(argv, { env, cwd: root });
    assert.deepStrictEqual(bad.code, 2);
    assert.match(
      bad.stderr,
      /^error: option '-s, --sandbox <mode>' argument 'workspace' is invalid\. Allowed choices are read-only, workspace-write, danger-full-access\./,
    );
    assert.doesNotMatch(bad.stderr, /-c/);
  }
  const approval = await runCliCaptured(["-a", "nevr", "exec", "hi"], { env, cwd: root });
  assert.match(
    approval.stderr,
    /argument 'nevr' is invalid\. Allowed choices are untrusted, on-request, on-failure, never/,
  );
});

Deno.test("bare `trellis --help` shows [PROMPT] and that it opens an interactive session", async () => {
  const { root, env } = await makeSandboxHome();
  const help = await runCliCaptured(["--help"], { env, cwd: root });
  assert.deepStrictEqual(help.code, 0);
  assert.match(
    help.stdout,
    /^Usage: trellis \[options\] \[PROMPT\]\n {7}trellis \[options\] <command> \[args\]\n/,
  );
  assert.match(
    help.stdout.replace(/\s+/g, " "),
    /With no command, `trellis \[PROMPT\]` opens an interactive session/,
  );
});

Deno.test("a required MCP server that fails is one error line on a terminal, and turn.failed under --json (#21 item 11)", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    '[mcp_servers.need]\ncommand = "/nonexistent/server-bin"\nrequired = true\n',
  );
  const keyed = { ...env, OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };
  const human = await runCliCaptured(["exec", "hi"], { env: keyed, cwd: root });
  assert.deepStrictEqual(human.code, 2, human.stderr);
  assert.deepStrictEqual(
    human.stderr.match(/Cannot start required MCP server "need"/g)?.length,
    1,
    human.stderr,
  );
  assert.doesNotMatch(human.stderr, /turn failed/);
  const json = await runCliCaptured(["exec", "--json", "hi"], { env: keyed, cwd: root });
  const events = json.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.deepStrictEqual(events.at(-1).type, "turn.failed");
  assert.match(events.at(-1).error.message, /Cannot start required MCP server "need"/);
});
