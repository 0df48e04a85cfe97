import type { SandboxPolicy } from "../platform/mod.ts";
import type { PermissionProfile } from "./permission_profile.ts";

/** What one confined command asks for, inside the session's hardening. */
export interface Confinement {
  /** "read-only": nothing writable but `writableRoots`; "workspace-write": the same, by name. */
  mode: "read-only" | "workspace-write";
  /** Canonical directories bound read-write (protected names inside them stay read-only). */
  writableRoots: string[];
  networkAccess: boolean;
  /** Directories no socket mask may hide (an MCP server's install directory, its cwd). */
  readableRoots?: string[];
}

/**
 * The one place a sandbox policy is made from a session's permission profile, for every caller of
 * the bwrap profile builder (`sandboxArgv`): `shell` (the profile's own mode, roots and network),
 * hooks (a plugin's data dir), MCP servers (their `sandbox*` keys, #17 item 2). Whatever the caller
 * confines, the session's hardening is the same: `$TRELLIS_HOME` read-only with its secrets masked,
 * the allowed host sockets, the environment that locates the sockets to mask.
 * `env` is the session's environment.
 */
export function confinedPolicy(
  profile: PermissionProfile,
  cwd: string,
  env: Record<string, string | undefined>,
  confinement: Confinement,
): SandboxPolicy {
  const { writableRoots, networkAccess } = confinement;
  // The builder binds roots and keeps the network only in workspace-write: read-only plus a
  // writable directory or the network is workspace-write over exactly those roots.
  const mode = confinement.mode === "read-only" && writableRoots.length === 0 && !networkAccess
    ? "read-only"
    : "workspace-write";
  return {
    mode,
    writableRoots,
    networkAccess,
    cwd,
    env,
    ...(confinement.readableRoots?.length ? { readableRoots: confinement.readableRoots } : {}),
    ...(profile.trellisHome ? { trellisHome: profile.trellisHome } : {}),
    ...(profile.protectedPaths?.length ? { protectedPaths: profile.protectedPaths } : {}),
    ...(profile.allowUnixSockets ? { allowUnixSockets: profile.allowUnixSockets } : {}),
  };
}

/**
 * The sandbox policy of a session's permission profile for a command run in `cwd`: what `shell`
 * runs under (read-only: nothing writable, no network; full access: no sandbox).
 */
export function sandboxPolicyFor(
  profile: PermissionProfile,
  cwd: string,
  env: Record<string, string | undefined>,
): SandboxPolicy {
  if (profile.sandboxMode === "danger-full-access") {
    return { mode: "danger-full-access", writableRoots: [], networkAccess: true, cwd, env };
  }
  const writable = profile.sandboxMode === "workspace-write";
  return confinedPolicy(profile, cwd, env, {
    mode: profile.sandboxMode,
    writableRoots: writable ? profile.writableRoots : [],
    networkAccess: writable && profile.networkAccess,
  });
}
