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
const PROMPT = /^›$/m;

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
        const list = await picked.waitFor(/Resume which session\?/);
        assert.match(list, /\d{4}-\d{2}-\d{2} \d{2}:\d{2} {2}\S+workspace {2}remember the word kiwi/);
        await picked.press("Enter");
        await picked.waitFor(new RegExp(`session ${id} \\(resumed\\)`));
        await picked.typeLine("and again?");
        await picked.waitFor(/third answer/);
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

Deno.test("interactive: an approval shows the whole command and is answered in place; 'always' covers that exact command", async () => {
  const command = `touch made.txt${" ".repeat(120)}; echo tail-is-visible`;
  await withSession([
    { tool_calls: [{ name: "shell", arguments: { command } }] },
    { tool_calls: [{ name: "shell", arguments: { command } }] },
    { tool_calls: [{ name: "shell", arguments: { command: "touch other.txt" } }] },
    { text: "all done" },
  ], async (t, s) => {
    await t.waitFor(PROMPT);
    await t.typeLine("make the files");
    const asked = await t.waitFor(/\[a\] always for this exact command/);
    assert.match(asked, /shell needs approval/);
    assert.match(asked, /echo tail-is-visible/, "the end of a long command is shown");
    await t.press("a");
    await t.waitFor(/approved, always for this exact command in this session/);
    // The same command again runs without asking; another one asks.
    const second = await t.waitFor(/\$ touch other\.txt/);
    assert.equal(second.match(/needs approval/g)?.length, 2);
    await t.press("n");
    await t.waitFor(/all done/);
    assert.ok(await Deno.stat(`${s.workspace}/made.txt`));
    await assert.rejects(Deno.stat(`${s.workspace}/other.txt`));
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, { args: ["-a", "untrusted"] });
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

Deno.test("interactive: Esc ends an answer that keeps streaming; /compact states what it can do today", async () => {
  const endless = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(" ");
  await withSession([
    { text: endless, event_delay_ms: 20 },
    { text: "short answer" },
  ], async (t) => {
    await t.waitFor(PROMPT);
    await t.typeLine("talk forever");
    await t.waitFor(/word20 /);
    await t.press("Escape");
    await t.waitFor(/interrupted after/);
    await t.typeLine("/compact");
    // Compaction lands from another branch (#15 item 6); until then the command says so.
    await t.waitFor(/compaction is not available yet|conversation compacted/);
    await t.typeLine("and now?");
    await t.waitFor(/short answer/);
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
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
    assert.match(
      screen,
      /Look: \^\[\[2J\^\[\]52;c;cHduZWQ=\^G \^\[\[31mred\^\[\[0m <U\+202E>evil<U\+202C> done/,
    );
    assert.equal(await t.buffers(), "", "no OSC 52 clipboard write reached the terminal");
    const colored = await t.screen({ escapes: true });
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(colored, /\x1b\[[0-9;]*[1-9][0-9;]*m/, "no SGR colour or style codes");
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  }, { env: { NO_COLOR: "1" } });
});

Deno.test("interactive: a 5 MB paste is kept whole as one placeholder and sent whole", async () => {
  const big = "x".repeat(5 * 1024 * 1024 - 10) + "\nlast line";
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
  });
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
    await t.waitFor(/the end/);
    await t.waitFor(PROMPT);
    const visible = (await t.visible()).join("\n");
    assert.equal(visible.match(/esc to interrupt/g), null, "no status line left behind");
    const screen = await t.screen();
    assert.equal(screen.match(/w59 the end|w59\s*\n\s*\nthe end|w59/g)?.length, 1, "the answer appears once");
    await t.press("C-d");
    assert.equal(await t.exitCode(), 0);
  });
});

Deno.test("interactive: resume ids that do not exist or leave $TRELLIS_HOME/sessions are refused (exit 2)", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(`${s.root}/outside.jsonl`, "{}\n");
  for (
    const [id, message] of [
      ["20990101000000-nothere", /no such session in .*sessions/],
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
