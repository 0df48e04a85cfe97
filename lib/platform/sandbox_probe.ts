import * as nodePath from "node:path";
import process from "node:process";
import type { Platform } from "./platform.ts";
import { runCommand } from "./run_command.ts";
import { buildSandboxArgv, NAMESPACE_CANDIDATES, type SandboxPolicy } from "./sandbox_profile.ts";

export type SandboxStatus =
  | { available: true; bwrap: string; flags: string[] }
  | { available: false; reason: string };

/**
 * Run inside the profile: it reports the capabilities it holds and tries each way out a root-owned
 * bwrap has left open before — remounting `/` read-write, writing outside the writable roots, creating
 * a protected name, remounting from a nested namespace, writing a kernel knob under /proc/sys (it
 * writes back the value it read from the harmless `kernel/core_uses_pid`, so a sandbox that does not
 * hold changes nothing) or finding one of the other kernel knobs writable, making a setuid file. Every line it prints starts with a marker, so
 * a profile that cannot start (no marker) is told apart from one that escaped.
 */
const PROBE = `
echo trellis-probe:started
while read -r key value rest; do
  case "$key" in CapEff:|CapPrm:|CapAmb:) echo "trellis-probe:cap:$key$value";; esac
done < /proc/self/status
mount -o remount,rw,bind / >/dev/null 2>&1 && echo "trellis-probe:escaped:remounted / read-write"
(echo x > "$1/escape") 2>/dev/null && echo "trellis-probe:escaped:wrote outside the writable roots"
(echo x > "$2/.mcp.json") 2>/dev/null
read -r knob < /proc/sys/kernel/core_uses_pid # dash's read returns 1 on a /proc file, value read
if [ -n "$knob" ]; then
  (echo "$knob" > /proc/sys/kernel/core_uses_pid) 2>/dev/null && echo "trellis-probe:escaped:wrote /proc/sys"
fi
for f in /proc/sysrq-trigger /proc/irq/default_smp_affinity /proc/bus/pci/*/*; do
  [ -f "$f" ] && [ -w "$f" ] && echo "trellis-probe:escaped:could write $f" && break
done
(: > "$2/setuid" && chmod u+s "$2/setuid") 2>/dev/null
[ -u "$2/setuid" ] && echo "trellis-probe:escaped:made a setuid file"
unshare -Urm /bin/sh -c 'mount -o remount,rw,bind / && echo x > "$0/nested"' "$1" >/dev/null 2>&1 &&
  echo "trellis-probe:escaped:remounted / from a nested namespace"
echo trellis-probe:done
`;
/** Bumped when the probe changes, so every cached verdict is checked again. */
const PROBE_VERSION = 4;

// Keyed by platform so a test platform with its own PATH gets its own probe; the real one is probed once.
const cache = new WeakMap<Platform, Promise<SandboxStatus>>();

/**
 * Whether bubblewrap can sandbox commands here and hold: it must be on PATH, able to create its
 * namespaces (containers often forbid them, so presence alone proves nothing), and the profile must
 * survive the self-check probe — as root too. Probed once per process; a verdict that holds is cached
 * on disk, keyed by the bwrap binary, the user and the profile's own arguments.
 */
export function detectSandbox(
  platform: Platform,
  options: { cacheFile?: string } = {},
): Promise<SandboxStatus> {
  let status = cache.get(platform);
  if (!status) cache.set(platform, status = probe(platform, options.cacheFile));
  return status;
}

async function probe(platform: Platform, cacheFile?: string): Promise<SandboxStatus> {
  const bwrap = await findOnPath(platform, "bwrap");
  if (!bwrap) return { available: false, reason: "bwrap not found" };
  const info = await platform.fs.stat(bwrap).catch(() => null);
  const key = JSON.stringify([PROBE_VERSION, bwrap, info?.size, info?.mtimeMs, uid(), profileSignature()]);
  const cached = cacheFile ? readCache(platform, cacheFile, key) : undefined;
  if (cached) return { available: true, bwrap, flags: cached };
  const status = await selfCheck(platform, bwrap);
  if (status.available && cacheFile) {
    const entry = JSON.stringify({ key, flags: status.flags }) + "\n";
    await platform.fs.writeFileAtomic(cacheFile, entry).catch(() => {});
  }
  return status;
}

/** The profile's fixed arguments for each candidate: a change to any of them re-probes. */
function profileSignature(): string {
  const policy: SandboxPolicy = {
    mode: "workspace-write",
    writableRoots: [],
    networkAccess: false,
    cwd: "/",
  };
  return NAMESPACE_CANDIDATES.map((flags) =>
    buildSandboxArgv(["true"], policy, { bwrap: "bwrap", flags }, { scanHost: false }).join(" ")
  ).join("\n");
}

function uid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}

function readCache(platform: Platform, cacheFile: string, key: string): string[] | undefined {
  try {
    const entry = JSON.parse(platform.fs.sync.readTextFile(cacheFile));
    const valid = entry.key === key && Array.isArray(entry.flags) &&
      entry.flags.every((f: unknown) => typeof f === "string");
    return valid ? entry.flags : undefined;
  } catch {
    return undefined; // absent, unreadable or from an older version: probe
  }
}

/** Tries the namespace candidates strongest first; the first that starts decides. */
async function selfCheck(platform: Platform, bwrap: string): Promise<SandboxStatus> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-sandbox-probe-"));
  try {
    const outside = nodePath.join(root, "outside");
    const ws = nodePath.join(root, "ws");
    await platform.fs.mkdir(outside);
    await platform.fs.mkdir(ws);
    let firstFailure: string | undefined;
    for (const flags of NAMESPACE_CANDIDATES) {
      const verdict = await runProbe(platform, { bwrap, flags: [...flags] }, outside, ws);
      if (verdict.started) {
        if (verdict.escapes.length === 0) return { available: true, bwrap, flags: [...flags] };
        const what = verdict.escapes.join("; ");
        return { available: false, reason: `bwrap does not hold here: the self-check probe ${what}` };
      }
      firstFailure ??= verdict.failure;
    }
    return { available: false, reason: `bwrap cannot create a sandbox: ${firstFailure}` };
  } finally {
    await platform.fs.remove(root, { recursive: true }).catch(() => {});
  }
}

async function runProbe(
  platform: Platform,
  runtime: { bwrap: string; flags: string[] },
  outside: string,
  ws: string,
): Promise<{ started: boolean; escapes: string[]; failure?: string }> {
  const policy: SandboxPolicy = {
    mode: "workspace-write",
    writableRoots: [ws],
    networkAccess: false,
    cwd: ws,
  };
  const result = await runCommand(platform, {
    cmd: buildSandboxArgv(["/bin/sh", "-c", PROBE, "probe", outside, ws], policy, runtime),
    env: { PATH: platform.env("PATH") ?? "/usr/bin:/bin" },
    timeoutMs: 10_000,
  });
  const lines = result.stdout.split("\n");
  if (!lines.includes("trellis-probe:started")) {
    const detail = (result.error ?? result.stderr.trim()) || `exit code ${result.code}`;
    return { started: false, escapes: [], failure: detail.split("\n")[0] };
  }
  const escapes = lines.filter((l) => l.startsWith("trellis-probe:escaped:")).map((l) => l.slice(22));
  const caps = lines.filter((l) => l.startsWith("trellis-probe:cap:") && !/:0+$/.test(l));
  if (caps.length > 0) escapes.push(`kept capabilities (${caps.map((l) => l.slice(18)).join(", ")})`);
  if (!lines.includes("trellis-probe:done")) escapes.push("did not finish");
  for (const name of ["escape", "nested"]) {
    if (await platform.fs.lstat(nodePath.join(outside, name))) {
      escapes.push(`left "${name}" outside the roots`);
    }
  }
  if ((await platform.fs.lstat(nodePath.join(ws, ".mcp.json")))?.size) {
    escapes.push("created a protected .mcp.json");
  }
  return { started: true, escapes };
}

async function findOnPath(platform: Platform, name: string): Promise<string | undefined> {
  for (const dir of (platform.env("PATH") ?? "").split(":")) {
    if (!dir) continue;
    const candidate = nodePath.join(dir, name);
    // EACCES or ELOOP on a PATH entry means no usable binary there, not a failed probe.
    const info = await platform.fs.stat(candidate).catch(() => null);
    if (info?.isFile && (info.mode & 0o111) !== 0) return candidate;
  }
  return undefined;
}
