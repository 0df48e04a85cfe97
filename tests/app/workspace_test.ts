import assert from "node:assert/strict";
import { listMcpServers, PluginAdmin, Workspace } from "../../lib/app/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { pluginSandbox } from "../plugins/_helpers.ts";

/** A platform whose environment is the sandbox's (HOME, TRELLIS_HOME), the process's otherwise. */
function sandboxPlatform(env: Record<string, string>) {
  return { ...platform, env: (name: string) => env[name] ?? platform.env(name) };
}

Deno.test("Workspace: an installed plugin's hooks, skills and MCP server show in every part, as in a session (#16 item 5, PL-11)", async () => {
  const box = await pluginSandbox();
  const p = sandboxPlatform(box.env);
  const before = await Workspace.open(p, { cwd: box.root });
  assert.equal((await before.hooks()).handlers.filter((h) => h.plugin).length, 0);
  const installed = await new PluginAdmin(before).install("demo@test");
  assert.equal(installed.id, "demo@test");

  // A new workspace sees the plugin (config was written); each part includes what it contributes.
  const ws = await Workspace.open(p, { cwd: box.root });
  const hooks = await ws.hooks();
  const pluginHooks = hooks.handlers.filter((h) => h.plugin?.pluginId === "demo@test");
  assert.deepStrictEqual(pluginHooks.map((h) => [h.event, h.matcher]), [["PreToolUse", "Bash"]]);
  const { snapshot } = await ws.skills();
  assert.ok(snapshot.skills.some((s) => s.name === "demo:hello" && s.plugin?.id === "demo@test"));
  const { servers } = await listMcpServers(ws);
  assert.deepStrictEqual(servers.map((s) => [s.name, s.plugin]), [["echo", "demo@test"]]);
  // Parts are opened once: asking again returns the same load.
  assert.equal(await ws.plugins(), await ws.plugins());
  assert.equal(await ws.hooks(), hooks);
});

Deno.test("Workspace.writeHookState trusts, disables and re-enables a hook in the user config (HK-3, #16 item 5)", async () => {
  const box = await pluginSandbox({ addMarket: false });
  await platform.fs.writeTextFile(
    `${box.env.TRELLIS_HOME}/config.toml`,
    '# mine\n[[hooks.SessionStart]]\nhooks = [{ type = "command", command = "echo hi" }]\n',
  );
  const p = sandboxPlatform(box.env);
  const open = () => Workspace.open(p, { cwd: box.root });
  const [hook] = (await (await open()).hooks()).handlers;
  assert.deepStrictEqual([hook.trust, hook.enabled], ["untrusted", true]);
  await (await open()).writeHookState([{ kind: "trust", key: hook.key, hash: hook.hash }, {
    kind: "disable",
    key: hook.key,
  }]);
  const [after] = (await (await open()).hooks()).handlers;
  assert.deepStrictEqual([after.trust, after.enabled], ["trusted", false]);
  await (await open()).writeHookState([{ kind: "enable", key: hook.key }, {
    kind: "untrust",
    key: hook.key,
  }]);
  const [back] = (await (await open()).hooks()).handlers;
  assert.deepStrictEqual([back.trust, back.enabled], ["untrusted", true]);
  assert.match(await platform.fs.readTextFile(`${box.env.TRELLIS_HOME}/config.toml`), /^# mine\n/);
});
