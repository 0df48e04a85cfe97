import assert from "node:assert/strict";
import { detectSandbox, type Platform, platform, sandboxArgv } from "../../lib/platform/mod.ts";
import { makeWorkspace, removeWorkspace } from "./_workspace.ts";

/**
 * The argv without the masks over host sockets and the host's optional kernel binds, which depend
 * on the machine (tested in tests/platform/).
 */
function withoutHostMasks(argv: string[], keepUnder: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const masked = argv[i] === "--tmpfs"
      ? argv[i + 1]
      : argv[i] === "--ro-bind" && argv[i + 1] === "/dev/null"
      ? argv[i + 2]
      : undefined;
    const hostKernel = argv[i] === "--ro-bind" && ["/proc/fs", "/proc/acpi"].includes(argv[i + 1]);
    if (hostKernel) {
      i += 2;
      continue;
    }
    if (masked !== undefined && !masked.startsWith(keepUnder)) {
      i += argv[i] === "--tmpfs" ? 1 : 2;
      continue;
    }
    out.push(argv[i]);
  }
  return out;
}

/** Every profile starts by handing bwrap its seccomp filter as fd 9 (#20 items 6 and 12). */
function seccompPrefix(argv: string[]): string[] {
  assert.deepStrictEqual(argv.slice(0, 3), ["/bin/sh", "-c", 'exec "$@" 9<"$0"']);
  assert.match(argv[3], /\/trellis-sandbox-seccomp-\d+\/filter-[0-9a-f]{16}\.bpf$/);
  return argv.slice(0, 4);
}

/** /proc/sys read-only in every profile (#20 item 1); /proc/fs and /proc/acpi depend on the host. */
const KERNEL = ["--ro-bind", "/proc/sys", "/proc/sys"];

const HARDENED = [
  ...["--unshare-user", "--disable-userns", "--cap-drop", "ALL"],
  ...["--unshare-ipc", "--unshare-pid", "--die-with-parent", "--new-session"],
];

Deno.test("sandboxArgv() binds existing writable roots read-write, protects their config names and unshares the network", async () => {
  const box = await makeWorkspace();
  await platform.fs.mkdir(`${box.ws}/.git`);
  const argv = sandboxArgv(["bash", "-lc", "make"], {
    mode: "workspace-write",
    writableRoots: [box.ws, box.root, `${box.root}/missing`, box.ws],
    networkAccess: false,
    cwd: box.ws,
  });
  const placeholders = [".codex", ".claude", ".agents", ".trellis", ".mcp.json"]
    .flatMap((name) => ["--ro-bind", "/dev/null", `${box.ws}/${name}`]);
  assert.deepStrictEqual(withoutHostMasks(argv, box.root), [
    ...seccompPrefix(argv),
    ...["bwrap", "--seccomp", "9"],
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
    ...["--bind", box.root, box.root, "--bind", box.ws, box.ws],
    ...["--ro-bind", `${box.ws}/.git`, `${box.ws}/.git`, ...placeholders],
    ...KERNEL,
    "--unshare-net",
    ...HARDENED,
    ...["--chdir", box.ws, "--", "bash", "-lc", "make"],
  ]);
  await removeWorkspace(box);
});

Deno.test("sandboxArgv() binds nothing and keeps the network off when the mode is read-only", () => {
  const argv = sandboxArgv(["ls"], {
    mode: "read-only",
    writableRoots: ["/tmp"],
    networkAccess: true,
    cwd: "/",
  }, {
    bwrap: "/b",
    flags: [],
  });
  assert.deepStrictEqual(withoutHostMasks(argv, "/nowhere"), [
    ...seccompPrefix(argv),
    ...["/b", "--seccomp", "9"],
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", ...KERNEL, "--unshare-net"],
    ...HARDENED.slice(2),
    ...["--chdir", "/", "--", "ls"],
  ]);
});

Deno.test("sandboxArgv() keeps the network when network_access is true and returns argv unchanged for full access", () => {
  const policy = { mode: "workspace-write" as const, writableRoots: [], networkAccess: true, cwd: "/" };
  assert.ok(!sandboxArgv(["ls"], policy).includes("--unshare-net"));
  assert.deepStrictEqual(sandboxArgv(["ls", "-l"], { ...policy, mode: "danger-full-access" }), ["ls", "-l"]);
});

Deno.test("detectSandbox() reports bwrap not found when PATH holds no bwrap", async () => {
  const empty: Platform = { ...platform, env: (name) => (name === "PATH" ? "/nonexistent" : undefined) };
  assert.deepStrictEqual(await detectSandbox(empty), { available: false, reason: "bwrap not found" });
});

Deno.test("detectSandbox() probes once per platform and finds that bwrap holds here (it is installed here and in CI)", async () => {
  const first = detectSandbox(platform);
  assert.equal(detectSandbox(platform), first);
  const status = await first;
  assert.ok(status.available, `bwrap must hold here: ${!status.available && status.reason}`);
  assert.match(status.bwrap, /\/bwrap$/);
  assert.ok(status.flags.includes("--unshare-user"), `a user namespace here: ${status.flags}`);
});
