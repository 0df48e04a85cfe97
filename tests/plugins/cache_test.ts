import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import {
  listInstallCandidates,
  PluginCache,
  type PluginLoadResult,
  type PluginSetChange,
  readDeclined,
  requestPluginInstallTool,
  storeLayout,
} from "../../lib/plugins/mod.ts";
import type { ToolRunContext } from "../../lib/shared/mod.ts";
import { pluginSandbox } from "./_helpers.ts";

const runCtx: ToolRunContext = {
  callId: "c1",
  cwd: "/",
  signal: new AbortController().signal,
  emit: () => {},
  escalated: false,
};

Deno.test("PluginCache.get() serves one load to concurrent steps and reports a change after invalidate (PL-11)", async () => {
  const box = await pluginSandbox();
  const cache = new PluginCache({ platform });
  const changes: PluginSetChange[] = [];
  cache.onChange((change) => changes.push(change));
  const loaded = await box.config();
  const [a, b] = await Promise.all([cache.get(loaded), cache.get(loaded)]);
  assert.equal(a, b);
  // An install between two steps of one turn: step 1's snapshot stays as it was.
  assert.equal((await box.cli("plugin", "install", "demo@test")).code, 0);
  cache.invalidate();
  const step2 = await cache.get(await box.config());
  assert.deepStrictEqual(a.contributions.summaries, []);
  assert.deepStrictEqual(step2.contributions.summaries.map((s) => s.pluginId), ["demo@test"]);
  assert.equal(changes.length, 1);
  assert.deepStrictEqual(changes[0].previous, []);
  assert.match(changes[0].current[0], /^demo@test@1\.0\.0#sha256:/);
  assert.equal(await cache.get(await box.config()), step2);
  assert.equal(changes.length, 1, "same set: no second change");
});

Deno.test("PluginCache.get() never stores a load that started before invalidate()", async () => {
  let loads = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const empty = (): PluginLoadResult => ({
    plugins: [],
    contributions: {
      skillRoots: [],
      commandRoots: [],
      agents: [],
      mcpServers: [],
      hookSources: [],
      summaries: [],
    },
    diagnostics: [],
  });
  const cache = new PluginCache({
    platform,
    load: async () => {
      loads++;
      if (loads === 1) await gate;
      return empty();
    },
  });
  const box = await pluginSandbox({ addMarket: false });
  const loaded = await box.config();
  const first = cache.get(loaded);
  await new Promise((r) => setTimeout(r, 0));
  cache.invalidate();
  release();
  await first;
  await cache.get(loaded);
  assert.equal(loads, 2);
});

Deno.test("requestPluginInstallTool() is null without candidates and validates before asking (PL-13)", async () => {
  const box = await pluginSandbox({ addMarket: false });
  const loaded = await box.config();
  const none = requestPluginInstallTool({
    platform,
    loaded,
    candidates: [],
    confirm: () => Promise.resolve(true),
    onInstalled() {},
  });
  assert.equal(none, null);
  const box2 = await pluginSandbox();
  const loaded2 = await box2.config();
  const candidates = await listInstallCandidates({ platform, loaded: loaded2 });
  assert.deepStrictEqual(candidates.map((c) => c.id), [
    "demo@test",
    "claude-demo@test",
    "misnamed@test",
    "badversion@test",
  ]);
  let asked = 0;
  const tool = requestPluginInstallTool({
    platform,
    loaded: loaded2,
    candidates,
    confirm: () => Promise.resolve(++asked > 0 && false),
    onInstalled() {},
  })!;
  assert.throws(() =>
    tool.parseArguments({ tool_id: "demo@test", tool_type: "connector", suggest_reason: "x" })
  );
  assert.throws(() =>
    tool.parseArguments({ tool_id: "demo@test", tool_type: "plugin", suggest_reason: "  " })
  );
  const unknown = await tool.run(
    tool.parseArguments({ tool_id: "nope@test", tool_type: "plugin", suggest_reason: "x" }),
    runCtx,
  );
  assert.deepStrictEqual(unknown, {
    output: '{"completed":false,"error":"\\"nope@test\\" is not an installable candidate"}',
    status: "error",
  });
  assert.equal(asked, 0);
  const declined = await tool.run(
    tool.parseArguments({ tool_id: "demo@test", tool_type: "plugin", suggest_reason: "greets" }),
    runCtx,
  );
  assert.deepStrictEqual(declined, { output: '{"completed":false,"declined":true}', status: "success" });
  assert.deepStrictEqual(readDeclined(platform.fs, storeLayout(box2.env.TRELLIS_HOME)), ["demo@test"]);
  assert.deepStrictEqual((await listInstallCandidates({ platform, loaded: loaded2 })).map((c) => c.id), [
    "claude-demo@test",
    "misnamed@test",
    "badversion@test",
  ]);
});

Deno.test("request_plugin_install installs, verifies, then calls onInstalled; a failed install reports completed:false", async () => {
  const box = await pluginSandbox();
  const loaded = await box.config();
  const installed: string[] = [];
  const tool = requestPluginInstallTool({
    platform,
    loaded,
    candidates: await listInstallCandidates({ platform, loaded }),
    confirm: ({ reason }) => Promise.resolve(reason === "greets"),
    onInstalled: ({ pluginId, version }) => installed.push(`${pluginId} ${version}`),
  })!;
  const ok = await tool.run({ tool_id: "demo@test", tool_type: "plugin", suggest_reason: "greets" }, runCtx);
  assert.deepStrictEqual(ok, {
    output: '{"completed":true,"plugin":"demo@test","version":"1.0.0"}',
    status: "success",
  });
  assert.deepStrictEqual(installed, ["demo@test 1.0.0"]);
  const bad = await tool.run(
    { tool_id: "misnamed@test", tool_type: "plugin", suggest_reason: "greets" },
    runCtx,
  );
  assert.equal(bad.status, "error");
  assert.match(bad.output, /"completed":false.*does not match marketplace plugin name/);
  assert.deepStrictEqual(installed, ["demo@test 1.0.0"]);
});
