import assert from "node:assert/strict";
import { platform, type SandboxPolicy } from "../../lib/platform/mod.ts";
import {
  confinedPolicy,
  createBuiltinTools,
  type PermissionProfile,
  sandboxPolicyFor,
} from "../../lib/tools/mod.ts";
import { type Box, makeBox, NOBODY, removeBox, runInSandbox, runtime } from "./_sandbox_box.ts";

// Issue #20 item 1: root in the sandbox is the host's uid 0 without capabilities, and a sysctl file
// checks the uid: a sandboxed `sh` wrote /proc/sys/kernel/core_pattern, which the kernel runs as real
// root. Every profile keeps the kernel's interfaces read-only. The writes here only ever write back
// the value just read, so a sandbox that does not hold changes nothing on the host.

/** Kernel interfaces bound read-only inside, whoever runs the sandbox. */
const READ_ONLY = ["/proc/sys", "/proc/sys/kernel", "/proc/sys/fs/binfmt_misc", "/sys", "/sys/fs/cgroup"]
  .filter((path) => platform.fs.sync.lstat(path) !== null);

const SCRIPT = `v=$(cat /proc/sys/kernel/core_pattern) && echo "read=$v"
(printf '%s\\n' "$v" > /proc/sys/kernel/core_pattern) 2>/dev/null && echo "core_pattern=written" || echo "core_pattern=refused"
read -r pid < /proc/sys/kernel/core_uses_pid && (echo "$pid" > /proc/sys/kernel/core_uses_pid) 2>/dev/null && echo "core_uses_pid=written"
(: > /sys/trellis-probe) 2>/dev/null && echo "sys=written"
ls /sys/kernel >/dev/null && echo "sys=readable"
# The knobs bwrap keeps read-only itself where this user could write them (and /proc/fs, /proc/acpi).
for f in /proc/sysrq-trigger /proc/irq/default_smp_affinity /proc/irq/*/smp_affinity /proc/bus/pci/*/* \
  $(find /proc/fs /proc/acpi /proc/sys -type f 2>/dev/null); do
  [ -f "$f" ] && [ -w "$f" ] && echo "writable=$f"
done
echo ---; cat /proc/self/mountinfo`;

/** Whether the mount `path` is on, inside the sandbox (the last one stacked there wins), is read-only. */
function readOnlyInside(mountinfo: string, path: string): boolean {
  let best: { point: string; options: string } | undefined;
  for (const line of mountinfo.trim().split("\n")) {
    const fields = line.split(" ");
    const point = fields[4];
    const covers = point === "/" || path === point || path.startsWith(`${point}/`);
    if (covers && (!best || point.length >= best.point.length)) best = { point, options: fields[5] };
  }
  return best?.options.split(",").includes("ro") ?? false;
}

function profileOf(
  ws: string,
  mode: PermissionProfile["sandboxMode"],
  networkAccess = false,
): PermissionProfile {
  return {
    sandboxMode: mode,
    approvalPolicy: "on-request",
    workspace: ws,
    writableRoots: [ws],
    readableRoots: [],
    networkAccess,
  };
}

const env = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" };
/** Every kind of profile the builder makes: shell and hooks (the session's), confined MCP servers. */
const PROFILES: [string, (box: Box) => SandboxPolicy][] = [
  ["the shell's read-only", (box) => sandboxPolicyFor(profileOf(box.ws, "read-only"), box.ws, env)],
  [
    "the shell's workspace-write",
    (box) => sandboxPolicyFor(profileOf(box.ws, "workspace-write"), box.ws, env),
  ],
  [
    "the shell's workspace-write with the network",
    (box) => sandboxPolicyFor(profileOf(box.ws, "workspace-write", true), box.ws, env),
  ],
  [
    "a confined MCP server's read-only",
    (box) =>
      confinedPolicy(profileOf(box.ws, "workspace-write"), box.ws, env, {
        mode: "read-only",
        writableRoots: [],
        networkAccess: false,
        readableRoots: [box.outside],
      }),
  ],
];

for (const [name, policyOf] of PROFILES) {
  for (const [who, as] of [["root", undefined], ["nobody", NOBODY]] as const) {
    Deno.test(`sandboxArgv() keeps /proc/sys, /sys and the other kernel interfaces read-only in ${name} as ${who}`, async () => {
      const box = await makeBox();
      try {
        const host = (await platform.fs.readTextFile("/proc/sys/kernel/core_pattern")).trim();
        const result = await runInSandbox(policyOf(box), SCRIPT, { as: as && [...as] });
        const [out, mountinfo = ""] = result.stdout.split("---\n");
        // The neighbour: reading them still works (the same value as outside).
        assert.equal(out, `read=${host}\ncore_pattern=refused\nsys=readable\n`, result.stderr);
        assert.deepStrictEqual(READ_ONLY.filter((path) => !readOnlyInside(mountinfo, path)), []);
        // The sandbox's own /proc stays usable.
        assert.ok(readOnlyInside(mountinfo, "/proc/sys") && !readOnlyInside(mountinfo, "/proc/self"));
      } finally {
        await removeBox(box);
      }
    });
  }
}

Deno.test("shell() as root cannot write back /proc/sys/kernel/core_pattern, and still reads it", async () => {
  const box = await makeBox();
  try {
    const quiet = { ...platform, env: (n: string) => env[n as keyof typeof env], envAll: () => ({ ...env }) };
    const shell = createBuiltinTools({
      platform: quiet,
      profile: profileOf(box.ws, "workspace-write"),
      sandbox: await runtime(),
    }).find((t) => t.name === "shell")!;
    const args = shell.parseArguments({
      command: `v=$(cat /proc/sys/kernel/core_pattern) && echo read && ` +
        `{ (printf '%s\\n' "$v" > /proc/sys/kernel/core_pattern) 2>/dev/null && echo written || echo refused; }`,
    });
    const result = await shell.run(args, {
      callId: "c",
      cwd: box.ws,
      signal: new AbortController().signal,
      emit: () => {},
      escalated: false,
    });
    assert.equal(shell.approval(args, { cwd: box.ws }).kind, "none");
    assert.match(result.output, /read\nrefused\n/);
  } finally {
    await removeBox(box);
  }
});
