import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import * as nodePath from "node:path";
import type { Platform } from "./platform.ts";
import { runCommand } from "./run_command.ts";

/** Where a sandboxed command may write and whether it may reach the network. */
export interface SandboxPolicy {
  mode: "read-only" | "workspace-write" | "danger-full-access";
  writableRoots: string[];
  networkAccess: boolean;
  cwd: string;
}

export type SandboxStatus = { available: true; bwrap: string } | { available: false; reason: string };

// Keyed by platform so a test platform with its own PATH gets its own probe; the real one is probed once.
const cache = new WeakMap<Platform, Promise<SandboxStatus>>();

/**
 * Whether bubblewrap can sandbox commands here: it must be on PATH and able to create a namespace
 * (containers often forbid user namespaces, so presence alone proves nothing). Probed once per process.
 */
export function detectSandbox(
  platform: Platform,
  options: { cacheFile?: string } = {},
): Promise<SandboxStatus> {
  let status = cache.get(platform);
  if (!status) cache.set(platform, status = probe(platform, options.cacheFile));
  return status;
}

/**
 * A probe spawns a process (~15 ms here), so a successful result is remembered on disk, keyed by
 * the bwrap binary's path, size and mtime; a failure is probed again next time.
 */
async function probe(platform: Platform, cacheFile?: string): Promise<SandboxStatus> {
  const bwrap = await findOnPath(platform, "bwrap");
  if (!bwrap) return { available: false, reason: "bwrap not found" };
  const info = await statQuietly(platform, bwrap);
  const key = `${bwrap}:${info?.size}:${info?.mtimeMs}`;
  if (cacheFile && cachedKey(platform, cacheFile) === key) return { available: true, bwrap };
  const status = await probeOnce(platform, bwrap);
  if (status.available && cacheFile) {
    await platform.fs.writeFileAtomic(cacheFile, JSON.stringify({ available: key }) + "\n").catch(() => {});
  }
  return status;
}

async function probeOnce(platform: Platform, bwrap: string): Promise<SandboxStatus> {
  const result = await runCommand(platform, {
    cmd: [bwrap, "--ro-bind", "/", "/", "true"],
    env: { PATH: platform.env("PATH") ?? "/usr/bin:/bin" },
    timeoutMs: 10_000,
  });
  if (result.code === 0) return { available: true, bwrap };
  const detail = (result.error ?? result.stderr.trim()) || `exit code ${result.code}`;
  return { available: false, reason: `bwrap cannot create a sandbox: ${detail.split("\n")[0]}` };
}

function cachedKey(platform: Platform, cacheFile: string): unknown {
  try {
    return JSON.parse(platform.fs.sync.readTextFile(cacheFile)).available;
  } catch {
    return undefined; // absent or unreadable: probe
  }
}

async function findOnPath(platform: Platform, name: string): Promise<string | undefined> {
  for (const dir of (platform.env("PATH") ?? "").split(":")) {
    if (!dir) continue;
    const candidate = nodePath.join(dir, name);
    const info = await statQuietly(platform, candidate);
    if (info?.isFile && (info.mode & 0o111) !== 0) return candidate;
  }
  return undefined;
}

// EACCES or ELOOP on a PATH entry means no usable binary there, not a failed probe.
function statQuietly(platform: Platform, path: string) {
  return platform.fs.stat(path).catch(() => null);
}

/**
 * The argv that runs `argv` under bubblewrap: the whole file system read-only, each existing writable
 * root bound read-write (parents before children so nested roots stay writable), the network
 * unshared unless allowed, and a fresh pid namespace so killing bwrap ends every descendant.
 */
export function sandboxArgv(argv: string[], policy: SandboxPolicy, bwrap = "bwrap"): string[] {
  if (policy.mode === "danger-full-access") return [...argv];
  const roots = policy.mode === "workspace-write"
    ? [...new Set(policy.writableRoots)].filter((root) => existsSync(root)).sort((a, b) =>
      a.length - b.length
    )
    : [];
  const network = policy.mode === "workspace-write" && policy.networkAccess;
  return [
    bwrap,
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
    ...roots.flatMap((root) => ["--bind", root, root]),
    ...(network ? [] : ["--unshare-net"]),
    ...["--unshare-pid", "--die-with-parent", "--new-session", "--chdir", policy.cwd, "--"],
    ...argv,
  ];
}

const MAX_LINK_HOPS = 40;

/**
 * The absolute path a file operation on `path` would really touch: `..` and symlinks resolved, and
 * for a path that does not exist yet, the deepest existing ancestor resolved (dangling links followed)
 * with the rest appended. Synchronous because permission checks run inside synchronous approval.
 */
export function canonicalPath(path: string, hops = 0): string {
  const absolute = nodePath.resolve(path);
  const info = lstatQuietly(absolute);
  if (info) {
    try {
      return realpathSync(absolute);
    } catch {
      // a dangling or looping symlink: followed by hand below
    }
    if (info.isSymbolicLink() && hops < MAX_LINK_HOPS) {
      const parent = canonicalPath(nodePath.dirname(absolute), hops);
      return canonicalPath(nodePath.resolve(parent, readlinkSync(absolute)), hops + 1);
    }
  }
  const parent = nodePath.dirname(absolute);
  if (parent === absolute) return absolute;
  return nodePath.join(canonicalPath(parent, hops), nodePath.basename(absolute));
}

// Without exceptions for missing entries: a permission check on a new file must stay cheap.
function lstatQuietly(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR, EACCES, ELOOP: treat as not there
  }
}
