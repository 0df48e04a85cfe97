import assert from "node:assert/strict";
import process from "node:process";
import { detectSandbox, type Platform, platform } from "../../lib/platform/mod.ts";
import { createBuiltinTools } from "../../lib/tools/mod.ts";

// Issue #13 item 1: the sandbox is reported available only when its self-check probe, run inside the
// exact profile, cannot get out; the verdict is cached on disk, keyed by the profile's arguments.

/** A platform whose PATH finds `bwrap` in `dir` first (each call: a new object, so no in-memory cache). */
function platformWith(dir: string): Platform {
  const path = `${dir}:/usr/sbin:/usr/bin:/sbin:/bin`;
  return { ...platform, env: (name) => (name === "PATH" ? path : undefined) };
}

async function fakeBwrap(script: string): Promise<{ dir: string; log: string }> {
  const dir = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-fake-bwrap-"));
  await platform.fs.writeTextFile(`${dir}/bwrap`, `#!/bin/sh\necho run >> ${dir}/log\n${script}\n`);
  await platform.fs.chmod(`${dir}/bwrap`, 0o755);
  return { dir, log: `${dir}/log` };
}

async function runs(log: string): Promise<number> {
  const text = await platform.fs.readTextFile(log).catch(() => "");
  return text.split("\n").filter(Boolean).length;
}

/** A bwrap that silently ignores the hardening flags, as an old or patched one would. */
const IGNORES_HARDENING = `n=$#; i=0
while [ $i -lt $n ]; do
  a=$1; shift; i=$((i+1))
  case "$a" in --cap-drop) shift; i=$((i+1));; --unshare-user|--disable-userns) ;; *) set -- "$@" "$a";; esac
done
exec /usr/bin/bwrap "$@"`;

Deno.test("detectSandbox() refuses a bwrap whose profile lets the probe remount / and write outside the roots", async () => {
  const fake = await fakeBwrap(IGNORES_HARDENING);
  try {
    const status = await detectSandbox(platformWith(fake.dir), { cacheFile: `${fake.dir}/sandbox.json` });
    assert.equal(status.available, false);
    assert.match(
      (status as { reason: string }).reason,
      /^bwrap does not hold here: the self-check probe remounted \/ read-write; wrote outside the writable roots; .*kept capabilities \(CapPrm:0*[1-9a-f]/,
    );
    assert.equal(await platform.fs.lstat(`${fake.dir}/sandbox.json`), null);
  } finally {
    await platform.fs.remove(fake.dir, { recursive: true });
  }
});

Deno.test("detectSandbox() refuses a profile that keeps a single capability, as it refuses one keeping several", async () => {
  // The real bwrap holds; its report is altered so exactly one capability set is not empty (the
  // neighbour of the test above, where the hardening is ignored and every set is full).
  const fake = await fakeBwrap(
    `/usr/bin/bwrap "$@" | sed 's/^trellis-probe:cap:CapEff:.*/trellis-probe:cap:CapEff:0000000000000400/'`,
  );
  try {
    const status = await detectSandbox(platformWith(fake.dir), { cacheFile: `${fake.dir}/sandbox.json` });
    assert.equal(status.available, false);
    assert.equal(
      (status as { reason: string }).reason,
      "bwrap does not hold here: the self-check probe kept capabilities (CapEff:0000000000000400)",
    );
    assert.equal(await platform.fs.lstat(`${fake.dir}/sandbox.json`), null);
  } finally {
    await platform.fs.remove(fake.dir, { recursive: true });
  }
});

Deno.test("detectSandbox() refuses a bwrap that runs the command without any sandbox at all", async () => {
  const fake = await fakeBwrap(`while [ "$1" != "--" ]; do shift; done; shift; exec "$@"`);
  try {
    const status = await detectSandbox(platformWith(fake.dir));
    assert.match(
      (status as { reason: string }).reason,
      /^bwrap does not hold here: .*wrote outside the writable roots/,
    );
  } finally {
    await platform.fs.remove(fake.dir, { recursive: true });
  }
});

Deno.test("detectSandbox() reports why bwrap cannot start, naming bwrap's own message", async () => {
  const fake = await fakeBwrap(`echo "bwrap: No permissions to create new namespace" >&2; exit 1`);
  try {
    assert.deepStrictEqual(await detectSandbox(platformWith(fake.dir)), {
      available: false,
      reason: "bwrap cannot create a sandbox: bwrap: No permissions to create new namespace",
    });
  } finally {
    await platform.fs.remove(fake.dir, { recursive: true });
  }
});

Deno.test("detectSandbox() caches a verdict that holds on disk and probes again when the key changes", async () => {
  const fake = await fakeBwrap(`exec /usr/bin/bwrap "$@"`);
  const cacheFile = `${fake.dir}/cache/sandbox.json`;
  try {
    const first = await detectSandbox(platformWith(fake.dir), { cacheFile });
    assert.equal(first.available, true);
    const probed = await runs(fake.log);
    assert.ok(probed >= 1);
    assert.deepStrictEqual(await detectSandbox(platformWith(fake.dir), { cacheFile }), first);
    assert.equal(await runs(fake.log), probed);
    // A cache written for other profile arguments (or another bwrap, or user) is not trusted.
    const entry = JSON.parse(await platform.fs.readTextFile(cacheFile));
    await platform.fs.writeTextFile(
      cacheFile,
      JSON.stringify({ ...entry, key: entry.key.replace("--cap-drop", "--cap-add") }),
    );
    assert.deepStrictEqual(await detectSandbox(platformWith(fake.dir), { cacheFile }), first);
    assert.equal(await runs(fake.log), probed * 2);
  } finally {
    await platform.fs.remove(fake.dir, { recursive: true });
  }
});

Deno.test("detectSandbox() probes again when a cache entry with the right key holds flags that are not all strings", async () => {
  // The key matching is not enough: the flags are spliced into bwrap's argv, so an entry whose
  // flags are not an array of strings (hand-edited, another version's shape) is probed again, as
  // is one whose flags are not an array at all (the neighbour).
  const fake = await fakeBwrap(`exec /usr/bin/bwrap "$@"`);
  const cacheFile = `${fake.dir}/cache/sandbox.json`;
  try {
    const first = await detectSandbox(platformWith(fake.dir), { cacheFile });
    assert.equal(first.available, true);
    const probed = await runs(fake.log);
    const entry = JSON.parse(await platform.fs.readTextFile(cacheFile));
    let expected = probed;
    for (const flags of [[...entry.flags, 42], "--unshare-user"]) {
      await platform.fs.writeTextFile(cacheFile, JSON.stringify({ ...entry, flags }));
      assert.deepStrictEqual(await detectSandbox(platformWith(fake.dir), { cacheFile }), first);
      expected += probed;
      assert.equal(await runs(fake.log), expected, `flags ${JSON.stringify(flags)} were trusted`);
    }
  } finally {
    await platform.fs.remove(fake.dir, { recursive: true });
  }
});

Deno.test("shell() needs approval naming the failed self-check when the probe got out", async () => {
  const fake = await fakeBwrap(IGNORES_HARDENING);
  try {
    const status = await detectSandbox(platformWith(fake.dir));
    const profile = {
      sandboxMode: "workspace-write" as const,
      approvalPolicy: "on-request" as const,
      workspace: fake.dir,
      writableRoots: [fake.dir],
      readableRoots: [],
      networkAccess: false,
    };
    const shell = createBuiltinTools({ platform, profile, sandbox: status }).find((t) => t.name === "shell")!;
    const need = shell.approval(shell.parseArguments({ command: "ls" }), { cwd: fake.dir });
    assert.equal(need.kind, "required");
    assert.match(
      (need as { reason: string }).reason,
      /^sandbox unavailable \(bwrap does not hold here: the self-check probe remounted \/ read-write;/,
    );
  } finally {
    await platform.fs.remove(fake.dir, { recursive: true });
  }
});

/** A bwrap that drops one option (with its `extra` arguments) when its first argument is `value`. */
function dropping(option: string, value: string, extra: number): string {
  return `n=$#; i=0
while [ $i -lt $n ]; do
  a=$1; shift; i=$((i+1))
  if [ "$a" = ${option} ] && [ "$1" = ${value} ]; then shift ${extra}; i=$((i+${extra})); continue; fi
  set -- "$@" "$a"
done
exec /usr/bin/bwrap "$@"`;
}

// Issue #20 item 1: the probe writes back the value of /proc/sys/kernel/core_uses_pid; a profile
// that leaves /proc/sys writable to root (as bwrap's own --proc does) is reported unavailable.
Deno.test("detectSandbox() as root refuses a profile that leaves /proc/sys writable, naming it", async () => {
  assert.equal(process.getuid?.(), 0, "this test runs as root, as CI does");
  const fake = await fakeBwrap(dropping("--ro-bind", "/proc/sys", 2));
  try {
    const before = await platform.fs.readTextFile("/proc/sys/kernel/core_uses_pid");
    const status = await detectSandbox(platformWith(fake.dir), { cacheFile: `${fake.dir}/sandbox.json` });
    assert.equal(status.available, false);
    assert.match(
      (status as { reason: string }).reason,
      /^bwrap does not hold here: the self-check probe wrote \/proc\/sys$/,
    );
    assert.equal(await platform.fs.lstat(`${fake.dir}/sandbox.json`), null);
    assert.equal(await platform.fs.readTextFile("/proc/sys/kernel/core_uses_pid"), before);
  } finally {
    await platform.fs.remove(fake.dir, { recursive: true });
  }
});

// Issue #20 item 12: a profile without the seccomp filter lets the probe make a setuid file.
Deno.test("detectSandbox() refuses a profile whose seccomp filter did not load (a setuid file could be made)", async () => {
  const fake = await fakeBwrap(dropping("--seccomp", "9", 1));
  try {
    const status = await detectSandbox(platformWith(fake.dir));
    assert.match(
      (status as { reason: string }).reason,
      /^bwrap does not hold here: the self-check probe made a setuid file$/,
    );
  } finally {
    await platform.fs.remove(fake.dir, { recursive: true });
  }
});
