/**
 * The one policy function every caller of the bwrap profile builder uses (#17 item 2): shell's
 * read-only stays read-only whatever network_access says; a confinement asking for writable
 * directories or the network in read-only binds exactly those.
 */
import assert from "node:assert/strict";
import { sandboxArgv } from "../../lib/platform/mod.ts";
import { confinedPolicy, type PermissionProfile, sandboxPolicyFor } from "../../lib/tools/mod.ts";

const profile = (over: Partial<PermissionProfile>): PermissionProfile => ({
  sandboxMode: "read-only",
  approvalPolicy: "on-request",
  workspace: "/nonexistent-ws",
  writableRoots: ["/tmp"],
  readableRoots: [],
  networkAccess: true,
  ...over,
});

Deno.test("sandboxPolicyFor(): shell in read-only binds nothing and has no network even with network_access = true", () => {
  const argv = sandboxArgv(["true"], sandboxPolicyFor(profile({}), "/", {}), { bwrap: "bwrap", flags: [] });
  assert.ok(argv.includes("--unshare-net"));
  assert.ok(!argv.includes("--bind"));
  const ws = sandboxArgv(["true"], sandboxPolicyFor(profile({ sandboxMode: "workspace-write" }), "/", {}), {
    bwrap: "bwrap",
    flags: [],
  });
  assert.ok(!ws.includes("--unshare-net") && ws.includes("--bind"));
});

Deno.test("confinedPolicy(): read-only with a writable directory or the network binds exactly that (#17 item 2)", () => {
  const base = profile({ sandboxMode: "workspace-write", trellisHome: "/nonexistent-home" });
  const policy = confinedPolicy(base, "/", {}, {
    mode: "read-only",
    writableRoots: ["/tmp"],
    networkAccess: false,
  });
  assert.deepStrictEqual([policy.mode, policy.writableRoots, policy.networkAccess, policy.trellisHome], [
    "workspace-write",
    ["/tmp"],
    false,
    "/nonexistent-home",
  ]);
  const plain = confinedPolicy(base, "/", {}, { mode: "read-only", writableRoots: [], networkAccess: false });
  assert.deepStrictEqual(plain.mode, "read-only");
  const net = confinedPolicy(base, "/", {}, { mode: "read-only", writableRoots: [], networkAccess: true });
  const argv = sandboxArgv(["true"], net, { bwrap: "bwrap", flags: [] });
  assert.ok(!argv.includes("--unshare-net") && !argv.includes("--bind"));
});
