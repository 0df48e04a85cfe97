import assert from "node:assert/strict";
import { connectStdio, serverSetup, transcript } from "./_harness.ts";

/**
 * Approvals and MCP elicitations of a served thread become `elicitation/create` requests to the
 * calling client (#17 item 4): form mode, the whole request in the message; accept runs, decline
 * denies, and a client without the elicitation capability is never asked.
 */

const FX = new URL("../../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

function outputsOf(lines: Record<string, any>[]): string[] {
  return lines.filter((l) => l.type === "item" && l.item.type === "function_call_output").map((l) =>
    l.item.output
  );
}

Deno.test("mcp-server: an approval is a form elicitation showing the whole request; accept runs the command", async () => {
  const setup = await serverSetup("shell_touch");
  const asked: Record<string, unknown>[] = [];
  const { client } = await connectStdio(setup, {
    elicit: (params) => {
      asked.push(params);
      return { action: "accept", content: {} };
    },
  });
  try {
    const result = await client.callTool({
      name: "trellis",
      arguments: { prompt: "touch it", "approval-policy": "untrusted", sandbox: "workspace-write" },
    });
    assert.equal((result.content as { text: string }[])[0].text, "Touched it.");
    assert.equal(await exists(`${setup.workspace}/approved.txt`), true);
    assert.equal(asked.length, 1);
    const { message, requestedSchema, mode } = asked[0] as Record<string, any>;
    assert.equal(mode, "form");
    const scope = `this exact command (in ${setup.workspace}, inside the sandbox)`;
    assert.equal(
      message,
      [
        "Approve: shell wants to run a command inside the sandbox",
        "  command    touch approved.txt",
        `  in         ${setup.workspace}`,
        "  runs       inside the sandbox: its limits still apply; approving does not lift them",
        "  reason     approval policy untrusted: command is not known to be read-only",
        "  [accept]   yes, once",
        `  [remember] accept with remember: don't ask again this session for ${scope}`,
        "  [decline]  no: tell the model it was denied",
      ].join("\n"),
    );
    assert.deepEqual(requestedSchema, {
      type: "object",
      properties: {
        remember: {
          type: "boolean",
          title: "Don't ask again this session",
          description: `don't ask again this session for ${scope}`,
          default: false,
        },
      },
    });
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server: a declined approval denies the call and tells the model", async () => {
  const setup = await serverSetup("shell_touch");
  const { client } = await connectStdio(setup, { elicit: () => ({ action: "decline" }) });
  try {
    const result = await client.callTool({
      name: "trellis",
      arguments: { prompt: "touch it", "approval-policy": "untrusted" },
    });
    const threadId = (result.structuredContent as { threadId: string }).threadId;
    assert.equal(await exists(`${setup.workspace}/approved.txt`), false);
    assert.deepEqual(outputsOf(await transcript(setup, threadId)).map((o) => o.split(" (")[0]), [
      "denied: the user declined",
    ]);
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server: without the elicitation capability an approval is denied by policy, never asked", async () => {
  const setup = await serverSetup("shell_touch");
  const { client } = await connectStdio(setup);
  try {
    const result = await client.callTool({
      name: "trellis",
      arguments: { prompt: "touch it", "approval-policy": "untrusted" },
    });
    const threadId = (result.structuredContent as { threadId: string }).threadId;
    assert.equal(await exists(`${setup.workspace}/approved.txt`), false);
    const [output] = outputsOf(await transcript(setup, threadId));
    assert.match(
      output,
      /^denied: approval required \(.+\) but the MCP client cannot be asked: it did not declare/,
    );
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server: accepting with remember approves the exact command for the rest of the session", async () => {
  const setup = await serverSetup("shell_touch_twice");
  let asked = 0;
  const { client } = await connectStdio(setup, {
    elicit: () => {
      asked++;
      return { action: "accept", content: { remember: true } };
    },
  });
  try {
    const result = await client.callTool({
      name: "trellis",
      arguments: { prompt: "touch it twice", "approval-policy": "untrusted" },
    });
    assert.equal((result.content as { text: string }[])[0].text, "Touched it twice.");
    assert.equal(asked, 1);
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server: an MCP server's elicitation is forwarded to the client and its answer returned", async () => {
  const setup = await serverSetup([{ tool_calls: [{ name: "mcp__fx__ask", arguments: {} }] }, {
    text: "asked",
  }]);
  await Deno.writeTextFile(
    `${setup.home}/config.toml`,
    `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo"]\nrequired = true\n`,
  );
  const asked: Record<string, any>[] = [];
  const { client } = await connectStdio(setup, {
    elicit: (params) => {
      asked.push(params);
      return { action: "accept", content: { name: "Ada" } };
    },
  });
  try {
    const result = await client.callTool({ name: "trellis", arguments: { prompt: "ask" } });
    const threadId = (result.structuredContent as { threadId: string }).threadId;
    assert.equal(asked.length, 1);
    assert.equal(asked[0].message, 'MCP server "fx" asks: Who are you?');
    assert.deepEqual(asked[0].requestedSchema, {
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    });
    assert.deepEqual(outputsOf(await transcript(setup, threadId)), [
      '{"action":"accept","content":{"name":"Ada"}}',
    ]);
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server: an MCP server's elicitation is declined when the client cannot elicit", async () => {
  const setup = await serverSetup([{ tool_calls: [{ name: "mcp__fx__ask", arguments: {} }] }, {
    text: "asked",
  }]);
  await Deno.writeTextFile(
    `${setup.home}/config.toml`,
    `[mcp_servers.fx]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo"]\nrequired = true\n`,
  );
  const { client } = await connectStdio(setup);
  try {
    const result = await client.callTool({ name: "trellis", arguments: { prompt: "ask" } });
    const threadId = (result.structuredContent as { threadId: string }).threadId;
    assert.deepEqual(outputsOf(await transcript(setup, threadId)), ['{"action":"decline"}']);
  } finally {
    await client.close();
    await setup.close();
  }
});
