import * as path from "node:path";
import { checkServerSandbox, type Denial, type McpSandbox, type SandboxCheckReport } from "../mcp/mod.ts";
import { canonicalPath, type Platform, PROTECTED_NAMES } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import { mcpConfinement } from "./mcp_confinement.ts";
import type { Workspace } from "./workspace.ts";

export interface McpSandboxCheckOptions {
  workspace: Workspace;
  server: string;
  /** Try this profile instead of the configured one (`--sandbox`, `--network`, `--writable`). */
  profile?: Partial<McpSandbox>;
  call?: { tool: string; args: Record<string, unknown> };
  warn(message: string): void;
}

/** A denial with what would lift it, for a person choosing a profile. */
export type ExplainedDenial = Denial & { fix: string };

export interface McpSandboxCheck {
  report: SandboxCheckReport;
  /** Where the profile came from: the config, the command line, or the read-only default. */
  profileSource: "config" | "command line" | "default";
  denials: ExplainedDenial[];
}

/**
 * `trellis mcp sandbox-check NAME` (#17 item 2): the server as the catalog resolves it, started
 * under its profile (or the one given, or read-only when it has none), with each denial explained.
 * `mcp_require_sandbox` does not stop the check: finding a profile is what it is for.
 */
export async function mcpSandboxCheck(options: McpSandboxCheckOptions): Promise<McpSandboxCheck> {
  const { platform, loaded } = options.workspace;
  const { catalog } = await options.workspace.mcpCatalog();
  const registration = [...catalog.servers, ...catalog.disabled].find((r) =>
    r.config.name === options.server
  );
  if (!registration) {
    const failed = catalog.failed?.find((f) => f.name === options.server);
    if (failed) {
      throw new UsageError(`MCP server "${options.server}" is invalid: ${failed.error}`, {
        server: options.server,
        file: failed.source,
      });
    }
    throw new UsageError(`No MCP server named '${options.server}' found.`, { server: options.server });
  }
  const config = registration.config;
  if (config.transport.type !== "stdio") {
    throw new UsageError(
      `MCP server "${config.name}" is a ${config.transport.type} server: only stdio servers run in a sandbox`,
      { server: config.name, field: "sandbox" },
    );
  }
  const given = options.profile ?? {};
  const base: McpSandbox = config.sandbox ?? { mode: "read-only", network: false, writable: [] };
  const profile: McpSandbox = {
    mode: given.mode ?? base.mode,
    network: given.network ?? base.network,
    writable: given.writable ?? base.writable,
    // Paths given on the command line are the user's; the configured ones keep their clamp.
    ...(given.writable === undefined && base.writableClamp ? { writableClamp: base.writableClamp } : {}),
  };
  const profileSource = Object.keys(given).length > 0
    ? "command line"
    : config.sandbox
    ? "config"
    : "default";
  const report = await checkServerSandbox({
    server: { ...config, sandbox: profile, sandboxRefusal: undefined },
    transport: {
      platform,
      cwd: loaded.paths.cwd,
      home: loaded.paths.home,
      warn: options.warn,
      confine: mcpConfinement(platform, loaded),
    },
    ...(options.call ? { call: options.call } : {}),
  });
  const workspace = canonicalPath(loaded.paths.cwd);
  const denials = report.denials
    .filter((d) => d.kind !== "file" || d.code !== "ENOENT" || hostHas(platform, d.path))
    .map((d) => ({ ...d, fix: fixFor(d, profile, workspace) }));
  return { report, profileSource, denials };
}

/** A path missing in the sandbox is a denial only when the host has it (a mask hid it). */
function hostHas(platform: Platform, file: string): boolean {
  return platform.fs.sync.lstat(file) !== null;
}

function within(root: string, file: string): boolean {
  return file === root || file.startsWith(root + "/");
}

function fixFor(denial: Denial, profile: McpSandbox, workspace: string): string {
  if (denial.kind === "network") return "sandbox_network = true";
  if (denial.code === "ENOENT") {
    return "hidden in the sandbox (host sockets and $TRELLIS_HOME secrets are masked): run it unconfined if it needs this";
  }
  const file = denial.path;
  const protectedPart = file.split("/").find((part) => (PROTECTED_NAMES as readonly string[]).includes(part));
  if (protectedPart && within(workspace, file)) {
    return `${protectedPart} stays read-only in every sandbox: the server cannot write it confined`;
  }
  if (within(workspace, file) && profile.mode === "read-only") return `sandbox = "workspace-write"`;
  const dir = path.dirname(file);
  return `sandbox_writable = [${JSON.stringify(dir)}] (or a parent of it)`;
}
