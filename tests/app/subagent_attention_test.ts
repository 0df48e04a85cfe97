import assert from "node:assert/strict";
import { attributedElicitation, McpCallers } from "../../lib/app/agent_attribution.ts";
import { approvalChoices, type ApprovalRequest, renderApprovalPrompt } from "../../lib/loop/mod.ts";
import { type ElicitationRequest, ttyElicitationResponder } from "../../lib/mcp/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { openFixtureSession } from "../helpers/fixture_session.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

// #22 item 3: a child's approvals and the MCP forms its calls lead to reach the parent's UI naming
// the agent (its type and id); the parent's own requests name none. Real session, real fixture
// model, a real MCP server that elicits mid-call.

const FIXTURE_MCP = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;

async function run() {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  const server = await startFixtureModelServer({
    script: {
      steps: [
        {
          tool_calls: [{
            name: "Agent",
            arguments: { subagent_type: "general-purpose", description: "write", prompt: "CHILD-W: write" },
          }],
        },
        {
          tool_calls: [
            { name: "write_file", arguments: { path: "parent.txt", content: "p" } },
            { name: "mcp__fix__ask", arguments: {} },
          ],
        },
        { text: "parent done" },
      ],
      replies: [
        {
          when_input_contains: "CHILD-W",
          tool_calls: [{ name: "write_file", arguments: { path: "child.txt", content: "c" } }],
        },
        { when_input_contains: "NO-FOR-CHILD", tool_calls: [{ name: "mcp__fix__ask", arguments: {} }] },
        { when_input_contains: "Ann-general-purpose", text: "child finished" },
      ],
    },
  });
  const approvals: ApprovalRequest[] = [];
  const forms: ElicitationRequest[] = [];
  const { session } = await openFixtureSession({
    cwd,
    env,
    url: server.url,
    overrides: [
      "tool_set=trellis",
      'agents.tool_style="claude"',
      "approval_policy=untrusted",
      'mcp_servers.fix.command="node"',
      `mcp_servers.fix.args=[${JSON.stringify(FIXTURE_MCP)}, "echo"]`,
      "mcp_servers.fix.required=true",
    ],
    session: {
      approver: {
        request: (request) => {
          approvals.push(request);
          // MCP calls are asked too under untrusted: those run, so that the server elicits.
          if (request.toolName.startsWith("mcp__")) return Promise.resolve({ decision: "approved" });
          return Promise.resolve({
            decision: "denied",
            reason: request.agent ? "NO-FOR-CHILD" : "no for the parent",
          });
        },
      },
      elicitation: {
        respond: (request) => {
          forms.push(request);
          return Promise.resolve({
            action: "accept",
            content: { name: `Ann-${request.agent?.type ?? "parent"}` },
          });
        },
      },
    },
  });
  try {
    const result = await session.runTurn({ prompt: "go", maxSteps: 6, signal: new AbortController().signal });
    assert.equal(result.status, "completed");
  } finally {
    await session.close();
    await server.close();
  }
  return { approvals, forms };
}

Deno.test("a subagent's approval names it (type and id); the parent's own names none (#22 item 3)", async () => {
  const { approvals } = await run();
  const child = approvals.find((a) => JSON.stringify(a.args).includes("child.txt"));
  const parent = approvals.find((a) => JSON.stringify(a.args).includes("parent.txt"));
  assert.ok(child && parent, `both writes were asked: ${JSON.stringify(approvals)}`);
  assert.equal(child.agent?.type, "general-purpose");
  assert.match(child.agent?.id ?? "", /-agent1$/);
  assert.equal(parent.agent, undefined);
  // What exec's terminal prompt (and the interactive mode's, and mcp-server's form) shows.
  const shown = await renderApprovalPrompt(child, approvalChoices(child), 200);
  assert.match(
    shown,
    new RegExp(`Approve: write_file \\(subagent general-purpose, ${child.agent!.id}\\) wants to`),
  );
  const own = await renderApprovalPrompt(parent, approvalChoices(parent), 200);
  assert.doesNotMatch(own, /subagent/);
});

Deno.test("an MCP form a subagent's call leads to names the agent; the parent's own call's form names none (#22 item 3)", async () => {
  const { forms } = await run();
  assert.deepStrictEqual(
    forms.map((f) => [f.server, f.agent?.type ?? null]).sort(),
    [
      ["fix", "general-purpose"],
      ["fix", null],
    ].sort(),
  );
  const child = forms.find((f) => f.agent)!;
  let written = "";
  const tty = ttyElicitationResponder({
    readLine: () => Promise.resolve(null),
    write: (text) => void (written += text),
  });
  await tty.respond(child, new AbortController().signal);
  assert.match(
    written,
    new RegExp(`MCP server 'fix' asks for subagent general-purpose \\(${child.agent!.id}\\)`),
  );
});

Deno.test("a form is named only when one subagent alone is calling its server: the parent's call or a second agent's in flight leaves it unnamed (#22 item 3)", async () => {
  const callers = new McpCallers();
  const seen: (string | null)[] = [];
  const responder = attributedElicitation({
    respond: (request) => {
      seen.push(request.agent?.id ?? null);
      return Promise.resolve({ action: "decline" });
    },
  }, callers);
  const ask = () =>
    responder.respond({ server: "fix", id: "e", mode: "form", message: "?" }, new AbortController().signal);
  const a = { id: "t-agent1", type: "reader" };
  const leaveA = callers.enter("fix", a);
  const leaveOther = callers.enter("other", { id: "t-agent2", type: "writer" });
  await ask(); // a alone calls fix (agent2 calls another server)
  const leaveParent = callers.enter("fix", null);
  await ask(); // the parent too
  leaveParent();
  const leaveB = callers.enter("fix", { id: "t-agent2", type: "writer" });
  await ask(); // two agents
  leaveB();
  await ask(); // a alone again
  leaveA();
  leaveA(); // a second call of one leave counts once
  await ask(); // nobody
  leaveOther();
  assert.deepStrictEqual(seen, ["t-agent1", null, null, "t-agent1", null]);
});
