import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { runTrellis } from "./_binary.ts";
import { e2eSetup, modelFixture } from "./_setup.ts";
import { TmuxTerminal } from "./_tmux.ts";

/**
 * #13 items 2 and 11 through a real terminal (tmux) against the binary and the fixture model
 * server: what the approval prompt shows is the whole command and where it runs; what a model sends
 * to the terminal cannot clear it, move the cursor, retitle it or write the clipboard.
 */

async function execInPane(script: string, approval: string, width = 100) {
  const s = await e2eSetup();
  await Deno.mkdir(`${s.root}/outside`);
  const server = await startFixtureModelServer({ script: modelFixture(script) });
  const pane = await TmuxTerminal.start({
    args: ["exec", ...s.flags(server.url), "-a", approval, "-s", "workspace-write", "go"],
    cwd: s.workspace,
    env: s.env,
    width,
    height: 50,
  });
  return {
    s,
    pane,
    async close() {
      await pane.close();
      await server.close();
    },
  };
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test("on-failure: the prompt shows the whole 330-blank command and asks to run it OUTSIDE the sandbox", async () => {
  const run = await execInPane("hidden_command", "on-failure");
  try {
    const screen = await run.pane.waitFor(/Answer \(y\/a\/n\/x\):$/);
    const prompt = screen.slice(screen.lastIndexOf("Approve:"));
    assert.equal(
      prompt,
      [
        "Approve: shell wants to run a command OUTSIDE the sandbox",
        "  command    make test␠×330; touch ../outside/X",
        `  in         ${run.s.workspace}`,
        "  runs       OUTSIDE the sandbox, with your full rights: it can change or delete anything you can",
        "  reason     the command failed inside the sandbox (Exit code: 1); approving runs it again OUTSIDE",
        "             the sandbox",
        "  [y]        yes, run it OUTSIDE the sandbox, once",
        "  [a]        yes, and don't ask again this session for this exact command (in",
        `             ${run.s.workspace}, OUTSIDE the sandbox)`,
        "  [n]        no: tell the model it was denied",
        "  [x]        no, and stop the turn",
        "Answer (y/a/n/x):",
      ].join("\n"),
    );
    await run.pane.typeLine("n");
    assert.equal(await run.pane.exitCode(), 0);
    assert.match(
      await run.pane.screen(),
      /^denied: the user declined \(the command failed inside the sandbox/m,
    );
    assert.equal(await exists(`${run.s.root}/outside/X`), false);
  } finally {
    await run.close();
  }
});

Deno.test("untrusted: a plain y runs the approved command inside the sandbox, so it cannot write outside", async () => {
  const run = await execInPane("hidden_command", "untrusted");
  try {
    const screen = await run.pane.waitFor(/Answer \(y\/a\/n\/x\):$/);
    assert.match(screen, /^Approve: shell wants to run a command inside the sandbox$/m);
    assert.match(screen, /^ {2}command {4}make test␠×330; touch \.\.\/outside\/X$/m);
    await run.pane.typeLine("y");
    assert.equal(await run.pane.exitCode(), 0);
    assert.match(await run.pane.screen(), /✗ shell failed .*Read-only file system/);
    assert.equal(await exists(`${run.s.root}/outside/X`), false);
  } finally {
    await run.close();
  }
});

Deno.test("a model's escape sequences reach the terminal as visible text: no clear, no title, no clipboard", async () => {
  const run = await execInPane("escape_sequences", "untrusted", 120);
  try {
    await run.pane.waitFor(/Answer \(y\/a\/n\/x\):$/);
    await run.pane.typeLine("n");
    assert.equal(await run.pane.exitCode(), 0);
    const screen = await run.pane.screen();
    // Nothing cleared the screen: the first line is still there, and every sequence shows as text.
    assert.match(screen, /^trellis: session /);
    assert.match(screen, /^· Thinking␛\[2J␛\[1A␛\[2K about it$/m);
    assert.match(screen, /^ {2}command {4}echo safe␛\]52;c;cm0gLXJmIH4=␇␛\[2J␍\\u202erm -rf ~\\u202c$/m);
    assert.match(screen, /^All done␛\]52;c;ZXZpbA==␇␛\]2;pwned␇␛\[2J␛\[31m red$/m);
    // OSC 52 would have created a tmux buffer; OSC 2 would have renamed the pane.
    assert.equal(await run.pane.buffers(), "");
    assert.notEqual(await run.pane.title(), "pwned");
  } finally {
    await run.close();
  }
});

Deno.test("an MCP server's elicitation and output print escape-free, and a policy-declined elicitation is reported", async () => {
  const s = await e2eSetup();
  const fx = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(fx)}, "echo"]\nrequired = true\n`,
  );
  const server = await startFixtureModelServer({
    script: [{ tool_calls: [{ name: "mcp__fx__ask_hostile", arguments: {} }] }, { text: "done" }],
  });
  try {
    // approval_policy = "never" declines the elicitation without asking (#13 low item, #14 item 10).
    const run = await runTrellis(["exec", ...s.flags(server.url), "-a", "never", "ask"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    // deno-lint-ignore no-control-regex -- no raw control may reach stderr
    assert.doesNotMatch(run.stderr, /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
    assert.match(
      run.stderr,
      /^mcp: fx asks: Approve\?␛\[2J␛\]52;c;cm0gLXJmIH4=␇␛\[1A␛\[2K \\u202eevil → decline$/m,
    );
    assert.match(
      run.stderr,
      /^✗ mcp__fx__ask_hostile failed \(\d+ ms\): answer␛\[2J \{"action":"decline"\}$/m,
    );
  } finally {
    await server.close();
  }
});
