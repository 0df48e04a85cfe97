/**
 * `exec` in human mode on a terminal (#15 item 7): a status line on stderr only when stderr is a
 * terminal, MCP progress, and MCP forms answered in place. The terminal is a real pseudo-terminal
 * from `script` (util-linux); the test types into it and reads what it shows.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { PipeReader, spawnTrellis, trellisArgv } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";
import { execArgs } from "../helpers/exec_args.ts";

const FX = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;
const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** Runs the binary on a pseudo-terminal (stdin, stdout and stderr all on it). */
function onTerminal(args: string[], options: { env: Record<string, string>; cwd: string }) {
  const child = new Deno.Command("script", {
    args: ["-qfec", [...trellisArgv(), ...execArgs(args)].map(quote).join(" "), "/dev/null"],
    cwd: options.cwd,
    env: { PATH: Deno.env.get("PATH") ?? "", TERM: "xterm", LANG: "C.UTF-8", ...options.env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const keys = child.stdin.getWriter();
  return {
    child,
    screen: new PipeReader(child.stdout),
    type: (text: string) => keys.write(new TextEncoder().encode(text)),
    async end() {
      await keys.close().catch(() => {});
      return await child.status;
    },
  };
}

/** Holds the first model response until `until` resolves (or 30 s pass, failing the test). */
function heldScript() {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => release = resolve);
  const guard = setTimeout(release, 30_000);
  let released = false;
  return {
    hold: (request: number, chunk: number) =>
      request === 0 && chunk === 0 ? gate.then(() => void (released = true)) : undefined,
    release: () => {
      clearTimeout(guard);
      release();
    },
    wasReleased: () => released,
  };
}

Deno.test("exec shows a spinner status line on stderr while the model works when stderr is a terminal", async () => {
  const s = await e2eSetup();
  const held = heldScript();
  const server = await startFixtureModelServer({ script: [{ text: "All done." }], hold: held.hold });
  try {
    const term = onTerminal(["exec", ...s.flags(server.url), "go"], { env: s.env, cwd: s.workspace });
    const shown = await term.screen.until((text) => /⠋ thinking · \d+s/.test(text));
    const whileHeld = !held.wasReleased();
    held.release();
    await term.screen.toEnd();
    assert.equal((await term.end()).code, 0);
    assert.ok(shown && whileHeld, `no status line while the model worked:\n${term.screen.text}`);
    // The line is erased (\r ESC[K) before the answer is written.
    // deno-lint-ignore no-control-regex
    assert.match(term.screen.text, /thinking · \d+s\r\x1b\[KAll done\.\r\n/);
  } finally {
    held.release();
    await server.close();
  }
});

Deno.test("exec shows no status line and prints MCP progress as lines when stderr is not a terminal", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo"]\nrequired = true\n`,
  );
  const server = await startFixtureModelServer({
    script: [{ tool_calls: [{ name: "mcp__fx__progress", arguments: { steps: 2, ms: 500 } }] }, {
      text: "ok",
    }],
  });
  try {
    const child = spawnTrellis(["exec", ...s.flags(server.url), "go"], { env: s.env, cwd: s.workspace });
    const [out, err] = [new PipeReader(child.stdout), new PipeReader(child.stderr)];
    await Promise.all([out.toEnd(), err.toEnd()]);
    assert.equal((await child.status).code, 0, err.text);
    assert.equal(out.text, "ok\n");
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(err.text, /\x1b\[K|thinking/);
    const progress = err.text.split("\n").filter((line) => line.startsWith("mcp: fx progress"));
    // Half a second apart: a notification read in the same chunk as the call's result is dropped
    // by the MCP SDK (its response handler runs first), which a loaded machine can make happen.
    assert.deepEqual(progress, ["mcp: fx progress: 1/2", "mcp: fx progress: 2/2"], err.text);
  } finally {
    await server.close();
  }
});

Deno.test("exec answers an MCP elicitation form typed on the terminal (#15 item 7)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo"]\nrequired = true\n`,
  );
  const server = await startFixtureModelServer({
    script: [{ tool_calls: [{ name: "mcp__fx__ask", arguments: {} }] }, { text: "thanks" }],
  });
  try {
    const term = onTerminal(["exec", ...s.flags(server.url), "ask me"], { env: s.env, cwd: s.workspace });
    const asked = await term.screen.until((text) => /name \*\r?\n {2}string: $/.test(text));
    assert.ok(asked, `no form on the terminal:\n${term.screen.text}`);
    await term.type("Ada\r");
    await term.screen.toEnd();
    assert.equal((await term.end()).code, 0, term.screen.text);
    const answer = (server.requests[1] as { input: { type: string; output?: string }[] }).input
      .find((item) => item.type === "function_call_output")?.output;
    assert.deepEqual(JSON.parse(answer ?? "null"), { action: "accept", content: { name: "Ada" } });
  } finally {
    await server.close();
  }
});

Deno.test("exec asks for an approval on the terminal with the status line out of the way, and runs the call on yes", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({
    script: [{ tool_calls: [{ name: "shell", arguments: { command: "touch approved.txt" } }] }, {
      text: "ran",
    }],
  });
  try {
    const term = onTerminal(["exec", "-a", "untrusted", ...s.flags(server.url), "touch it"], {
      env: s.env,
      cwd: s.workspace,
    });
    const asked = await term.screen.until((text) =>
      /Approve: [^\n]*command[\s\S]*touch approved\.txt[\s\S]*Answer \([a-z/]+\): $/.test(text)
    );
    assert.ok(asked, `no approval prompt on the terminal:\n${term.screen.text}`);
    const prompt = term.screen.text.slice(term.screen.text.lastIndexOf("Approve"));
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(prompt, /\x1b\[K|thinking/);
    await term.type("y\r");
    await term.screen.toEnd();
    assert.equal((await term.end()).code, 0, term.screen.text);
    assert.ok(await Deno.stat(`${s.workspace}/approved.txt`).then(() => true, () => false));
    assert.match(term.screen.text, /ran\r\n/);
  } finally {
    await server.close();
  }
});
