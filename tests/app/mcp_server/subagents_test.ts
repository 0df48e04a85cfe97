import assert from "node:assert/strict";
import { connectStdio, serverSetup } from "./_harness.ts";
import { ONE_CHILD_RUNS_A_COMMAND } from "../../helpers/subagent_script.ts";

// #22 item 6: `mcp-server` shows a thread's subagents as the interactive panel does — in the
// result's structuredContent, and as progress lines while the turn runs.

Deno.test("mcp-server: a turn that ran a subagent returns it in structuredContent.subagents (type, status, last action, tokens, transcript) and says its steps as progress", async () => {
  const setup = await serverSetup(ONE_CHILD_RUNS_A_COMMAND);
  const { client } = await connectStdio(setup, { extra: ["-c", "approval_policy=never"] });
  try {
    const progress: string[] = [];
    const result = await client.callTool({ name: "trellis", arguments: { prompt: "go" } }, undefined, {
      onprogress: (p) => void progress.push(p.message ?? ""),
    });
    const structured = result.structuredContent as {
      status: string;
      subagents: Record<string, unknown>[];
    };
    assert.equal(structured.status, "completed", JSON.stringify(result));
    assert.equal(structured.subagents.length, 1);
    const [child] = structured.subagents;
    assert.deepStrictEqual(
      [child.type, child.description, child.status, child.lastAction],
      ["general-purpose", "look around", "completed", "shell: echo KESTREL"],
    );
    assert.deepStrictEqual(child.usage, {
      input_tokens: 80,
      cached_input_tokens: 0,
      output_tokens: 10,
      reasoning_output_tokens: 0,
    });
    assert.match(String(child.transcript), /-agent1\.jsonl$/);
    const agentLines = progress.filter((p) => p.startsWith("agent general-purpose"));
    assert.deepStrictEqual(agentLines, [
      "agent general-purpose started: look around",
      "agent general-purpose: shell: echo KESTREL",
      "agent general-purpose completed",
    ]);
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server: a turn with no subagent keeps Codex's result shape (no subagents field)", async () => {
  const setup = await serverSetup("two_replies");
  const { client } = await connectStdio(setup);
  try {
    const result = await client.callTool({ name: "trellis", arguments: { prompt: "say one" } });
    assert.deepStrictEqual(Object.keys(result.structuredContent as object).sort(), [
      "content",
      "status",
      "threadId",
    ]);
  } finally {
    await client.close();
    await setup.close();
  }
});
