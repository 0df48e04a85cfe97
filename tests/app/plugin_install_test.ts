import assert from "node:assert/strict";
import { Session, Workspace } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { type Platform, platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { call, say, scriptedModel } from "../loop/_fakes.ts";

const FX = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;

async function marketWithEchoPlugin(root: string): Promise<string> {
  const market = `${root}/market`;
  await platform.fs.mkdir(`${market}/.agents/plugins`);
  await platform.fs.mkdir(`${market}/plugins/echoer/.codex-plugin`);
  await platform.fs.writeTextFile(
    `${market}/.agents/plugins/marketplace.json`,
    JSON.stringify({ name: "test", plugins: [{ name: "echoer", source: "./plugins/echoer" }] }),
  );
  await platform.fs.writeTextFile(
    `${market}/plugins/echoer/.codex-plugin/plugin.json`,
    JSON.stringify({ name: "echoer", version: "1.0.0", description: "Echoes" }),
  );
  await platform.fs.writeTextFile(
    `${market}/plugins/echoer/.mcp.json`,
    JSON.stringify({ mcpServers: { echoer: { command: "node", args: [FX, "echo"] } } }),
  );
  return market;
}

Deno.test("PL-11/PL-13 a plugin installed by request_plugin_install contributes its MCP tools from the next step", async () => {
  const { root, env } = await makeSandboxHome();
  const market = await marketWithEchoPlugin(root);
  const added = await runCliCaptured(["plugin", "marketplace", "add", market], { env, cwd: root });
  assert.equal(added.code, 0, added.stderr);
  // A generous grace: the step after the install waits for the plugin's server, even on a busy machine.
  const loaded = await loadConfig(platform.fs, {
    cwd: root,
    env: (name) => env[name],
    overrides: ["mcp_startup_grace_sec=60"],
  });
  const model = scriptedModel([
    [call("request_plugin_install", {
      tool_id: "echoer@test",
      tool_type: "plugin",
      suggest_reason: "need echo",
    }, "i")],
    [call("mcp__echoer__echo", { text: "installed" }, "e")],
    [say("done")],
  ]);
  const asked: string[] = [];
  const events: TrellisEventBody[] = [];
  const session = await Session.open({
    platform,
    loaded,
    events: (e) => events.push(e),
    model,
    approver: {
      request: (r) => {
        asked.push(r.reason);
        return Promise.resolve({ decision: "approved" });
      },
    },
  });
  try {
    const result = await session.runTurn({ prompt: "go", maxSteps: 5, signal: new AbortController().signal });
    assert.equal(result.status, "completed", result.error?.message);
  } finally {
    await session.close();
  }
  const declared = model.requests.map((r) => r.tools.map((t) => t.name));
  assert.ok(declared[0].includes("request_plugin_install"));
  assert.ok(!declared[0].includes("mcp__echoer__echo"));
  assert.ok(
    declared[1].includes("mcp__echoer__echo"),
    JSON.stringify([
      model.requests[1].input.at(-1),
      events.filter((e) => e.type === "warning" || e.type.startsWith("mcp") || e.type.startsWith("plugin")),
    ]),
  );
  assert.equal(asked.length, 1);
  assert.match(asked[0], /echoer@test/);
  const outputs = model.requests[2].input.flatMap((i) =>
    i.type === "function_call_output" ? [[i.callId, i.output]] : []
  );
  assert.equal(outputs.find(([id]) => id === "e")?.[1], "installed");
  assert.ok(events.some((e) => e.type === "plugin.changed"));
});

Deno.test("#26 item 2 / PL-11: two sessions of one Workspace share its plugin load; one installs, the other sees it from its next turn", async () => {
  const { root, env } = await makeSandboxHome();
  const market = await marketWithEchoPlugin(root);
  const added = await runCliCaptured(["plugin", "marketplace", "add", market], { env, cwd: root });
  assert.equal(added.code, 0, added.stderr);
  const own: Platform = {
    ...platform,
    env: (name) => env[name],
    envAll: () => ({ ...env }),
    cwd: () => root,
  };
  const ws = await Workspace.open(own, { cwd: root, overrides: ["mcp_startup_grace_sec=60"] });
  const approver = { request: () => Promise.resolve({ decision: "approved" as const }) };
  const installer = scriptedModel([
    [call(
      "request_plugin_install",
      { tool_id: "echoer@test", tool_type: "plugin", suggest_reason: "echo" },
      "i",
    )],
    [say("installed")],
  ]);
  const watcher = scriptedModel([[say("before")], [say("after")]]);
  const eventsB: TrellisEventBody[] = [];
  const a = await ws.openSession({ events: () => {}, model: installer, approver });
  const b = await ws.openSession({ events: (e) => eventsB.push(e), model: watcher, approver });
  const go = (s: Session) => s.runTurn({ prompt: "go", maxSteps: 5, signal: new AbortController().signal });
  try {
    assert.equal((await go(b)).status, "completed");
    assert.equal((await go(a)).status, "completed");
    assert.equal((await go(b)).status, "completed");
  } finally {
    await a.close();
    await b.close();
  }
  const declared = watcher.requests.map((r) => r.tools.map((t) => t.name));
  assert.ok(!declared[0].includes("mcp__echoer__echo"), "not there before the install");
  assert.ok(
    declared[1].includes("mcp__echoer__echo"),
    "the other session's install shows from its next turn",
  );
  assert.ok(eventsB.some((e) => e.type === "plugin.changed"));
});
