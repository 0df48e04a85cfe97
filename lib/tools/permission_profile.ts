import * as nodePath from "node:path";
import type { TrellisConfig } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";

export type SandboxMode = "read-only" | "workspace-write" | "danger-full-access";
export type ApprovalPolicy = "untrusted" | "on-request" | "on-failure" | "never";

/** What the built-in tools may touch without asking, resolved once per session from the config. */
export interface PermissionProfile {
  sandboxMode: SandboxMode;
  approvalPolicy: ApprovalPolicy;
  /** The session's working directory, canonical. */
  workspace: string;
  /** Workspace, `sandbox_workspace_write.writable_roots` and the temp dir, canonical. */
  writableRoots: string[];
  /** Extra read-only roots (skill directories, plugin caches), canonical. */
  readableRoots: string[];
  networkAccess: boolean;
  /** `$TRELLIS_HOME`, canonical: read-only for the tools and the sandbox, its secrets unreadable. */
  trellisHome?: string;
  /** Host UNIX sockets a sandboxed command may reach (`sandbox_workspace_write.allow_unix_sockets`). */
  allowUnixSockets?: string[];
}

export interface ResolveProfileOptions {
  fs: FileSystem;
  /** Added to the writable roots unless `sandbox_workspace_write.exclude_tmpdir_env_var` is true. */
  tempDir: string;
  extraReadableRoots?: string[];
  /**
   * Extra read-only roots that are real paths already, taken as given: a skills snapshot's folders,
   * which its walk of canonical roots found as plain directories (a symlink is resolved by the walk).
   * 600 lstats of a plugin-heavy home's skill folders were ~4 % of its session start.
   */
  canonicalReadableRoots?: string[];
  /** `$TRELLIS_HOME` (the loaded config's home); kept read-only even inside a writable root. */
  trellisHome?: string;
}

/**
 * Reads `sandbox_mode`, `approval_policy` and `sandbox_workspace_write.{writable_roots,network_access}`
 * (Codex's keys) plus `allow_unix_sockets` (Claude Code's `sandbox.network.allowUnixSockets`), and
 * canonicalizes every path, so later checks compare real paths with real paths.
 */
export async function resolvePermissionProfile(
  config: TrellisConfig,
  cwd: string,
  options: ResolveProfileOptions,
): Promise<PermissionProfile> {
  const write = config.sandbox_workspace_write ?? {};
  const canonical = (path: string) => canonicalize(options.fs, nodePath.resolve(cwd, path));
  const workspace = await canonical(cwd);
  const configured = await Promise.all((write.writable_roots ?? []).map(canonical));
  const temp = write.exclude_tmpdir_env_var ? [] : [await canonical(options.tempDir)];
  const readable = await canonicalizeSiblings(
    options.fs,
    (options.extraReadableRoots ?? []).map((path) => nodePath.resolve(cwd, path)),
  );
  const sockets = await Promise.all((write.allow_unix_sockets ?? []).map(canonical));
  return {
    sandboxMode: config.sandbox_mode ?? "workspace-write",
    approvalPolicy: config.approval_policy ?? "on-request",
    workspace,
    writableRoots: unique([workspace, ...configured, ...temp]),
    readableRoots: unique([...readable, ...options.canonicalReadableRoots ?? []]),
    networkAccess: write.network_access ?? false,
    ...(options.trellisHome ? { trellisHome: await canonical(options.trellisHome) } : {}),
    ...(sockets.length > 0 ? { allowUnixSockets: unique(sockets) } : {}),
  };
}

/** Real path of the deepest existing ancestor plus the part that does not exist yet. */
async function canonicalize(fs: FileSystem, absolute: string): Promise<string> {
  try {
    return await fs.realPath(absolute);
  } catch {
    const parent = nodePath.dirname(absolute);
    if (parent === absolute) return absolute;
    return nodePath.join(await canonicalize(fs, parent), nodePath.basename(absolute));
  }
}

/**
 * The real paths of many directories that mostly share parents (every enabled skill's folder: 600 of
 * them in a Claude Code home with 30 plugins). Each parent is resolved once and a child that is not
 * itself a symlink is its real parent plus its name; a symlink or a vanished entry takes the full
 * walk. One realpath per path cost ~24 ms of a 150 ms session start for 600 skills; an lstat is a
 * fraction of that.
 */
async function canonicalizeSiblings(fs: FileSystem, paths: string[]): Promise<string[]> {
  const parents = new Map<string, Promise<string>>();
  return await Promise.all(paths.map(async (absolute) => {
    const info = await fs.lstat(absolute).catch(() => null);
    const parent = nodePath.dirname(absolute);
    if (!info || info.isSymlink || parent === absolute) return canonicalize(fs, absolute);
    let real = parents.get(parent);
    if (!real) parents.set(parent, real = canonicalize(fs, parent));
    return nodePath.join(await real, nodePath.basename(absolute));
  }));
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
