import assert from "node:assert/strict";
import { detectSandbox, type Platform, platform, sandboxArgv } from "../../lib/platform/mod.ts";
import { makeWorkspace, removeWorkspace } from "./_workspace.ts";

Deno.test("sandboxArgv() binds existing writable roots read-write and unshares the network by default", async () => {
  const box = await makeWorkspace();
  const argv = sandboxArgv(["bash", "-lc", "make"], {
    mode: "workspace-write",
    writableRoots: [box.ws, box.root, `${box.root}/missing`, box.ws],
    networkAccess: false,
    cwd: box.ws,
  });
  assert.deepStrictEqual(argv, [
    "bwrap",
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
    ...["--bind", box.root, box.root, "--bind", box.ws, box.ws],
    "--unshare-net",
    ...["--unshare-pid", "--die-with-parent", "--new-session", "--chdir", box.ws, "--"],
    ...["bash", "-lc", "make"],
  ]);
  await removeWorkspace(box);
});

Deno.test("sandboxArgv() binds nothing and keeps the network off when the mode is read-only", () => {
  const argv = sandboxArgv(["ls"], {
    mode: "read-only",
    writableRoots: ["/tmp"],
    networkAccess: true,
    cwd: "/",
  }, "/b");
  assert.deepStrictEqual(argv, [
    "/b",
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net"],
    ...["--unshare-pid", "--die-with-parent", "--new-session", "--chdir", "/", "--", "ls"],
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

Deno.test("detectSandbox() probes once per platform and finds bwrap when it can create a namespace", async () => {
  const first = detectSandbox(platform);
  assert.equal(detectSandbox(platform), first);
  const status = await first;
  if (status.available) assert.match(status.bwrap, /\/bwrap$/);
  else assert.match(status.reason, /^bwrap (not found|cannot create a sandbox: )/);
});
