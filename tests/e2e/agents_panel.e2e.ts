/**
 * #22 item 6 through a real terminal: while a subagent runs, the live region counts it; Ctrl-O
 * expands the panel to a row a child (type, state, latest tool call, tokens); after the turn
 * `/agents` lists the session's children and `/agents 1` opens one's transcript — trellis in
 * tmux against the real fixture model.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { e2eSetup } from "./_setup.ts";
import { TmuxTerminal } from "./_tmux.ts";

const PROMPT = /^›$/m;

Deno.test("interactive: a running subagent shows in the live panel, Ctrl-O expands it to its latest tool call; /agents lists it and /agents 1 opens its transcript", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({
    script: {
      steps: [
        {
          tool_calls: [{
            name: "Agent",
            arguments: { subagent_type: "general-purpose", description: "wait a bit", prompt: "CHILD-1 go" },
          }],
        },
        { text: "all done" },
      ],
      replies: [
        { when_input_contains: "CHILD-ANSWER", text: "all done" },
        { when_input_contains: "function_call_output", text: "CHILD-ANSWER after KESTREL" },
        {
          when_input_contains: "CHILD-",
          tool_calls: [{ name: "shell", arguments: { command: "sleep 4; echo KESTREL" } }],
        },
      ],
    },
  });
  const t = await TmuxTerminal.start({
    cwd: s.workspace,
    env: s.env,
    args: [...s.flags(server.url), "-c", "approval_policy=never"],
  });
  try {
    await t.waitFor(PROMPT);
    await t.typeLine("look around");
    const collapsed = await t.waitFor(/agents: 1 running · ctrl-o to expand/);
    assert.doesNotMatch(collapsed, /general-purpose · running/);
    await t.press("C-o");
    const expanded = await t.waitFor(/general-purpose · running · shell: sleep 4; echo KESTREL/);
    assert.match(expanded, /ctrl-o to collapse/);
    await t.waitFor(/all done/);
    await t.typeLine("/agents");
    await t.waitFor(
      /Subagents \(1\)\n\s+1\. general-purpose · completed · shell: sleep 4; echo KESTREL · [\d.]+k? tokens/,
    );
    await t.typeLine("/agents 1");
    const opened = await t.waitFor(/CHILD-ANSWER after KESTREL/);
    assert.match(opened, /transcript \S+-agent1\.jsonl/);
    assert.match(opened, /› CHILD-1 go/);
    assert.match(opened, /→ shell \{"command":"sleep 4; echo KESTREL"\}\n(\s+.*\n)*\s+KESTREL\n/);
    await t.typeLine("/agents 7");
    await t.waitFor(/No subagent 7 in this session: \/agents lists 1/);
  } finally {
    await t.close();
    await server.close();
  }
});
