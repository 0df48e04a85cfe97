import type { SandboxPolicy } from "../platform/mod.ts";
import type { PermissionProfile } from "./permission_profile.ts";

/**
 * The sandbox policy of a session's permission profile for a command run in `cwd`: what `shell`
 * runs under, and what anything else that runs a command in the sandbox (hooks, servers) reuses.
 * `env` is the session's environment; it locates per-user sockets to mask ($SSH_AUTH_SOCK, $HOME…).
 */
export function sandboxPolicyFor(
  profile: PermissionProfile,
  cwd: string,
  env: Record<string, string | undefined>,
): SandboxPolicy {
  return {
    mode: profile.sandboxMode,
    writableRoots: profile.writableRoots,
    networkAccess: profile.networkAccess,
    cwd,
    env,
    ...(profile.trellisHome ? { trellisHome: profile.trellisHome } : {}),
    ...(profile.allowUnixSockets ? { allowUnixSockets: profile.allowUnixSockets } : {}),
  };
}
