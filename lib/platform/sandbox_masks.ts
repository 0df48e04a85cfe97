import { type Dirent, existsSync, lstatSync, readdirSync } from "node:fs";
import * as nodePath from "node:path";
import process from "node:process";
import { isWithinPath } from "./sandbox_protected.ts";

/**
 * Directories that hold host daemons' UNIX sockets (docker, containerd, D-Bus, systemd, ssh-agent,
 * tmux, X11). A connection to one of those reaches past every file-system rule — `docker run -v /:/h`,
 * `systemctl`, `tmux send-keys` into an unsandboxed shell — whatever `network_access` says, so they
 * are hidden under an empty tmpfs.
 */
const SOCKET_DIRS = ["/run", "/var/run"];
/** Socket directories by name at the top of a temp dir; other entries there stay as they are. */
const TEMP_SOCKET_DIR = /^(\.X11-unix|\.ICE-unix|\.XIM-unix|\.font-unix|ssh-.+|tmux-\d+|screens?|dbus-.+)$/;
/** Per-user directories whose top-level sockets (gpg-agent, ssh ControlMaster) are masked one by one. */
const HOME_SOCKET_DIRS = [".ssh", ".gnupg", ".docker/run"];
/** Under /run on some systems, and needed to run anything at all (NixOS keeps its profile there). */
const RUN_KEEP = ["/run/current-system", "/run/booted-system", "/run/opengl-driver"];
/**
 * Secrets under $TRELLIS_HOME that no sandboxed command needs to read (`run/` holds `mcp-server
 * --http`'s bearer tokens: a command that read one could drive that server).
 */
export const TRELLIS_HOME_SECRETS = [
  "credentials",
  "config.toml",
  "sessions",
  // Checkpoints hold the content of files the agent changed, and of files since removed (#25 item 2).
  "checkpoints",
  "logs",
  "hook_outputs",
  "run",
];

export interface MaskOptions {
  /** Paths that must stay visible: the writable roots, the cwd, allowed sockets, PATH entries. */
  keep: string[];
  /** Allowed sockets (canonical): never masked. */
  allowSockets: string[];
  env: Record<string, string | undefined>;
}

function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // missing or unreadable: nothing to mask
  }
}

function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/**
 * Hides `dir` under a tmpfs, or, when something in it must stay visible, masks its children one by
 * one (directories recursively, sockets with `/dev/null`), leaving a kept path itself alone and never
 * touching a symbolic link (a mount on one would land on its target, wherever that is).
 */
function maskTree(dir: string, options: MaskOptions, out: string[], root = false): void {
  if (isMasked(out, dir)) return;
  // A kept socket directory itself (an MCP server whose cwd is /run) stays visible, but what is in it
  // is still masked: keeping the directory must not expose the daemons' sockets below it.
  if (options.keep.includes(dir) && !root) return;
  if (!options.keep.some((keep) => isWithinPath(dir, keep))) {
    out.push("--tmpfs", dir);
    return;
  }
  for (const entry of entriesOf(dir)) {
    const path = nodePath.join(dir, entry.name);
    if (entry.isDirectory()) maskTree(path, options, out);
    else if (isSocketEntry(entry, path)) maskSocket(path, options, out);
  }
}

function maskSocket(path: string, options: MaskOptions, out: string[]): void {
  if (!options.allowSockets.includes(path) && !isMasked(out, path)) out.push("--ro-bind", "/dev/null", path);
}

/** Whether `path` is already hidden by a mask in `out` (a tmpfs above it, or the same mask). */
function isMasked(out: string[], path: string): boolean {
  for (let i = 0; i < out.length; i++) {
    if (out[i] === "--tmpfs" && isWithinPath(out[i + 1], path)) return true;
    if (out[i] === "--ro-bind" && out[i + 1] === "/dev/null" && out[i + 2] === path) return true;
  }
  return false;
}

/** Sockets (and socket directories by name) at the top of `dir`. */
function maskSocketsIn(dir: string, options: MaskOptions, out: string[], socketDirs?: RegExp): void {
  const found = topLevelSockets(dir, socketDirs);
  // The listing may be a second old: a mask on a path gone since would make bwrap create it (in a
  // writable root) or fail (elsewhere), so each is looked at again.
  for (const path of found.sockets) if (isSocket(path)) maskSocket(path, options, out);
  for (const path of found.dirs) if (isRealDirectory(path)) maskTree(path, options, out);
}

interface TopLevel {
  mtimeMs: number;
  takenAt: number;
  sockets: string[];
  dirs: string[];
}

/**
 * A shared /tmp can hold thousands of entries (2,000–3,000 on the machine this was measured on,
 * where one listing took 5–15 ms), and every sandboxed command is built afresh. So a listing is
 * reused while the directory's mtime has not moved (taken over a second after the last change: mtime
 * ticks coarsely) or, when it keeps moving, for a second: a socket that appeared at the top of /tmp
 * within the last second can be missed. The well-known socket directories are looked up by name on
 * every call (hostSocketArgs), never from a listing.
 */
const scans = new Map<string, TopLevel>();
const REUSE_MS = 1000;

function topLevelSockets(dir: string, socketDirs?: RegExp): TopLevel {
  let mtimeMs: number;
  try {
    mtimeMs = lstatSync(dir).mtimeMs;
  } catch {
    return { mtimeMs: 0, takenAt: 0, sockets: [], dirs: [] };
  }
  const key = `${dir}\0${socketDirs?.source ?? ""}`;
  const cached = scans.get(key);
  const now = Date.now();
  const settled = cached?.mtimeMs === mtimeMs && cached.takenAt - mtimeMs > REUSE_MS;
  if (cached && (settled || now - cached.takenAt < REUSE_MS)) return cached;
  const found: TopLevel = { mtimeMs, takenAt: now, sockets: [], dirs: [] };
  for (const entry of entriesOf(dir)) {
    const path = nodePath.join(dir, entry.name);
    if (isSocketEntry(entry, path)) found.sockets.push(path);
    else if (socketDirs && entry.isDirectory() && socketDirs.test(entry.name)) found.dirs.push(path);
  }
  scans.set(key, found);
  return found;
}

/** Socket directories a temp dir holds under fixed names (this user's tmux among them). */
function knownTempSocketDirs(temp: string): string[] {
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  const names = [
    ".X11-unix",
    ".ICE-unix",
    ".XIM-unix",
    ".font-unix",
    ...(uid === undefined ? [] : [`tmux-${uid}`]),
  ];
  return names.map((name) => nodePath.join(temp, name)).filter(isRealDirectory);
}

/** Mount arguments that hide the host's UNIX sockets; they go after every bind they must win over. */
export function hostSocketArgs(options: MaskOptions): string[] {
  const keep = [...options.keep, ...RUN_KEEP.filter((path) => existsSync(path)), ...options.allowSockets];
  const opts = { ...options, keep };
  const out: string[] = [];
  const xdg = options.env.XDG_RUNTIME_DIR;
  for (const dir of [...SOCKET_DIRS, ...(xdg?.startsWith("/") ? [xdg] : [])]) {
    if (isRealDirectory(dir)) maskTree(dir, opts, out, true);
  }
  const temps = new Set(["/tmp", options.env.TMPDIR].filter((d): d is string => !!d?.startsWith("/")));
  for (const temp of temps) {
    for (const dir of knownTempSocketDirs(temp)) maskTree(dir, opts, out);
    maskSocketsIn(temp, opts, out, TEMP_SOCKET_DIR);
  }
  const home = options.env.HOME;
  if (home?.startsWith("/")) {
    for (const dir of HOME_SOCKET_DIRS) maskSocketsIn(nodePath.join(home, dir), opts, out);
  }
  const agent = options.env.SSH_AUTH_SOCK;
  if (agent?.startsWith("/") && isSocket(agent)) maskSocket(agent, opts, out);
  return out;
}

/** Deno's directory entries know files, directories and links only: anything else is looked at. */
function isSocketEntry(entry: Dirent, path: string): boolean {
  if (entry.isFile() || entry.isDirectory() || entry.isSymbolicLink()) return false;
  return entry.isSocket() || isSocket(path);
}

function isSocket(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSocket() ?? false;
  } catch {
    return false;
  }
}

/** Mount arguments that mask `$TRELLIS_HOME`'s secrets: an empty tmpfs or `/dev/null` over each. */
export function trellisHomeSecretArgs(trellisHome: string): string[] {
  return TRELLIS_HOME_SECRETS.flatMap((name) => {
    const path = nodePath.join(trellisHome, name);
    try {
      const info = lstatSync(path, { throwIfNoEntry: false });
      if (info?.isDirectory()) return ["--tmpfs", path];
      if (info?.isFile()) return ["--ro-bind", "/dev/null", path];
    } catch {
      // unreadable: nothing to mask
    }
    return [];
  });
}
