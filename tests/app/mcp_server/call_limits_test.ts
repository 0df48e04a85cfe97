import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectHttp, connectStdio, type ServerSetup, serverSetup, waitFor } from "./_harness.ts";

/**
 * A call's `sandbox`, `approval-policy`, `profile`, `cwd` and `config` may only tighten the
 * operator's settings, over stdio and over HTTP alike (#20 item 3): each looser one is a tool error
 * naming the argument, and nothing of it ran.
 */

const OPERATOR_FLAGS = ["-c", "max_steps=20"];

async function operatorSetup(): Promise<ServerSetup & { marker: string }> {
  // The first call that runs a turn (read-only) has the model try to write a file.
  const setup = await serverSetup([
    { tool_calls: [{ name: "shell", arguments: { command: "touch made.txt" } }] },
    { text: "Tried." },
  ]);
  await Deno.writeTextFile(
    `${setup.home}/config.toml`,
    '[profiles.loose]\nsandbox_mode = "danger-full-access"\n\n' +
      '[profiles.strict]\nsandbox_mode = "read-only"\napproval_policy = "untrusted"\n',
  );
  await Deno.symlink(setup.root, `${setup.workspace}/escape`);
  return { ...setup, marker: `${setup.root}/pwned` };
}

function refusedCalls(setup: ServerSetup & { marker: string }): [Record<string, unknown>, string | RegExp][] {
  const touch = `touch ${setup.marker}`;
  const ws = setup.workspace;
  return [
    [
      { sandbox: "danger-full-access" },
      '"sandbox": sandbox_mode "danger-full-access" is looser than the server\'s "workspace-write" ' +
      "(a call may only tighten it: read-only < workspace-write < danger-full-access)",
    ],
    [
      { config: { sandbox_mode: "danger-full-access" } },
      /^"config\.sandbox_mode": sandbox_mode "danger-full-access" is looser/,
    ],
    [
      { "approval-policy": "on-failure" },
      '"approval-policy": approval_policy "on-failure" is looser than the server\'s "on-request" ' +
      '(a call may only tighten it; with "on-request": untrusted, on-request, never)',
    ],
    [
      { config: { approval_policy: "on-failure" } },
      /^"config\.approval_policy": approval_policy "on-failure"/,
    ],
    [{ profile: "loose" }, /^"profile": sandbox_mode "danger-full-access" is looser/],
    [
      { cwd: setup.root },
      `"cwd": ${setup.root} is outside the server's workspace ${ws} (a call's cwd must lie inside it)`,
    ],
    // Through a link inside the workspace: the real path counts.
    [
      { cwd: "escape" },
      `"cwd": ${setup.root} is outside the server's workspace ${ws} (a call's cwd must lie inside it)`,
    ],
    [
      { config: { mcp_servers: { pwn: { command: "sh", args: ["-c", touch] } } } },
      '"config.mcp_servers": adds or changes MCP servers (programs the session starts); only the operator may ' +
      "(start the server with --allow-config-overrides to let calls set it)",
    ],
    [
      { config: { "mcp_servers.pwn.command": "sh" } },
      /^"config\.mcp_servers\.pwn\.command": adds or changes MCP/,
    ],
    [
      { config: { hooks: { SessionStart: [{ hooks: [{ type: "command", command: touch }] }] } } },
      /^"config\.hooks": adds or changes hooks \(commands the session runs\)/,
    ],
    [
      {
        config: { model_providers: { evil: { base_url: "http://127.0.0.1:9/v1" } }, model_provider: "evil" },
      },
      /^"config\.model_providers": adds or changes model providers/,
    ],
    [{ config: { model_provider: "ollama" } }, /^"config\.model_provider": changes the model provider/],
    [
      { config: { projects: { [setup.root]: { trust_level: "trusted" } } } },
      /^"config\.projects": changes project trust/,
    ],
    [
      { config: { "sandbox_workspace_write.network_access": true } },
      "\"config.sandbox_workspace_write.network_access\": turns the sandbox's network on; the server's settings keep it off",
    ],
    [
      { config: { sandbox_workspace_write: { writable_roots: ["/"] } } },
      '"config.sandbox_workspace_write.writable_roots": adds "/", which the server\'s settings do not have',
    ],
    // Caps the operator set with -c.
    [
      { config: { max_steps: 500 } },
      '"config.max_steps": the operator set max_steps with -c (20); a call cannot change it',
    ],
    [
      { model: "other-model" },
      '"model": the operator set model with -c ("fixture-model"); a call cannot change it',
    ],
  ];
}

/** Every looser call refused by name, then the neighbours that tighten (or set a harmless key) run. */
async function assertOnlyTightening(client: Client, setup: ServerSetup & { marker: string }) {
  for (const [args, expected] of refusedCalls(setup)) {
    const result = await client.callTool({ name: "trellis", arguments: { prompt: "x", ...args } });
    const text = (result.content as { text: string }[])[0].text;
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.ok(text.startsWith("Not allowed for trellis: "), text);
    const why = text.slice("Not allowed for trellis: ".length);
    if (typeof expected === "string") assert.equal(why, expected);
    else assert.match(why, expected);
  }
  assert.equal(setup.model.requests.length, 0, "no refused call reached the model");

  // A tighter sandbox and policy run, and hold: the model's `touch` fails in the read-only sandbox.
  const tight = await client.callTool({
    name: "trellis",
    arguments: { prompt: "touch it", sandbox: "read-only", "approval-policy": "never" },
  });
  assert.equal((tight.content as { text: string }[])[0].text, "Tried.");
  await assert.rejects(Deno.stat(`${setup.workspace}/made.txt`), Deno.errors.NotFound);
  // A stricter profile, a harmless key, a cap repeated at its own value, a cwd inside.
  await Deno.mkdir(`${setup.workspace}/sub`, { recursive: true });
  const fine = await client.callTool({
    name: "trellis",
    arguments: {
      prompt: "hi",
      profile: "strict",
      cwd: "sub",
      "approval-policy": "untrusted",
      config: {
        model_reasoning_effort: "low",
        max_steps: 20,
        "sandbox_workspace_write.network_access": false,
      },
    },
  });
  assert.equal(fine.isError, undefined, JSON.stringify(fine));
  const request = setup.model.requests.at(-1) as { reasoning?: unknown };
  assert.deepEqual(request.reasoning, { effort: "low", summary: "auto" });
  // Nothing a refused call carried ever ran.
  await assert.rejects(Deno.stat(setup.marker), Deno.errors.NotFound);
}

Deno.test("mcp-server (stdio): a call may only tighten the operator's sandbox, approval policy, profile, cwd and config", async () => {
  const setup = await operatorSetup();
  const { client } = await connectStdio(setup, { extra: OPERATOR_FLAGS });
  try {
    await assertOnlyTightening(client, setup);
    // A thread recorded outside the workspace is not resumed into it.
    const id = "20260101000000-deadbeef";
    await Deno.mkdir(`${setup.home}/sessions`, { recursive: true });
    await Deno.writeTextFile(
      `${setup.home}/sessions/${id}.jsonl`,
      JSON.stringify({ type: "session_meta", meta: { id, cwd: setup.root } }) + "\n",
    );
    const reply = await client.callTool({ name: "trellis-reply", arguments: { threadId: id, prompt: "x" } });
    assert.equal(reply.isError, true);
    assert.equal(
      (reply.content as { text: string }[])[0].text,
      `Cannot continue thread "${id}": it was recorded in ${setup.root}, outside the server's workspace ${setup.workspace}`,
    );
  } finally {
    await client.close();
    await setup.close();
  }
});

Deno.test("mcp-server --http: a call may only tighten the operator's settings, as over stdio", async () => {
  const setup = await operatorSetup();
  const server = await connectHttp(setup, { extra: OPERATOR_FLAGS });
  try {
    await assertOnlyTightening(server.client, setup);
  } finally {
    await server.stop();
    await setup.close();
  }
});

Deno.test("mcp-server --allow-config-overrides: a call's config may add an MCP server; a -c cap still holds", async () => {
  const setup = await serverSetup("text_reply");
  const marker = `${setup.root}/started`;
  const { client } = await connectStdio(setup, {
    extra: ["-c", 'sandbox_mode="read-only"', "--allow-config-overrides"],
  });
  try {
    for (const args of [{ sandbox: "workspace-write" }, { config: { sandbox_mode: "workspace-write" } }]) {
      const result = await client.callTool({ name: "trellis", arguments: { prompt: "x", ...args } });
      assert.match(
        (result.content as { text: string }[])[0].text,
        /^Not allowed for trellis: "(sandbox|config\.sandbox_mode)": sandbox_mode "workspace-write" is looser than the server's "read-only"/,
      );
    }
    const result = await client.callTool({
      name: "trellis",
      arguments: {
        prompt: "hi",
        config: { mcp_servers: { extra: { command: "sh", args: ["-c", `touch ${marker}`] } } },
      },
    });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    await waitFor(async () => (await Deno.stat(marker).catch(() => null)) !== null);
  } finally {
    await client.close();
    await setup.close();
  }
});
