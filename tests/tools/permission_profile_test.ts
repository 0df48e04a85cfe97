import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { resolvePermissionProfile } from "../../lib/tools/mod.ts";
import { makeWorkspace, removeWorkspace } from "./_workspace.ts";

Deno.test("resolvePermissionProfile() canonicalizes workspace, writable roots and temp dir when given config keys", async () => {
  const box = await makeWorkspace();
  await platform.fs.symlink(box.ws, `${box.root}/ws-link`);
  const profile = await resolvePermissionProfile(
    {
      sandbox_mode: "workspace-write",
      approval_policy: "never",
      sandbox_workspace_write: {
        writable_roots: ["../outside", `${box.root}/not-yet/x`],
        network_access: true,
      },
    },
    `${box.root}/ws-link`,
    { fs: platform.fs, tempDir: `${box.root}/tmp/../tmp`, extraReadableRoots: [`${box.root}/ws-link/docs`] },
  );
  assert.deepStrictEqual(profile, {
    sandboxMode: "workspace-write",
    approvalPolicy: "never",
    workspace: box.ws,
    writableRoots: [box.ws, box.outside, `${box.root}/not-yet/x`, box.tmp],
    readableRoots: [`${box.ws}/docs`],
    networkAccess: true,
  });
  await removeWorkspace(box);
});

Deno.test("resolvePermissionProfile() uses Codex defaults and skips the temp dir when exclude_tmpdir_env_var", async () => {
  const box = await makeWorkspace();
  const profile = await resolvePermissionProfile(
    { sandbox_workspace_write: { exclude_tmpdir_env_var: true } },
    box.ws,
    { fs: platform.fs, tempDir: box.tmp },
  );
  assert.deepStrictEqual(profile, {
    sandboxMode: "workspace-write",
    approvalPolicy: "on-request",
    workspace: box.ws,
    writableRoots: [box.ws],
    readableRoots: [],
    networkAccess: false,
  });
  await removeWorkspace(box);
});

Deno.test("resolvePermissionProfile() canonicalizes $TRELLIS_HOME and sandbox_workspace_write.allow_unix_sockets", async () => {
  const box = await makeWorkspace();
  await platform.fs.symlink(box.outside, `${box.root}/run-link`);
  const profile = await resolvePermissionProfile(
    { sandbox_workspace_write: { allow_unix_sockets: ["../run-link/docker.sock"] } },
    box.ws,
    { fs: platform.fs, tempDir: box.tmp, trellisHome: `${box.root}/run-link/../home` },
  );
  assert.deepStrictEqual([profile.trellisHome, profile.allowUnixSockets], [
    `${box.root}/home`,
    [`${box.outside}/docker.sock`],
  ]);
  await removeWorkspace(box);
});

Deno.test("resolvePermissionProfile() gives every readable root (skill folder) its real path: through a symlinked parent, a symlinked child, a missing one", async () => {
  const box = await makeWorkspace();
  await platform.fs.mkdir(`${box.outside}/skills/a`);
  await platform.fs.mkdir(`${box.outside}/skills/b`);
  await platform.fs.mkdir(`${box.outside}/elsewhere`);
  await platform.fs.symlink(box.outside, `${box.root}/plugin-link`);
  await platform.fs.symlink(`${box.outside}/elsewhere`, `${box.outside}/skills/c`);
  const via = `${box.root}/plugin-link/skills`;
  const profile = await resolvePermissionProfile({}, box.ws, {
    fs: platform.fs,
    tempDir: box.tmp,
    extraReadableRoots: [`${via}/a`, `${via}/b`, `${via}/c`, `${via}/gone`],
  });
  assert.deepStrictEqual(profile.readableRoots, [
    `${box.outside}/skills/a`,
    `${box.outside}/skills/b`,
    `${box.outside}/elsewhere`,
    `${box.outside}/skills/gone`,
  ]);
  await removeWorkspace(box);
});
