/**
 * The interactive mode through a real terminal (#15 items 1–5): trellis runs in tmux against the
 * fixture model server; keys are typed with send-keys and the screen is read with capture-pane.
 */
import assert from "node:assert/strict";
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { runTrellis } from "./_binary.ts";
import { type E2eSetup, e2eSetup } from "./_setup.ts";
import { TmuxTerminal } from "./_tmux.ts";

const FX = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;
const EVERYTHING =
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url)
    .pathname;
const CLAUDE_MARKET = new URL("../../fixtures/plugins/claude-market", import.meta.url).pathname;
const PROMPT = /^›$/m;

/** The newest `›` input line on the screen (older ones stay above it in the scrollback). */
function lastPromptLine(screen: string): string | undefined {
  return screen.split("\n").filter((line) => line.startsWith("›")).at(-1);
}

async function withSession(
  script: FixtureScript,
  run: (
    t: TmuxTerminal,
    s: E2eSetup,
    server: Awaited<ReturnType<typeof startFixtureModelServer>>,
  ) => Promise<void>,
  options: {
    args?: string[];
    env?: Record<string, string>;
    setup?: (s: E2eSetup) => Promise<void>;
    width?: number;
  } = {},
): Promise<void> {
  const s = await e2eSetup();
  await options.setup?.(s);
  const server = await startFixtureModelServer({ script });
  const terminal = await TmuxTerminal.start({
    cwd: s.workspace,
    env: { ...s.env, ...options.env },
    args: [...s.flags(server.url), ...(options.args ?? [])],
    ...(options.width ? { width: options.width } : {}),
  });
  try {
    await run(terminal, s, server);
  } finally {
    await terminal.close();
    await server.close();
  }
}

async function transcriptLines(s: E2eSetup): Promise<Record<string, any>[]> {
  const dir = `${s.env.TRELLIS_HOME}/sessions`;
  const lines: Record<string, any>[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const text = await Deno.readTextFile(`${dir}/${entry.name}`);
    lines.push(...text.split("\n").filter(Boolean).map((l) => JSON.parse(l)));
  }
  return lines;
}

const userPrompts = (lines: Record<string, any>[]) =>
  lines.filter((l) => l.type === "item" && l.item.type === "message" && l.item.role === "user").map((l) =>
    l.item.content
  );

Deno.test("interactive: a two-turn conversation on one session, rendered markdown, then Ctrl-D exits 0", async () => {
  await withSession([
    { text: "# Plan\n\nThis is **important**.\n\n- first\n- second\n\n```ts\nconst x = 1;\n```\n" },
    { tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }] },
    { text: "The notes have one TODO." },
  ], async (t, s, server) => {
    await t.waitFor(PROMPT);
    await t.typeLine("make a plan");
    await t.waitFor(/• second/);
    const first = await t.screen();
    assert.match(first, /^Plan$/m, "the heading is rendered without its #");
    assert.match(first, /This is important\./, "emphasis markers are gone");
    assert.match(first, /^ {2}const x = 1;$/m, "fenced code is indented");
    await t.typeLine("what do the notes say?");
    await t.waitFor(/The notes have one TODO\./);
    const second = await t.screen();
    assert.match(second, /✓ read_file notes\.md · 2 lines · \d+ ms/);
    // The live region is redrawn in place: no status line or prompt frame is left in the scrollback.
    assert.doesNotMatch(second, /esc to interrupt/);
    assert.equal(second.match(/^›$/gm)?.length, 1);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
    assert.match(await t.screen(), /continue it with: trellis resume \S+/);
    const lines = await transcriptLines(s);
    assert.deepEqual(userPrompts(lines), ["make a plan", "what do the notes say?"]);
    const turns = lines.filter((l) => l.type === "turn");
    assert.equal(turns.length, 2);
    assert.notEqual(turns[0].turn_id, turns[1].turn_id);
    // The second request carries the first exchange: one conversation, not two.
    assert.match(JSON.stringify(server.requests[1]), /make a plan/);
  });
});

Deno.test("interactive: `trellis -C DIR PROMPT` starts in DIR with that prompt; the prompt history is kept per project (#15 items 1-2)", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({ script: [{ text: "started with it" }] });
  const other = `${s.root}/tmp`;
  const start = (args: string[]) =>
    TmuxTerminal.start({
      cwd: other,
      env: s.env,
      args: [...s.flags(server.url), "-C", s.workspace, ...args],
    });
  try {
    const first = await start(["what is in notes.md?"]);
    try {
      const screen = await first.waitFor(/^started with it$/m);
      assert.match(screen, new RegExp(`fixture-model · ${s.workspace}$`, "m"));
      assert.match(screen, /^› what is in notes\.md\?$/m);
      await first.press("C-d");
      assert.equal(await first.exitCode(), 0);
    } finally {
      await first.close();
    }
    assert.match(JSON.stringify(server.requests[0]), /what is in notes\.md\?/);
    const second = await start([]);
    try {
      await second.waitFor(PROMPT);
      await second.press("Up");
      await second.waitFor(/^› what is in notes\.md\?$/m);
      await second.press("C-u", "C-d");
      assert.equal(await second.exitCode(), 0);
    } finally {
      await second.close();
    }
  } finally {
    await server.close();
  }
});

Deno.test("interactive: resume after exit shows the conversation and continues it; the picker resumes too", async () => {
  await withSession(
    [{ text: "first answer" }, { text: "second answer" }, { text: "third answer" }],
    async (t, s, server) => {
      await t.waitFor(PROMPT);
      await t.typeLine("remember the word kiwi");
      await t.waitFor(/first answer/);
      await t.press("C-d");
      assert.equal(await t.exitCode(), 0);
      const id = /trellis resume (\S+)/.exec(await t.screen())![1];

      const resumed = await TmuxTerminal.start({
        cwd: s.workspace,
        env: s.env,
        args: ["resume", "--last", ...s.flags(server.url)],
      });
      try {
        const screen = await resumed.waitFor(/continue below/);
        assert.match(screen, /remember the word kiwi/);
        assert.match(screen, /first answer/);
        assert.match(screen, new RegExp(`session ${id} \\(resumed\\)`));
        await resumed.typeLine("what was the word?");
        await resumed.waitFor(/second answer/);
        await resumed.press("C-d");
        assert.equal(await resumed.exitCode(), 0);
      } finally {
        await resumed.close();
      }
      assert.match(JSON.stringify(server.requests[1]), /remember the word kiwi/);

      const picked = await TmuxTerminal.start({
        cwd: s.workspace,
        env: s.env,
        args: ["resume", ...s.flags(server.url)],
      });
      try {
        const list = await picked.waitFor(/Resume which session of this directory\?/);
        assert.match(list, /\d{4}-\d{2}-\d{2} \d{2}:\d{2} {2}\S+workspace {2}remember the word kiwi/);
        await picked.press("Enter");
        await picked.waitFor(new RegExp(`session ${id} \\(resumed\\)`));
        await picked.typeLine("and again?");
        // The turn has ended once its usage line shows: Ctrl-C then is the first of two that quit.
        await picked.waitFor(/third answer\n\n─ \d+s · /);
        await picked.press("C-c");
        await picked.waitFor(/press Ctrl-C again to quit/);
        await picked.press("C-c");
        assert.equal(await picked.exitCode(), 0);
      } finally {
        await picked.close();
      }
      const lines = await transcriptLines(s);
      assert.deepEqual(userPrompts(lines), ["remember the word kiwi", "what was the word?", "and again?"]);
    },
  );
});

Deno.test("interactive: an approval shows exec's whole structured request and is answered in place; 'always' covers that exact command (#15 item 4, #13 items 2-3)", async () => {
  const command = `touch made.txt${" ".repeat(120)}; echo tail-is-visible`;
  await withSession([
    { tool_calls: [{ name: "shell", arguments: { command } }] },
    { tool_calls: [{ name: "shell", arguments: { command } }] },
    { tool_calls: [{ name: "shell", arguments: { command: "touch other.txt" } }] },
    { tool_calls: [{ name: "shell", arguments: { command: "touch third.txt" } }] },
    { text: "all done" },
  ], async (t, s, server) => {
    await t.waitFor(PROMPT);
    await t.typeLine("make the files");
    const asked = await t.waitFor(/Approve\? \[y\/a\/n\/x\/e\] \(the choices above\)/);
    assert.equal(asked.match(/\[a\] /g)?.length, 1, "the choices are printed once");
    const prompt = asked.slice(asked.lastIndexOf("? Approve:"));
    assert.match(prompt, /^\? Approve: shell wants to run a command inside the sandbox$/m);
    assert.match(prompt, /^ {2}command {4}touch made\.txt␠×120; echo tail-is-visible$/m, "the whole command");
    assert.match(prompt, new RegExp(`^ {2}in {9}${s.workspace}$`, "m"));
    assert.match(
      prompt,
      /^ {2}runs {7}inside the sandbox: its limits still apply; approving does not lift them$/m,
    );
    assert.match(prompt, /^ {2}\[a\] {8}yes, and don't ask again this session for this exact command \(in$/m);
    assert.match(prompt, /^ {2}\[x\] {8}no, and stop the turn$/m);
    assert.match(prompt, /^ {2}\[e\] {8}explain: ask the model what this does, then answer$/m);
    await t.press("a");
    await t.waitFor(/approved: don't ask again this session for this exact command/);
    // The same command again runs without asking; another one asks.
    const second = await t.waitFor(/command {4}touch other\.txt/);
    assert.equal(second.match(/\? Approve:/g)?.length, 2);
    await t.press("n");
    await t.waitFor(/command {4}touch third\.txt/);
    await t.press("x");
    await t.waitFor(/denied; the turn stops/);
    await t.waitFor(PROMPT);
    assert.equal(server.requests.length, 4, "x stopped the turn: the denial went to no model");
    await t.typeLine("go on");
    await t.waitFor(/all done/);
    assert.ok(await Deno.stat(`${s.workspace}/made.txt`));
    await assert.rejects(Deno.stat(`${s.workspace}/other.txt`));
    await assert.rejects(Deno.stat(`${s.workspace}/third.txt`));
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, { args: ["-a", "untrusted"] });
});

Deno.test("interactive: on-failure asks to run a failed command OUTSIDE the sandbox as its own question, and 'yes' says so (#13 item 2)", async () => {
  await withSession([
    { tool_calls: [{ name: "shell", arguments: { command: "touch ../outside/X" } }] },
    { text: "ok" },
  ], async (t, s) => {
    await t.waitFor(PROMPT);
    await t.typeLine("touch it");
    const asked = await t.waitFor(/Approve\? \[y\/[a-z/]*e\] \(the choices above\)/);
    const prompt = asked.slice(asked.lastIndexOf("? Approve:"));
    assert.match(prompt, /^\? Approve: shell wants to run a command OUTSIDE the sandbox$/m);
    assert.match(prompt, /^ {2}\[y\] {8}yes, run it OUTSIDE the sandbox, once$/m);
    assert.match(prompt, /^ {2}reason {5}the command failed inside the sandbox/m);
    await t.press("n");
    await t.waitFor(/^ok$/m);
    await assert.rejects(Deno.stat(`${s.root}/outside/X`));
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, {
    args: ["-a", "on-failure", "-s", "workspace-write"],
    setup: (s) => Deno.mkdir(`${s.root}/outside`),
  });
});

Deno.test("interactive: an MCP elicitation form is filled in place, with field validation (MCP-15)", async () => {
  await withSession([
    { tool_calls: [{ name: "mcp__fx__ask", arguments: {} }] },
    { text: "thanks" },
  ], async (t, _s, server) => {
    await t.waitFor(PROMPT);
    await t.typeLine("ask me");
    await t.waitFor(/MCP server fx asks/);
    await t.waitFor(/name \*/);
    await t.press("Enter");
    await t.waitFor(/a value is required/);
    await t.typeLine("Ada");
    await t.waitFor(/Send this to fx\?/);
    await t.press("y");
    await t.waitFor(/thanks/);
    const output = JSON.stringify(server.requests[1]);
    assert.match(output, /\\"action\\":\\"accept\\"/);
    assert.match(output, /Ada/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, {
    setup: async (s) => {
      await Deno.writeTextFile(
        `${s.env.TRELLIS_HOME}/config.toml`,
        `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo"]\nrequired = true\n`,
      );
    },
  });
});

Deno.test("interactive: Ctrl-C during a tool call aborts it, the session stays, and the next prompt runs", async () => {
  await withSession([
    { tool_calls: [{ name: "shell", arguments: { command: "sleep 30" } }] },
    { text: "after the interrupt" },
  ], async (t, s) => {
    await t.waitFor(PROMPT);
    await t.typeLine("wait a long time");
    await t.waitFor(/• shell sleep 30/);
    await t.press("C-c", "C-c", "C-c"); // a storm: one interrupt, the session stays
    await t.waitFor(/interrupted after/);
    await t.typeLine("go on");
    await t.waitFor(/after the interrupt/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
    const lines = await transcriptLines(s);
    const outputs = lines.filter((l) => l.type === "item" && l.item.type === "function_call_output");
    assert.equal(outputs.length, 1);
    assert.equal(outputs[0].item.status, "aborted");
    assert.deepEqual(lines.filter((l) => l.type === "turn").map((l) => l.status), ["aborted", "completed"]);
  });
});

Deno.test("interactive: Esc ends an answer that never stops streaming; the session goes on (#15 bad input)", async () => {
  const start = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
  await withSession([
    { text: start, endless: true, event_delay_ms: 10 },
    { text: "short answer" },
  ], async (t, s) => {
    await t.waitFor(PROMPT);
    await t.typeLine("talk forever");
    await t.waitFor(/word20 /);
    await t.press("Escape");
    await t.waitFor(/interrupted after/);
    await t.typeLine("and now?");
    await t.waitFor(/short answer/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
    const lines = await transcriptLines(s);
    assert.deepEqual(lines.filter((l) => l.type === "turn").map((l) => l.status), ["aborted", "completed"]);
  });
});

/** PreCompact/PostCompact hooks that save what they read (trusted, HK-3). */
async function compactionHooks(s: E2eSetup): Promise<void> {
  const script = async (name: string) => {
    const file = `${s.root}/${name}.sh`;
    await Deno.writeTextFile(file, `#!/bin/sh\ncat > "${s.root}/${name}.json"\n`);
    await Deno.chmod(file, 0o755);
    return file;
  };
  const hook = async (
    name: string,
  ) => [{ matcher: "", hooks: [{ type: "command", command: await script(name) }] }];
  const hooks = { PreCompact: await hook("pre"), PostCompact: await hook("post") };
  await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/hooks.json`, JSON.stringify({ hooks }));
  const trust = await runTrellis(["hooks", "trust", "--all"], { env: s.env, cwd: s.workspace });
  assert.equal(trust.code, 0, trust.stderr);
}

const SUMMARY = { when_input_contains: "Context compaction:", text: "Summary {n}: kiwi was mentioned." };

Deno.test("interactive: /compact summarizes for real: the transcript records it, the next request carries the summary, PreCompact/PostCompact fire (#15 item 6)", async () => {
  await withSession({
    steps: [{ text: `a1 ${"x".repeat(3000)}` }, { text: "after compaction" }],
    replies: [SUMMARY],
  }, async (t, s, server) => {
    await t.waitFor(PROMPT);
    await t.typeLine("remember kiwi");
    await t.waitFor(/^a1 x+/m);
    await t.waitFor(PROMPT);
    const footer = await t.waitFor(/context \d+% used · enter send/);
    const before = Number(/context (\d+)% used/.exec(footer)![1]);
    await t.typeLine("/compact keep the fruit");
    await t.waitFor(/context compacted by hand: ~[\d,]+ → ~[\d,]+ tokens/);
    const after = Number(/context used now: (\d+)%/.exec(await t.waitFor(/context used now: \d+%/))![1]);
    assert.ok(after < before, `the context shrank: ${before}% → ${after}%`);
    await t.typeLine("what fruit?");
    await t.waitFor(/after compaction/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
    const lines = await transcriptLines(s);
    const compacted = lines.filter((l) => l.type === "compacted");
    assert.equal(compacted.length, 1);
    assert.equal(compacted[0].strategy, "summary");
    assert.match(
      JSON.stringify(server.requests[1]),
      /keep the fruit/,
      "the summary request carries /compact's text",
    );
    const next = JSON.stringify(server.requests[2]);
    assert.match(next, /Summary 1: kiwi was mentioned\./, "the next request carries the summary");
    assert.doesNotMatch(next, /x{3000}/, "the old answer is gone");
    const pre = JSON.parse(await Deno.readTextFile(`${s.root}/pre.json`));
    const post = JSON.parse(await Deno.readTextFile(`${s.root}/post.json`));
    assert.deepEqual([pre.hook_event_name, pre.trigger, pre.custom_instructions], [
      "PreCompact",
      "manual",
      "keep the fruit",
    ]);
    assert.deepEqual([post.hook_event_name, post.trigger], ["PostCompact", "manual"]);
    assert.match(post.compact_summary, /^Summary 1/);
  }, { setup: compactionHooks, args: ["-c", "model_context_window=8000"] });
});

Deno.test("interactive: a small context window compacts automatically mid-turn; a failing compaction keeps the history and says so (#15 item 6)", async () => {
  await withSession({
    steps: [
      {
        tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }],
        usage: { input_tokens: 2900, output_tokens: 20 },
      },
      { text: "notes.md has one TODO left: ship." },
    ],
    replies: [SUMMARY],
  }, async (t, s) => {
    await t.waitFor(PROMPT);
    await t.typeLine("What is left in notes.md?");
    await t.waitFor(/context compacted automatically: ~[\d,]+ → ~[\d,]+ tokens/);
    await t.waitFor(/notes\.md has one TODO left: ship\./);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
    const lines = await transcriptLines(s);
    assert.equal(lines.filter((l) => l.type === "compacted").length, 1);
  }, { args: ["-c", "model_context_window=3000"] });

  await withSession({
    steps: [{ text: "a1" }, { text: "still here" }],
    replies: [{ when_input_contains: "Context compaction:", fail: { status: 500, body: "summarizer down" } }],
  }, async (t, s, server) => {
    await t.waitFor(PROMPT);
    await t.typeLine("first");
    await t.waitFor(/^a1$/m);
    await t.waitFor(PROMPT);
    await t.typeLine("/compact");
    await t.waitFor(/compaction failed, the history is unchanged: .*500/);
    await t.typeLine("second");
    await t.waitFor(/still here/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
    assert.match(JSON.stringify(server.requests.at(-1)), /"first"[\s\S]*a1[\s\S]*"second"/);
    assert.equal((await transcriptLines(s)).filter((l) => l.type === "compacted").length, 0);
  }, { args: ["-c", "model_providers.fixture.request_max_retries=0"] });
});

Deno.test("interactive: MCP prompts and plugin commands are slash commands with Tab completion (#15 item 5)", async () => {
  await withSession([{ text: "weather noted" }, { text: "checked" }], async (t, _s, server) => {
    await t.waitFor(PROMPT);
    // #21 item 6: a required argument missing sends nothing.
    await t.typeLine("/mcp__everything__args_prompt");
    await t.waitFor(/MCP prompt mcp__everything__args_prompt needs "city" [\s\S]*: nothing was sent/);
    assert.equal(server.requests.length, 0, "the bare prompt command reached no model");
    await t.type("/mcp__everything__args_p");
    await t.press("Tab");
    // The earlier bare command left a `› /mcp__everything__args_prompt` line above: only the
    // newest prompt line may show the completion, or Paris is typed before Tab lands.
    await t.waitFor(
      (screen) => lastPromptLine(screen) === "› /mcp__everything__args_prompt",
      "the completed /mcp__everything__args_prompt on the newest prompt line",
    );
    await t.typeLine("Paris");
    await t.waitFor(/weather noted/);
    const first = JSON.stringify(server.requests[0]);
    assert.ok(
      first.includes("What's weather in Paris?"),
      "prompts/get expanded the prompt with its argument",
    );
    await t.type("/dev-kit:ch");
    await t.press("Tab");
    await t.waitFor(/› \/dev-kit:check$/m);
    await t.typeLine("./plugins/x");
    await t.waitFor(/checked/);
    assert.match(JSON.stringify(server.requests[1]), /Check the plugin in \.\/plugins\/x/);
    await t.typeLine("/mcp__everything__nothing");
    await t.waitFor(
      /No MCP prompt \/mcp__everything__nothing in this session \(there are \/mcp__everything__/,
    );
    await t.typeLine("/help");
    const help = await t.waitFor(/\/mcp__server__prompt \[ARGS\] {2}an MCP server's prompt/);
    // #21 item 6: one aligned second column; a name too wide for it takes a line of its own.
    assert.match(help, /^ {2}\/help {24}list the slash commands$/m);
    assert.match(
      help,
      /^ {2}\/approvals \[untrusted\|on-request\|on-failure\|never\]\n {31}show the approval policy/m,
    );
    assert.equal(server.requests.length, 2, "an unknown MCP prompt sends nothing");
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, {
    setup: async (s) => {
      await Deno.writeTextFile(
        `${s.env.TRELLIS_HOME}/config.toml`,
        `[mcp_servers.everything]\ncommand = "node"\nargs = [${
          JSON.stringify(EVERYTHING)
        }, "stdio"]\nrequired = true\n`,
      );
      const market = `${s.root}/claude-market`;
      const cp = await new Deno.Command("cp", { args: ["-a", CLAUDE_MARKET, market] }).output();
      assert.equal(cp.code, 0);
      for (
        const argv of [["plugin", "marketplace", "add", market], ["plugin", "install", "dev-kit@claude"]]
      ) {
        const run = await runTrellis(argv, { env: s.env, cwd: s.workspace });
        assert.equal(run.code, 0, run.stderr);
      }
    },
  });
});

Deno.test("interactive: Tab completes $skill names and @paths; the @file is attached and the skill injected", async () => {
  await withSession([{ text: "seen" }], async (t, _s, server) => {
    await t.waitFor(PROMPT);
    await t.type("use $depl");
    await t.press("Tab");
    await t.waitFor(/› use \$deploy-app$/m);
    await t.type("on @no");
    await t.press("Tab");
    await t.waitFor(/› use \$deploy-app on @notes\.md$/m);
    await t.type("/");
    await t.press("Enter");
    await t.waitFor(/seen/);
    const request = JSON.stringify(server.requests[0]);
    assert.match(request, /<attached_file path=\\"notes\.md\\">\\n# Notes\\n- TODO: ship/);
    assert.match(request, /<name>deploy-app<\/name>/);
    assert.match(await t.screen(), /@notes\.md: attached \(21 bytes\)/);
    await t.type("/he");
    await t.press("Tab");
    await t.waitFor(/› \/help$/m);
    await t.press("Enter");
    await t.waitFor(/Slash commands/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, {
    setup: async (s) => {
      await Deno.mkdir(`${s.workspace}/.agents/skills/deploy-app`, { recursive: true });
      await Deno.writeTextFile(
        `${s.workspace}/.agents/skills/deploy-app/SKILL.md`,
        "---\nname: deploy-app\ndescription: Deploys the app\n---\nRun the deploy script.\n",
      );
    },
  });
});

Deno.test("interactive: NO_COLOR output carries no colour; a model's escape sequences are shown, never executed", async () => {
  const hostile = "Look: \x1b[2J\x1b]52;c;cHduZWQ=\x07 \x1b[31mred\x1b[0m \u202Eevil\u202C done";
  await withSession([{ text: hostile }], async (t) => {
    await t.waitFor(PROMPT);
    await t.typeLine("say something");
    const screen = await t.waitFor(/done$/m);
    // The shared sanitizer's notation, as exec prints it (README, Terminal-safe text).
    assert.match(screen, /Look: ␛\[2J␛\]52;c;cHduZWQ=␇ ␛\[31mred␛\[0m \\u202eevil\\u202c done/);
    assert.equal(await t.buffers(), "", "no OSC 52 clipboard write reached the terminal");
    const colored = await t.screen({ escapes: true });
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(colored, /\x1b\[[0-9;]*[1-9][0-9;]*m/, "no SGR colour or style codes");
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, { env: { NO_COLOR: "1" } });
});

Deno.test("interactive: invalid UTF-8 from the model shows as U+FFFD and the transcript stays consistent (#15 bad input)", async () => {
  await withSession([{ text: "bad \uE000 byte, then fine" }, { text: "next" }], async (t, s) => {
    await t.waitFor(PROMPT);
    await t.typeLine("say it");
    await t.waitFor(/^bad \uFFFD byte, then fine$/m);
    await t.typeLine("again");
    await t.waitFor(/^next$/m);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
    const answers = (await transcriptLines(s)).filter((l) =>
      l.type === "item" && l.item.type === "message" && l.item.role === "assistant"
    ).map((l) => l.item.content);
    assert.deepEqual(answers, ["bad \uFFFD byte, then fine", "next"]);
  });
});

Deno.test("interactive: a 5 MB paste is kept whole as one placeholder and sent whole", async () => {
  const big = "x".repeat(5 * 1024 * 1024 - 10) + "\nlast line";
  // A window that holds the paste, so it is sent whole rather than compacted first.
  const window = ["-c", "model_context_window=4000000"];
  await withSession([{ text: "got it" }], async (t, _s, server) => {
    await t.waitFor(PROMPT);
    await t.paste(big);
    await t.waitFor(/\[Pasted text #1, 5,242,880 chars, 2 lines\]/);
    await t.press("Enter");
    await t.waitFor(/got it/);
    const input = (server.requests[0] as { input: { role?: string; content?: unknown }[] }).input;
    const user = input.filter((i) => i.role === "user").map((i) => JSON.stringify(i.content)).join("");
    assert.ok(user.includes("x".repeat(1000)) && user.includes("last line"));
    assert.ok(user.length >= 5 * 1024 * 1024);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, { args: window });
});

Deno.test("interactive: a resize mid-stream leaves the answer whole and one status line", async () => {
  const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(" ");
  await withSession([{ text: `${words}\n\nthe end`, event_delay_ms: 30 }], async (t) => {
    await t.waitFor(PROMPT);
    await t.typeLine("stream");
    await t.waitFor(/w5 /);
    await t.resize(60, 20);
    await t.waitFor(/w30/);
    await t.resize(120, 30);
    await t.waitFor(/^the end\n\n─ \d+s · /m);
    // Once the turn is over the status line goes, and no copy of it stays on the screen.
    await t.waitForVisible((v) => !v.includes("esc to interrupt"), "no status line left behind");
    const screen = await t.screen();
    assert.equal(screen.match(/w59 the end|w59\s*\n\s*\nthe end|w59/g)?.length, 1, "the answer appears once");
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  });
});

Deno.test("interactive: resume ids that do not exist or leave $TRELLIS_HOME/sessions are refused (exit 2)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(`${s.root}/outside.jsonl`, "{}\n");
  await Deno.mkdir(`${s.env.TRELLIS_HOME}/sessions`);
  await Deno.symlink(`${s.root}/outside.jsonl`, `${s.env.TRELLIS_HOME}/sessions/linked.jsonl`);
  for (
    const [id, message] of [
      ["20990101000000-nothere", /no such session in .*sessions/],
      ["linked", /its transcript is not a regular file/],
      ["../../outside", /not a session id/],
      [`${s.root}/outside`, /not a session id/],
    ] as const
  ) {
    const t = await TmuxTerminal.start({ cwd: s.workspace, env: s.env, args: ["resume", id] });
    try {
      assert.equal(await t.exitCode(), 2);
      assert.match(await t.screen(), message);
    } finally {
      await t.close();
    }
  }
});

Deno.test("interactive: without a terminal trellis says to use exec (exit 2)", async () => {
  const s = await e2eSetup();
  const run = await runTrellis(["hello"], { env: s.env, cwd: s.workspace });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /must be a terminal; run `trellis exec PROMPT` instead/);
});

Deno.test("interactive: a mistyped /command is named and sends nothing; a prompt starting with a path is sent (#15 item 5)", async () => {
  await withSession([{ text: "hosts read" }], async (t, _s, server) => {
    await t.waitFor(PROMPT);
    await t.typeLine("/stauts");
    await t.waitFor(/Unknown command \/stauts: nothing was sent \(did you mean \/status\?\)/);
    await t.typeLine("/zzzz"); // the neighbour: nothing one edit away
    await t.waitFor(/Unknown command \/zzzz: nothing was sent \(\/help lists the commands\)/);
    await t.typeLine("/diff"); // #21 item 6: outside a git repository, one line says so
    const diff = await t.waitFor(/\/diff: .* is not in a git repository \(nothing to compare\)/);
    assert.doesNotMatch(diff, /fatal:/);
    await t.typeLine("/etc/hosts looks empty");
    await t.waitFor(/hosts read/);
    assert.equal(server.requests.length, 1, "only the path prompt reached the model");
    assert.match(JSON.stringify(server.requests[0]), /\/etc\/hosts looks empty/);
    assert.doesNotMatch(JSON.stringify(server.requests[0]), /stauts/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  });
});

Deno.test("interactive: prompts queued behind a mistyped /command still run once the turn ends (#15 item 5)", async () => {
  const start = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
  await withSession([
    { text: start, endless: true, event_delay_ms: 10 },
    { text: "queued prompt answered" },
  ], async (t, _s, server) => {
    await t.waitFor(PROMPT);
    await t.typeLine("talk forever");
    await t.waitFor(/word20 /);
    await t.typeLine("/stauts");
    await t.typeLine("after the typo");
    await t.press("Escape");
    await t.waitFor(/Unknown command \/stauts/);
    await t.waitFor(/queued prompt answered/);
    assert.equal(server.requests.length, 2);
    assert.match(JSON.stringify(server.requests[1]), /after the typo/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  });
});

Deno.test("interactive: /hooks lists what the session's own command line configured (-c before any command word)", async () => {
  await withSession([], async (t) => {
    await t.waitFor(PROMPT);
    await t.typeLine("/hooks");
    await t.waitFor(/Stop: echo from-global/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, { args: ["-c", 'hooks.Stop=[{hooks=[{type="command",command="echo from-global"}]}]'] });
});

Deno.test("interactive: /status, /diff, /model and /init work in place; /init never overwrites AGENTS.md", async () => {
  await withSession([
    {
      tool_calls: [{
        name: "write_file",
        arguments: { path: "AGENTS.md", content: "# Repository Guidelines\n" },
      }],
    },
    { text: "wrote AGENTS.md" },
  ], async (t, s, server) => {
    await t.waitFor(PROMPT);
    await t.typeLine("/status");
    const status = await t.waitFor(/transcript\s+\S+\.jsonl/);
    assert.match(status, /model\s+fixture-model \(provider fixture\)/);
    assert.match(status, /sandbox\s+workspace-write/);
    assert.match(status, /approvals\s+on-request/);
    await Deno.writeTextFile(`${s.workspace}/notes.md`, "# Notes\n- DONE: ship\n");
    await t.typeLine("/diff");
    await t.waitFor(/^\+- DONE: ship$/m);
    await t.typeLine("/model other-model");
    await t.waitFor(/model: other-model from the next request/);
    await t.typeLine("/init");
    await t.waitFor(/wrote AGENTS\.md/);
    assert.match(JSON.stringify(server.requests[0]), /Repository Guidelines/);
    assert.equal((server.requests[0] as { model: string }).model, "other-model");
    assert.equal(await Deno.readTextFile(`${s.workspace}/AGENTS.md`), "# Repository Guidelines\n");
    await t.typeLine("/init");
    await t.waitFor(/AGENTS\.md already exists here/);
    assert.equal(server.requests.length, 2, "the second /init sent nothing");
    // #21 item 6: /status and /context use one window; that it is assumed is said once in each.
    await t.typeLine("/status");
    await t.waitFor(
      /context used\s+\d+% \([\d,]+ of 128,000 tokens, an assumed window: set model_context_window\)/,
    );
    await t.typeLine("/context");
    const ledger = await t.waitFor(/window 128,000 tokens is assumed/);
    assert.match(ledger, /context ledger: model other-model, .* window 128,000 tokens/);
    assert.doesNotMatch(ledger, /window unknown/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, {
    setup: async (s) => {
      const git = (...args: string[]) =>
        new Deno.Command("git", {
          args,
          cwd: s.workspace,
          env: { ...s.env, PATH: Deno.env.get("PATH") ?? "" },
          clearEnv: true,
          stdout: "null",
          stderr: "null",
        }).output();
      await git("init", "-q");
      await git("-c", "user.email=t@t", "-c", "user.name=t", "add", "notes.md");
      await git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "notes");
    },
  });
});

Deno.test("interactive: /approvals and /sandbox change what the next call does, not only the label (#20 item 4)", async () => {
  await withSession([
    { tool_calls: [{ name: "shell", arguments: { command: "touch one.txt" } }] },
    { text: "did one" },
    { tool_calls: [{ name: "shell", arguments: { command: "touch two.txt" } }] },
    { text: "did two" },
    { tool_calls: [{ name: "shell", arguments: { command: "touch three.txt" } }] },
    { text: "did three" },
  ], async (t, s) => {
    await t.waitFor(PROMPT);
    // Opened under on-request: after /approvals untrusted the command asks, naming the new policy.
    await t.typeLine("/approvals untrusted");
    await t.waitFor(/approvals: untrusted from the next tool call/);
    await t.typeLine("make one");
    const asked = await t.waitFor(/\[x\] {8}no, and stop the turn/);
    const prompt = asked.slice(asked.lastIndexOf("? Approve:"));
    assert.match(prompt, /^ {2}reason {5}approval policy untrusted: command is not known to be read-only$/m);
    await t.press("y");
    await t.waitFor(/^did one$/m);
    assert.ok(await Deno.stat(`${s.workspace}/one.txt`));
    // Back to on-request: the next command runs unasked.
    await t.typeLine("/approvals on-request");
    await t.waitFor(/approvals: on-request from the next tool call/);
    await t.typeLine("make two");
    const two = await t.waitFor(/^did two$/m);
    assert.equal(two.match(/\? Approve:/g)?.length, 1, "no second question");
    assert.ok(await Deno.stat(`${s.workspace}/two.txt`));
    // /sandbox read-only: the same kind of command now runs in a read-only sandbox and cannot write.
    await t.typeLine("/sandbox read-only");
    await t.waitFor(/sandbox: read-only from the next tool call/);
    await t.typeLine("/status");
    const status = await t.waitFor(/transcript\s+\S+\.jsonl/);
    assert.match(status, /sandbox\s+read-only/);
    assert.match(status, /approvals\s+on-request/);
    await t.typeLine("make three");
    const three = await t.waitFor(/^did three$/m);
    assert.match(three, /✗ shell touch three\.txt · failed: exit 1/);
    await assert.rejects(Deno.stat(`${s.workspace}/three.txt`));
    await t.typeLine("/sandbox everything");
    await t.waitFor(/unknown sandbox mode "everything": use read-only, workspace-write, danger-full-access/);
    await t.typeLine("/sandbox danger-full-access");
    await t.waitFor(/commands now run unsandboxed and the file tools write anywhere without asking/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, { args: ["-a", "on-request", "-s", "workspace-write"] });
});
Deno.test("interactive: `yes⏎` at an approval approves once and sends nothing more; Ctrl-C at the next stops the turn (#21 items 1-2)", async () => {
  await withSession([
    { tool_calls: [{ name: "shell", arguments: { command: "touch one.txt" } }] },
    { tool_calls: [{ name: "shell", arguments: { command: "touch two.txt" } }] },
    { text: "the next turn" },
  ], async (t, s, server) => {
    await t.waitFor(PROMPT);
    await t.typeLine("make the files");
    await t.waitFor(/command {4}touch one\.txt/);
    await t.waitFor(/Approve\?/);
    await t.press("y", "e", "s", "Enter"); // in one burst, as a person types a word
    await t.waitFor(/approved once/);
    await t.waitFor(/command {4}touch two\.txt/);
    // The `es⏎` went neither to the next approval (`e` is explain) nor to the prompt.
    assert.doesNotMatch(await t.screen(), /asking the model to explain|queued: es/);
    await t.press("C-c");
    await t.waitFor(/denied; the turn stops/);
    await t.waitFor(PROMPT);
    assert.equal(server.requests.length, 2, "Ctrl-C stopped the turn: the denial went to no model");
    const stopped = await t.screen();
    assert.match(stopped, /stopped: the user declined a call and stopped the turn/);
    assert.doesNotMatch(stopped, /interrupted after/, "one line says the turn stopped, not two");
    await t.typeLine("go on");
    await t.waitFor(/the next turn/);
    assert.ok(await Deno.stat(`${s.workspace}/one.txt`));
    await assert.rejects(Deno.stat(`${s.workspace}/two.txt`));
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
    assert.deepEqual(userPrompts(await transcriptLines(s)), ["make the files", "go on"]);
  }, { args: ["-a", "untrusted"] });
});

Deno.test("interactive: `maybe⏎` at a yes/no form field is refused in place and queues nothing (#21 item 1)", async () => {
  await withSession([
    { tool_calls: [{ name: "mcp__fx__ask_hostile", arguments: {} }] },
    { text: "form done" },
  ], async (t, s, server) => {
    await t.waitFor(PROMPT);
    await t.typeLine("ask me");
    await t.waitFor(/\[y\] yes \[n\] no/);
    await t.typeLine("maybe");
    await t.waitFor(/"maybe" is not an answer: press y, n/);
    assert.doesNotMatch(await t.screen(), /queued:/);
    await t.press("n");
    await t.waitFor(/Send this to fx\?/);
    await t.press("y");
    await t.waitFor(/form done/);
    assert.match(JSON.stringify(server.requests[1]), /\\"ok\\":false/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
    assert.deepEqual(userPrompts(await transcriptLines(s)), ["ask me"]);
  }, {
    setup: async (s) => {
      await Deno.writeTextFile(
        `${s.env.TRELLIS_HOME}/config.toml`,
        `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo"]\nrequired = true\n`,
      );
    },
  });
});

Deno.test("interactive: the status line shows while an MCP server starts, and Enter meanwhile queues the prompt (#21 item 21)", async () => {
  const gate = await Deno.makeTempFile({ prefix: "trellis-gate-" });
  await Deno.remove(gate);
  try {
    await withSession([{ text: "answered after start-up" }], async (t, s, server) => {
      await t.waitFor(/Starting \(\d+s · esc to interrupt\)/);
      await t.typeLine("typed during start-up");
      await t.waitFor(/queued: typed during start-up/);
      assert.equal(server.requests.length, 0, "nothing is sent before the session is open");
      await Deno.writeTextFile(gate, "");
      await t.waitFor(/answered after start-up/);
      assert.match(JSON.stringify(server.requests[0]), /typed during start-up/);
      await t.press("C-d");
      assert.equal(await t.exitCode(), 0);
      assert.deepEqual(userPrompts(await transcriptLines(s)), ["typed during start-up"]);
    }, {
      setup: async (s) => {
        await Deno.writeTextFile(
          `${s.env.TRELLIS_HOME}/config.toml`,
          `[mcp_servers.slow]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "gated", ${
            JSON.stringify(gate)
          }]\n`,
        );
      },
    });
  } finally {
    await Deno.remove(gate).catch(() => {});
  }
});

Deno.test("interactive: resume --last takes this directory's newest session; --all another's, run where it was recorded; the replay skips AGENTS.md (#21 items 3-4)", async () => {
  await withSession([{ text: "first answer" }, { text: "resumed answer" }], async (t, s, server) => {
    await t.waitFor(PROMPT);
    await t.typeLine("remember kiwi");
    await t.waitFor(/first answer/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
    const id = /trellis resume (\S+)/.exec(await t.screen())![1];
    const other = `${s.root}/other`;
    await Deno.mkdir(other);

    const none = await TmuxTerminal.start({
      cwd: other,
      env: s.env,
      args: ["resume", "--last", ...s.flags(server.url)],
    });
    try {
      assert.equal(await none.exitCode(), 2);
      assert.match(await none.screen(), /none was recorded in .*other; `trellis resume --last --all`/);
    } finally {
      await none.close();
    }

    const resumed = await TmuxTerminal.start({
      cwd: other,
      env: s.env,
      args: ["resume", "--last", "--all", ...s.flags(server.url)],
    });
    try {
      const screen = await resumed.waitFor(/continue below/);
      assert.match(screen, new RegExp(`session ${id} \\(resumed\\)`));
      assert.match(
        screen,
        new RegExp(`Continuing in ${s.workspace}, where this session was recorded \\(not ${other}\\)`),
      );
      assert.match(screen, /› remember kiwi/);
      assert.doesNotMatch(screen, /AGENTS\.md instructions/);
      await resumed.typeLine("and now?");
      await resumed.waitFor(/resumed answer/);
      await resumed.press("C-d");
      assert.equal(await resumed.exitCode(), 0);
    } finally {
      await resumed.close();
    }
    // The resumed turn ran in the recorded project: its AGENTS.md, not the other directory's.
    const request = JSON.stringify(server.requests[1]);
    assert.match(request, new RegExp(`AGENTS\\.md instructions for ${s.workspace}`));
    assert.doesNotMatch(request, new RegExp(`instructions for ${other}`));
  }, { setup: (s) => Deno.writeTextFile(`${s.workspace}/AGENTS.md`, "Answer in haiku.\n") });
});

for (const trust of [true, false]) {
  Deno.test(`interactive: an untrusted folder with .mcp.json asks once to trust it; ${trust ? "yes starts its server in this session" : "no starts the session without it"} (#21 item 5)`, async () => {
    await withSession([{ text: "hello" }], async (t, s, server) => {
      const asked = await t.waitFor(/\[y\] yes, trust it/);
      assert.match(asked, new RegExp(`\\? Trust this folder\\? ${s.workspace}`));
      assert.match(asked, /it would start the MCP servers in \.mcp\.json/);
      await t.press(trust ? "y" : "n");
      await t.waitFor(
        trust ? /✓ trusted \(recorded in .*config\.toml\)/ : /not trusted: the session starts without them/,
      );
      await t.waitFor(PROMPT);
      await t.typeLine("hi");
      await t.waitFor(/hello/);
      const tools = JSON.stringify(server.requests[0]);
      if (trust) assert.match(tools, /mcp__fx__echo/);
      else assert.doesNotMatch(tools, /mcp__fx__echo/);
      await t.press("C-d");
      assert.equal(await t.exitCode(), 0);
      const config = await Deno.readTextFile(`${s.env.TRELLIS_HOME}/config.toml`).catch(() => "");
      if (trust) assert.match(config, /trust_level = "trusted"/);
      else assert.doesNotMatch(config, /trust_level/);
    }, {
      setup: (s) =>
        Deno.writeTextFile(
          `${s.workspace}/.mcp.json`,
          JSON.stringify({ mcpServers: { fx: { command: "node", args: [FX, "echo"] } } }),
        ),
    });
  });
}
