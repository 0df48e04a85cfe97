import { existsSync } from "node:fs";
import * as nodePath from "node:path";
import process from "node:process";
import { canonicalPath } from "./canonical_path.ts";
import { kernelInterfaceArgs } from "./sandbox_kernel.ts";
import { hostSocketArgs, trellisHomeSecretArgs } from "./sandbox_masks.ts";
import { isStandingPlaceholder, registerPlaceholders, sweepStale } from "./sandbox_placeholders.ts";
import { isWithinPath, protectedArgs, protectedMounts, SandboxProfileError } from "./sandbox_protected.ts";
import { hostSeccompArch, seccompFilterFile, withSeccompFd } from "./sandbox_seccomp.ts";

/** Where a sandboxed command may write and whether it may reach the network. */
export interface SandboxPolicy {
  mode: "read-only" | "workspace-write" | "danger-full-access";
  writableRoots: string[];
  networkAccess: boolean;
  cwd: string;
  /** `$TRELLIS_HOME`: read-only even inside a writable root, its secrets masked (default: none). */
  trellisHome?: string;
  /**
   * User-level configuration and secrets (`~/.claude.json`, `$CODEX_HOME`, `~/.ssh`, `~/.bashrc`, …):
   * read-only (a placeholder when missing) wherever they fall inside a writable root (#20).
   */
  protectedPaths?: string[];
  /**
   * Directories the command needs to read that a mask must never hide (an MCP server's install
   * directory): the whole file system is readable already; these stay so even under `/run` or `/tmp`.
   */
  readableRoots?: string[];
  /** Host UNIX sockets left reachable (`sandbox_workspace_write.allow_unix_sockets`; default none). */
  allowUnixSockets?: string[];
  /**
   * The environment that locates per-user sockets and secrets: `HOME`, `SSH_AUTH_SOCK`,
   * `XDG_RUNTIME_DIR`, `TMPDIR`, `PATH` (kept visible). Default: none of them.
   */
  env?: Record<string, string | undefined>;
}

/** The bwrap binary and the namespace flags the self-check found to hold here. */
export interface SandboxRuntime {
  bwrap: string;
  flags: readonly string[];
}

/**
 * The namespace flags, strongest first: a user namespace of its own with no way to make another (no
 * nested namespace to remount the file system from), else a user namespace (bwrap before 0.8), else
 * none (no unprivileged user namespaces). The self-check picks the first this bwrap and kernel accept.
 */
export const NAMESPACE_CANDIDATES: readonly (readonly string[])[] = [
  ["--unshare-user", "--disable-userns"],
  ["--unshare-user"],
  [],
];
/** Always: root in the sandbox is root without a single capability, alone in its session. */
const HARDENING = [
  "--cap-drop",
  "ALL",
  "--unshare-ipc",
  "--unshare-pid",
  "--die-with-parent",
  "--new-session",
];

/**
 * The argv that runs `argv` under bubblewrap, for any command (shell, hooks, servers): the whole file
 * system read-only; each existing writable root bound read-write (parents before children); the
 * protected names inside them (`.git`, `.trellis`, `.codex`, `.claude`, `.agents`, `.mcp.json`,
 * `$TRELLIS_HOME`) read-only again, missing ones blocked by a placeholder; host UNIX sockets and
 * `$TRELLIS_HOME` secrets masked; the kernel's knobs (`/proc/sys`, `/sys`, …) read-only; no
 * capabilities; a seccomp filter that refuses setuid/setgid modes and, with the network off,
 * `socket(AF_UNIX)` (sandbox_seccomp.ts); the network unshared unless allowed; a fresh pid
 * namespace so killing bwrap ends every descendant. The argv starts with `/bin/sh`, which hands bwrap
 * the filter as a file descriptor and execs it. Run it with `runCommand` (which removes the
 * placeholders afterwards) or hold `holdSandboxMounts(argv)` around the process. Throws a
 * SandboxProfileError when a protected path cannot be held (it is a symbolic link).
 */
export function sandboxArgv(
  argv: string[],
  policy: SandboxPolicy,
  runtime: string | SandboxRuntime = "bwrap",
): string[] {
  return buildSandboxArgv(argv, policy, runtime, { scanHost: true });
}

/** `sandboxArgv` with the host scan optional: without it, the fixed arguments alone (the probe's cache key). */
export function buildSandboxArgv(
  argv: string[],
  policy: SandboxPolicy,
  runtime: string | SandboxRuntime,
  options: { scanHost?: boolean } = {},
): string[] {
  if (policy.mode === "danger-full-access") return [...argv];
  const scanHost = options.scanHost ?? true;
  const { bwrap, flags } = typeof runtime === "string"
    ? { bwrap: runtime, flags: NAMESPACE_CANDIDATES[0] }
    : runtime;
  const roots = boundRoots(policy);
  const trellisHome = policy.trellisHome ? canonicalPath(policy.trellisHome) : undefined;
  const markerDir = placeholderMarkerDir(trellisHome);
  // A placeholder standing now (a killed run's, or one a sandbox of this or another home holds) is
  // treated as one again: bound from /dev/null, so it may go before this sandbox starts, and held.
  const mounts = protectedMounts(roots, policy.cwd, trellisHome, userProtectedPaths(policy)).map((m) =>
    m.kind === "existing" && isStandingPlaceholder(m.path, markerDir)
      ? { ...m, kind: "placeholder" as const }
      : m
  );
  const network = policy.mode === "workspace-write" && policy.networkAccess;
  const filter = seccompFilter(policy, network, scanHost);
  const bwrapArgv = [
    bwrap,
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
    ...roots.flatMap((root) => ["--bind", root, root]),
    ...protectedArgs(mounts),
    // A writable root inside a protected directory (a plugin's data dir) was configured writable.
    ...roots.filter((root) => mounts.some((m) => m.path !== root && isWithinPath(m.path, root)))
      .flatMap((root) => ["--bind", root, root]),
    ...(scanHost ? hostSocketArgs(maskOptions(policy, roots)) : []),
    ...(trellisHome && scanHost ? trellisHomeSecretArgs(trellisHome) : []),
    ...kernelInterfaceArgs(roots),
    // The filter's directory, should a writable root hold it: no sandbox may swap the next one's filter.
    ...(filter && roots.some((root) => isWithinPath(root, filter.dir))
      ? ["--ro-bind", filter.dir, filter.dir]
      : []),
    ...(network ? [] : ["--unshare-net"]),
    ...flags,
    ...HARDENING,
    ...["--chdir", policy.cwd, "--"],
    ...argv,
  ];
  const cmd = filter ? withSeccompFd(filter.file, bwrapArgv) : bwrapArgv;
  const placeholders = mounts.filter((m) => m.kind === "placeholder").map((m) => m.path);
  registerPlaceholders(cmd, placeholders, markerDir);
  return cmd;
}

/**
 * The seccomp filter for this policy (sandbox_seccomp.ts): setuid/setgid modes always refused;
 * `socket(AF_UNIX)` too when the network is off and no host socket was allowed by name
 * (`allow_unix_sockets`: those are reached by connecting, so the masks alone then hold the others).
 * None on a host whose system call table Trellis does not know (Deno and Bun run on x86_64 and
 * aarch64 only).
 */
function seccompFilter(
  policy: SandboxPolicy,
  network: boolean,
  write: boolean,
): { file: string; dir: string } | undefined {
  const arch = hostSeccompArch();
  if (!arch) return undefined;
  const denyUnixSockets = !network && (policy.allowUnixSockets ?? []).length === 0;
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const dir = nodePath.join(process.env.TMPDIR || "/tmp", `trellis-sandbox-seccomp-${uid}`);
  const file = seccompFilterFile(dir, arch, { denyUnixSockets, write });
  // Canonical, as the roots are, so a TMPDIR through a symbolic link is still seen inside a root.
  return { file, dir: write ? canonicalPath(nodePath.dirname(file)) : nodePath.dirname(file) };
}

/** The writable roots bound read-write: existing ones, parents before children so nested roots stay writable. */
function boundRoots(policy: SandboxPolicy): string[] {
  if (policy.mode !== "workspace-write") return [];
  return [...new Set(policy.writableRoots)].filter((root) => existsSync(root)).sort((a, b) =>
    a.length - b.length
  );
}

/** Why `policy` cannot be held by a profile here (a protected path is a symbolic link), if it cannot. */
export function sandboxProfileProblem(policy: SandboxPolicy): string | undefined {
  if (policy.mode === "danger-full-access") return undefined;
  try {
    protectedMounts(
      boundRoots(policy),
      policy.cwd,
      policy.trellisHome ? canonicalPath(policy.trellisHome) : undefined,
      userProtectedPaths(policy),
    );
    return undefined;
  } catch (error) {
    if (error instanceof SandboxProfileError) return error.message;
    throw error;
  }
}

function userProtectedPaths(policy: SandboxPolicy): string[] {
  return (policy.protectedPaths ?? []).map((path) => canonicalPath(path));
}

function maskOptions(policy: SandboxPolicy, roots: string[]) {
  const env = policy.env ?? {};
  const path = (env.PATH ?? "").split(":").filter((dir) => dir.startsWith("/"));
  const allowSockets = (policy.allowUnixSockets ?? []).map((socket) => canonicalPath(socket));
  const readable = (policy.readableRoots ?? []).map((dir) => canonicalPath(dir));
  return { keep: [...roots, policy.cwd, ...readable, ...path], allowSockets, env };
}

/**
 * At a session's start: removes the placeholders that earlier runs, killed before they could, left
 * in the workspaces (sandbox_placeholders.ts), if still the empty files they made.
 */
export function removeLeftoverPlaceholders(trellisHome?: string): void {
  sweepStale(placeholderMarkerDir(trellisHome ? canonicalPath(trellisHome) : undefined));
}

/**
 * Placeholder markers live where no sandbox can write: under `$TRELLIS_HOME` once it exists (creating
 * it here would itself leave a directory behind), else a per-user temp dir.
 */
function placeholderMarkerDir(trellisHome?: string): string {
  if (trellisHome && existsSync(trellisHome)) return nodePath.join(trellisHome, "cache", "sandbox-mounts");
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  return nodePath.join(process.env.TMPDIR || "/tmp", `trellis-sandbox-mounts-${uid}`);
}
