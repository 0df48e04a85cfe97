import * as nodePath from "node:path";
import { type ApprovalPolicy, type SandboxMode, SessionSettings, type TrellisConfig } from "../config/mod.ts";
import { type FileSystem, gitDirsOf } from "../platform/mod.ts";

export type { ApprovalPolicy, SandboxMode };

/**
 * What the built-in tools may touch without asking: the roots resolved once per session from the
 * config, and the mode and policy read from the session's settings at each check.
 */
export interface PermissionProfile {
  /** The session's current mode: `resolvePermissionProfile` reads it from the settings, never copies it. */
  readonly sandboxMode: SandboxMode;
  /** The session's current policy, read the same way (`/approvals` applies to the next call). */
  readonly approvalPolicy: ApprovalPolicy;
  /** The session's working directory, canonical. */
  workspace: string;
  /** Workspace, `sandbox_workspace_write.writable_roots` and the temp dir, canonical. */
  writableRoots: string[];
  /** Extra read-only roots (skill directories, plugin caches), canonical. */
  readableRoots: string[];
  networkAccess: boolean;
  /** `$TRELLIS_HOME`, canonical: read-only for the tools and the sandbox, its secrets unreadable. */
  trellisHome?: string;
  /**
   * User-level configuration Trellis reads in place (`~/.claude.json`, `$CODEX_HOME`, …) and the home
   * directory's credentials and start-up files, canonical: protected inside a writable root (#20).
   */
  protectedPaths?: string[];
  /** Host UNIX sockets a sandboxed command may reach (`sandbox_workspace_write.allow_unix_sockets`). */
  allowUnixSockets?: string[];
  /**
   * The real git directories of a worktree or submodule whose `.git` file sits at a writable root
   * (its `gitdir:` and `commondir`), canonical: protected as a `.git` directory is (#20 item 18).
   */
  gitDirs?: string[];
  /** `$HOME`, canonical: never offered as an approval's directory scope (#20 item 18). */
  userHome?: string;
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
  /** `$HOME`, for the approval scopes (never offered as a directory scope). */
  userHome?: string;
  /** User-level config files and home secrets to keep protected (see PermissionProfile). */
  protectedPaths?: string[];
  /**
   * The session's settings, whose mode and policy the profile reads at every check (`/approvals`,
   * `/sandbox`); absent: fixed settings from `config` (a one-off command, a test).
   */
  settings?: SessionSettings;
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
  const writableRoots = unique([workspace, ...configured, ...temp]);
  const gitDirs = await Promise.all(
    writableRoots.flatMap((root) => gitDirsOf(nodePath.join(root, ".git"))).map(canonical),
  );
  const guarded = await Promise.all((options.protectedPaths ?? []).map(canonical));
  const settings = options.settings ?? fixedSettings(config, workspace);
  return {
    get sandboxMode() {
      return settings.sandboxMode;
    },
    get approvalPolicy() {
      return settings.approvalPolicy;
    },
    workspace,
    writableRoots,
    readableRoots: unique([...readable, ...options.canonicalReadableRoots ?? []]),
    networkAccess: write.network_access ?? false,
    ...(options.trellisHome ? { trellisHome: await canonical(options.trellisHome) } : {}),
    ...(sockets.length > 0 ? { allowUnixSockets: unique(sockets) } : {}),
    ...(gitDirs.length > 0 ? { gitDirs: unique(gitDirs) } : {}),
    ...(options.userHome ? { userHome: await canonical(options.userHome) } : {}),
    ...(guarded.length > 0 ? { protectedPaths: unique(guarded) } : {}),
  };
}

function fixedSettings(config: TrellisConfig, workspace: string): SessionSettings {
  return new SessionSettings({
    ...(config.sandbox_mode ? { sandboxMode: config.sandbox_mode } : {}),
    ...(config.approval_policy ? { approvalPolicy: config.approval_policy } : {}),
    cwd: workspace,
  });
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
