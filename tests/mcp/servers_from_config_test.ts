import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config/mod.ts";
import { mcpServersFromConfig } from "../../lib/mcp/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { trustEntry } from "../helpers/trust_project.ts";

Deno.test("mcpServersFromConfig() merges config, trusted .mcp.json and plugin servers (MCP-1/3)", async () => {
  const { root, env } = await makeSandboxHome();
  const project = `${root}/repo`;
  await platform.fs.mkdir(`${project}/.git`);
  await platform.fs.writeTextFile(
    `${project}/.mcp.json`,
    JSON.stringify({ mcpServers: { claude: { command: "c" }, shared: { command: "from-json" } } }),
  );
  const userConfig = `${env.TRELLIS_HOME}/config.toml`;
  await platform.fs.writeTextFile(userConfig, '[mcp_servers.shared]\ncommand = "from-toml"\n');
  const pluginServers = [
    { pluginId: "p@m", pluginRoot: "/plug", name: "pl", config: { command: "${CLAUDE_PLUGIN_ROOT}/bin/s" } },
    { pluginId: "p@m", pluginRoot: "/plug", name: "broken", config: { command: "x", url: "y" } },
  ];
  const load = () => loadConfig(platform.fs, { cwd: project, env: (n) => env[n] });
  const untrusted = mcpServersFromConfig(await load(), { platform, pluginServers });
  assert.deepStrictEqual(untrusted.catalog.servers.map((s) => [s.config.name, s.tier, s.source]), [
    ["pl", "plugin", "plugin:p@m"],
    ["shared", "config", userConfig],
  ]);
  // Issue #13: the untrusted project's .mcp.json is skipped with a note naming the command, not silently.
  assert.deepStrictEqual(untrusted.diagnostics.map((d) => [d.level, d.message]), [
    [
      "error",
      'Cannot load MCP server "broken" from plugin p@m: .mcp.json: url: url is not supported for stdio',
    ],
    [
      "info",
      `Skipped ${project}/.mcp.json: this project is not trusted (run \`trellis project trust\` to start its MCP servers)`,
    ],
  ]);
  await platform.fs.writeTextFile(
    userConfig,
    `[mcp_servers.shared]\ncommand = "from-toml"\n\n${trustEntry(project)}`,
  );
  const trusted = mcpServersFromConfig(await load(), {
    platform,
    pluginServers: pluginServers.slice(0, 1),
  });
  assert.deepStrictEqual(trusted.catalog.servers.map((s) => [s.config.name, s.source]), [
    ["claude", `${project}/.mcp.json`],
    ["pl", "plugin:p@m"],
    ["shared", userConfig],
  ]);
  assert.deepStrictEqual(trusted.catalog.servers[1].config.transport, {
    type: "stdio",
    command: "/plug/bin/s",
    args: [],
    env: {},
    envVars: [],
    cwd: "/plug",
  });
  assert.deepStrictEqual(trusted.catalog.conflicts, [{
    server: "shared",
    outcome: userConfig,
    contenders: [`${project}/.mcp.json`, userConfig],
  }]);
});

Deno.test("mcp_tool_pinning: block for project and plugin servers, warn for the user's; a project cannot lower it (#17)", async () => {
  const { root, env } = await makeSandboxHome();
  const project = `${root}/repo`;
  await platform.fs.mkdir(`${project}/.git`);
  await platform.fs.mkdir(`${project}/.trellis`);
  await platform.fs.writeTextFile(
    `${project}/.mcp.json`,
    JSON.stringify({ mcpServers: { fromjson: { command: "c" } } }),
  );
  const projectConfig = `${project}/.trellis/config.toml`;
  await platform.fs.writeTextFile(
    projectConfig,
    'mcp_tool_pinning = "off"\n[mcp_servers.fromproject]\ncommand = "p"\nmcp_tool_pinning = "off"\n',
  );
  const userConfig = `${env.TRELLIS_HOME}/config.toml`;
  const trust = trustEntry(project);
  await platform.fs.writeTextFile(userConfig, `[mcp_servers.mine]\ncommand = "m"\n\n${trust}`);
  const pluginServers = [{
    pluginId: "p@m",
    pluginRoot: "/plug",
    name: "pl",
    config: { command: "s", mcp_tool_pinning: "off" },
  }];
  const modes = async (overrides: string[] = []) => {
    const loaded = await loadConfig(platform.fs, { cwd: project, env: (n) => env[n], overrides });
    const { catalog, diagnostics } = mcpServersFromConfig(loaded, { platform, pluginServers });
    return {
      modes: Object.fromEntries(
        catalog.servers.map((s) => [s.config.name, [s.scope, s.config.toolPinning]]),
      ),
      warnings: diagnostics.filter((d) => d.level === "warning").map((d) => d.message),
    };
  };
  const defaults = await modes();
  assert.deepStrictEqual(defaults.modes, {
    fromjson: ["project", "block"],
    fromproject: ["project", "block"],
    mine: ["user", "warn"],
    pl: ["plugin", "block"],
  });
  assert.deepStrictEqual(defaults.warnings, [
    `Ignored mcp_tool_pinning in ${projectConfig}: only your own config ($TRELLIS_HOME/config.toml, /etc/trellis, -c) may set it`,
  ]);
  await platform.fs.writeTextFile(
    userConfig,
    `mcp_tool_pinning = "block"\n[mcp_servers.mine]\ncommand = "m"\nmcp_tool_pinning = "off"\n\n${trust}`,
  );
  assert.deepStrictEqual((await modes()).modes, {
    fromjson: ["project", "block"],
    fromproject: ["project", "block"],
    mine: ["user", "off"],
    pl: ["plugin", "block"],
  });
  assert.deepStrictEqual((await modes(['mcp_tool_pinning="warn"'])).modes, {
    fromjson: ["project", "warn"],
    fromproject: ["project", "warn"],
    mine: ["user", "off"],
    pl: ["plugin", "warn"],
  });
});
