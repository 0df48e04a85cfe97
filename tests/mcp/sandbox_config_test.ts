/**
 * Confined MCP servers (#17 item 2): where a profile comes from (config, .mcp.json-shaped plugin
 * entries, the user's plugin overrides), what `mcp_require_sandbox` refuses, the argv the shared
 * profile builder makes for a server, and the denials read from what a server prints.
 */
import assert from "node:assert/strict";
import { mcpConfinement } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { findDenials, mcpServersFromConfig } from "../../lib/mcp/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { trustEntry } from "../helpers/trust_project.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

async function load(userToml: string) {
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, userToml);
  const loaded = await loadConfig(platform.fs, { cwd: root, env: (n) => env[n] });
  return { root, env, loaded };
}

const plugin = (config: Record<string, unknown>) => ({
  pluginId: "p@m",
  pluginRoot: "/plug",
  name: "pl",
  config,
});

Deno.test("#17 item 2: a plugin declares its server's profile in its .mcp.json entry; its root is the install root", async () => {
  const { loaded } = await load("");
  const { catalog, diagnostics } = mcpServersFromConfig(loaded, {
    platform,
    pluginServers: [
      plugin({
        command: "s",
        sandbox: "read-only",
        sandbox_network: true,
        sandbox_writable: ["${PLUGIN_ROOT}/cache"],
      }),
    ],
  });
  assert.deepStrictEqual(diagnostics, []);
  const config = catalog.servers[0].config;
  assert.deepStrictEqual(config.sandbox, {
    mode: "read-only",
    network: true,
    writable: ["/plug/cache"],
    // #20 item 11: the plugin's own paths are clamped at start (workspace, data dir).
    writableClamp: {
      owner: "plugin",
      grant: '[plugins."p@m".mcp_servers.pl] sandbox_writable in your config.toml',
    },
  });
  assert.deepStrictEqual([config.installRoot, config.sandboxRefusal], ["/plug", undefined]);
});

Deno.test("#17 item 2: mcp_require_sandbox refuses an unconfined plugin server; the user's plugin override gives it a profile", async () => {
  const refused = await load("mcp_require_sandbox = true\n");
  const one = mcpServersFromConfig(refused.loaded, { platform, pluginServers: [plugin({ command: "s" })] });
  assert.match(
    one.catalog.servers[0].config.sandboxRefusal ?? "",
    /this plugin \(p@m\) server has no sandbox profile; set \[plugins\."p@m"\.mcp_servers\.pl\] sandbox in your config\.toml to "read-only" or "workspace-write"/,
  );
  const chosen = await load(
    'mcp_require_sandbox = true\n[mcp_servers.mine]\ncommand = "m"\n\n[plugins."p@m".mcp_servers.pl]\nsandbox = "workspace-write"\n',
  );
  const two = mcpServersFromConfig(chosen.loaded, { platform, pluginServers: [plugin({ command: "s" })] });
  const byName = Object.fromEntries(two.catalog.servers.map((s) => [s.config.name, s.config]));
  assert.deepStrictEqual(byName.pl.sandbox, { mode: "workspace-write", network: false, writable: [] });
  assert.deepStrictEqual(byName.pl.sandboxRefusal, undefined);
  // The user's own server is theirs to run as they like: never refused.
  assert.deepStrictEqual([byName.mine.sandbox, byName.mine.sandboxRefusal], [undefined, undefined]);
});

Deno.test("#17 item 2 bad input: sandbox on a remote server, or an unknown mode in a plugin entry, names the field", async () => {
  const { loaded } = await load("");
  const read = mcpServersFromConfig(loaded, {
    platform,
    pluginServers: [plugin({ url: "https://h/mcp", sandbox: "read-only" }), {
      ...plugin({ command: "s", sandbox: "jail" }),
      name: "p2",
    }],
  });
  assert.deepStrictEqual(read.catalog.servers, []);
  assert.deepStrictEqual(read.diagnostics.map((d) => d.message), [
    'Cannot load MCP server "pl" from plugin p@m: .mcp.json: sandbox: sandbox is not supported for streamable_http',
    'Cannot load MCP server "p2" from plugin p@m: .mcp.json: sandbox: Invalid option: expected one of "none"|"read-only"|"workspace-write"',
  ]);
});

Deno.test("#17 item 2: a server's argv is the shell tool's hardened profile: no capabilities, own namespaces, secrets masked", async () => {
  const { root, env, loaded } = await load("");
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, "# secret\n");
  const { catalog } = mcpServersFromConfig(loaded, {
    platform,
    pluginServers: [plugin({ command: "/bin/sh", sandbox: "workspace-write", sandbox_writable: [root] })],
  });
  const confine = mcpConfinement(platform, loaded);
  const argv = await confine(catalog.servers[0].config, ["/bin/sh", "-c", "true"], root, () => {});
  const joined = argv.join(" ");
  for (
    const flag of ["--cap-drop ALL", "--unshare-pid", "--die-with-parent", "--new-session", "--unshare-net"]
  ) {
    assert.ok(joined.includes(flag), `${flag} in ${joined}`);
  }
  assert.ok(joined.includes(`--bind ${root} ${root}`));
  assert.ok(joined.includes(`--ro-bind /dev/null ${env.TRELLIS_HOME}/config.toml`), joined);
  assert.deepStrictEqual(argv.slice(-6), ["--chdir", root, "--", "/bin/sh", "-c", "true"]);
});

Deno.test("#17 item 2: denials are read from Node, Python and shell messages; network ones only when it is off", () => {
  const text = [
    "Error: EACCES: permission denied, mkdir '/home/u/.cache/x'",
    "OSError: [Errno 30] Read-only file system: '/srv/data/out.json'",
    "sh: /ws/log.txt: Read-only file system",
    "Error: getaddrinfo EAI_AGAIN api.github.com",
    "ordinary line without a path: Permission denied",
    "Error: EACCES: permission denied, mkdir '/home/u/.cache/x'",
  ].join("\n");
  assert.deepStrictEqual(
    findDenials(text, { networkOff: true }).map((d) => [d.kind, d.code, "path" in d ? d.path : ""]),
    [
      ["file", "EACCES", "/home/u/.cache/x"],
      ["file", "EROFS", "/srv/data/out.json"],
      ["file", "EROFS", "/ws/log.txt"],
      ["network", "EAI_AGAIN", ""],
    ],
  );
  assert.deepStrictEqual(findDenials(text, { networkOff: false }).length, 3);
});

Deno.test("#17 item 2: a trusted project's [plugins.*.mcp_servers] cannot widen the profile (or approvals) the user set for a plugin server", async () => {
  const { root, env } = await makeSandboxHome();
  const project = `${root}/repo`;
  await platform.fs.mkdir(`${project}/.git`);
  await platform.fs.mkdir(`${project}/.trellis`);
  const projectConfig = `${project}/.trellis/config.toml`;
  await platform.fs.writeTextFile(
    projectConfig,
    '[plugins."p@m".mcp_servers.pl]\nsandbox = "workspace-write"\nsandbox_network = true\nsandbox_writable = ["/"]\n' +
      'default_tools_approval_mode = "approve"\n',
  );
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    `[plugins."p@m".mcp_servers.pl]\nsandbox = "read-only"\n\n${trustEntry(project)}`,
  );
  const loaded = await loadConfig(platform.fs, { cwd: project, env: (n) => env[n] });
  const { catalog, diagnostics } = mcpServersFromConfig(loaded, {
    platform,
    pluginServers: [plugin({ command: "s" })],
  });
  const config = catalog.servers[0].config;
  assert.deepStrictEqual(config.sandbox, { mode: "read-only", network: false, writable: [] });
  assert.deepStrictEqual(config.defaultApprovalMode, "auto");
  assert.deepStrictEqual(diagnostics.map((d) => [d.level, d.message]), [[
    "warning",
    `Ignored [plugins."p@m".mcp_servers] in ${projectConfig}: only your own config ($TRELLIS_HOME/config.toml, /etc/trellis, -c) may override a plugin's MCP servers`,
  ]]);
});
