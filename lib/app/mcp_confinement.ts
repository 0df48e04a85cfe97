import * as path from "node:path";
import { type LoadedConfig, userProtectedPaths } from "../config/mod.ts";
import type { McpSandbox, McpServerConfig, ServerConfinement } from "../mcp/mod.ts";
import {
  detectSandbox,
  type Platform,
  sandboxArgv,
  SandboxProfileError,
  type SandboxStatus,
} from "../platform/mod.ts";
import { memo, UsageError } from "../shared/mod.ts";
import { confinedPolicy, type Confinement, resolvePermissionProfile } from "../tools/mod.ts";

/**
 * Builds the argv of a stdio MCP server that asks for `sandbox = "read-only" | "workspace-write"`
 * (#17 item 2): the shell tool's hardened bwrap profile (the same policy function and builder: no
 * capabilities, own user and pid namespace, new session, dies with Trellis, protected paths,
 * masked host sockets and `$TRELLIS_HOME` secrets), with
 * - read-only: nothing writable but `sandbox_writable`;
 * - workspace-write: the workspace and `sandbox_writable` (`.git`, `.trellis`, … stay read-only);
 * - the network only with `sandbox_network = true`;
 * - the server's install directory (its command's directory, a plugin's root) and cwd never masked.
 * A server that cannot be confined here is never started unconfined: the UsageError names it.
 */
export function mcpConfinement(
  platform: Platform,
  loaded: LoadedConfig,
  options: { sandbox?: () => Promise<SandboxStatus> } = {},
): ServerConfinement {
  const status = memo(() =>
    options.sandbox?.() ??
      detectSandbox(platform, { cacheFile: path.join(loaded.paths.home, "cache", "sandbox.json") })
  );
  const profile = memo(() =>
    resolvePermissionProfile(loaded.config, loaded.paths.cwd, {
      fs: platform.fs,
      tempDir: platform.tempDir(),
      trellisHome: loaded.paths.home,
      protectedPaths: userProtectedPaths(loaded.paths),
    })
  );
  // One warning per server and path, however often the server is (re)started.
  const warned = new Set<string>();
  return async (server, argv, cwd, warn) => {
    const sandbox = server.sandbox;
    if (!sandbox) return argv;
    const name = server.name;
    const runtime = await status();
    if (!runtime.available) {
      throw new UsageError(
        `MCP server "${name}" asks for sandbox = "${sandbox.mode}", but no sandbox is available here ` +
          `(${runtime.reason}); it was not started (install bubblewrap, or set sandbox = "none" to run it unconfined)`,
        { server: name, field: "sandbox" },
        "mcp_config",
      );
    }
    const session = await profile();
    const realCwd = await existingDir(platform, name, cwd, "cwd");
    const resolved = await Promise.all(
      sandbox.writable.map(async (entry) => ({
        entry,
        dir: await existingDir(
          platform,
          name,
          resolveEntry(platform, entry, realCwd),
          "sandbox_writable",
          entry,
        ),
      })),
    );
    const limits = sandbox.writableClamp
      ? await clampRoots(platform, session.workspace, sandbox.writableClamp)
      : [];
    const writable: string[] = [];
    for (const { entry, dir } of resolved) {
      if (!sandbox.writableClamp || limits.some((root) => within(root, dir))) {
        writable.push(dir);
        continue;
      }
      const key = `${name}\0${dir}`;
      if (warned.has(key)) continue;
      warned.add(key);
      warn(clampWarning(name, entry, dir, sandbox.writableClamp));
    }
    const confinement: Confinement = {
      mode: sandbox.mode,
      writableRoots: sandbox.mode === "workspace-write" ? [session.workspace, ...writable] : writable,
      networkAccess: sandbox.network,
      readableRoots: [
        ...await installDirs(platform, server, argv[0], realCwd),
        realCwd,
      ],
    };
    const policy = confinedPolicy(session, realCwd, platform.envAll(), confinement);
    try {
      return sandboxArgv(argv, policy, runtime);
    } catch (error) {
      if (!(error instanceof SandboxProfileError)) throw error;
      throw new UsageError(
        `MCP server "${name}" cannot be confined: ${error.message}; it was not started`,
        { server: name, field: "sandbox" },
        "mcp_config",
      );
    }
  };
}

/** The real paths a project's or plugin's own `sandbox_writable` may reach: workspace, data dir. */
async function clampRoots(
  platform: Platform,
  workspace: string,
  clamp: NonNullable<McpSandbox["writableClamp"]>,
): Promise<string[]> {
  const roots = [workspace, ...(clamp.dataDir ? [clamp.dataDir] : [])];
  return await Promise.all(roots.map((root) => platform.fs.realPath(root).catch(() => root)));
}

function within(root: string, dir: string): boolean {
  return dir === root || dir.startsWith(root.endsWith("/") ? root : `${root}/`);
}

function clampWarning(
  server: string,
  entry: string,
  dir: string,
  clamp: NonNullable<McpSandbox["writableClamp"]>,
): string {
  const shown = entry === dir ? `"${entry}"` : `"${entry}" (${dir})`;
  const reach = clamp.owner === "plugin" ? "the workspace and the plugin's data directory" : "the workspace";
  return `MCP server "${server}": ignoring sandbox_writable path ${shown}: the ${clamp.owner}'s own ` +
    `profile may only make ${reach} writable; to grant it, set ${clamp.grant}`;
}

function resolveEntry(platform: Platform, entry: string, cwd: string): string {
  const home = platform.env("HOME");
  if (home && (entry === "~" || entry.startsWith("~/"))) return path.join(home, entry.slice(1));
  return path.resolve(cwd, entry);
}

/** The real path of a directory the profile names; a missing one is an error naming server and path. */
async function existingDir(
  platform: Platform,
  server: string,
  dir: string,
  field: string,
  written = dir,
): Promise<string> {
  const info = await platform.fs.stat(dir).catch(() => null);
  if (!info) {
    throw new UsageError(
      `MCP server "${server}": ${field} path "${written}"${
        written === dir ? "" : ` (${dir})`
      } does not exist; create it or change ${field}`,
      { server, field, path: dir },
      "mcp_config",
    );
  }
  return await platform.fs.realPath(dir);
}

/**
 * Where the server is installed: the directory of its command as resolved on PATH (or against its
 * cwd), and a plugin's root. Readable in the profile anyway; listed so no mask ever hides them.
 */
async function installDirs(
  platform: Platform,
  server: McpServerConfig,
  command: string,
  cwd: string,
): Promise<string[]> {
  const dirs: string[] = [];
  if (server.installRoot) {
    dirs.push(await platform.fs.realPath(server.installRoot).catch(() => server.installRoot!));
  }
  const env = server.transport.type === "stdio" ? server.transport.env : {};
  const candidates = command.includes("/")
    ? [path.resolve(cwd, command)]
    : (env.PATH ?? platform.env("PATH") ?? "").split(":").filter(Boolean).map((dir) =>
      path.join(dir, command)
    );
  for (const candidate of candidates) {
    const info = await platform.fs.stat(candidate).catch(() => null);
    if (info?.isFile) {
      dirs.push(path.dirname(await platform.fs.realPath(candidate)));
      break;
    }
  }
  return dirs;
}
