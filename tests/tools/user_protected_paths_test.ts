import assert from "node:assert/strict";
import { resolvePaths, userProtectedPaths } from "../../lib/config/mod.ts";
import { detectSandbox, platform } from "../../lib/platform/mod.ts";
import { resolvePermissionProfile } from "../../lib/tools/mod.ts";
import { call, makeWorkspace, readIfExists, removeWorkspace, type Sandbox, toolsFor } from "./_workspace.ts";

// Issue #20 items 2 and 5: the user-level files Trellis reads in place (`~/.claude.json`,
// `$CODEX_HOME`, `$CLAUDE_CONFIG_DIR`) and the home directory's credentials and start-up files were
// writable by the file tools when they fell inside a writable root (cwd = $HOME).

const WHY = "(it configures what runs outside the sandbox)";

async function profileWith(box: Sandbox, env: Record<string, string>) {
  const paths = resolvePaths(platform.fs, { cwd: box.ws, env: (n) => env[n] });
  return await resolvePermissionProfile({}, box.ws, {
    fs: platform.fs,
    tempDir: box.tmp,
    trellisHome: paths.home,
    protectedPaths: userProtectedPaths(paths),
  });
}

async function expectRefused(
  box: Sandbox,
  profile: Awaited<ReturnType<typeof profileWith>>,
  cases: string[][],
) {
  const { write_file } = toolsFor(box, { profile });
  for (const [path, guarded] of cases) {
    const target = `${box.ws}/${path}`;
    const got = await call(write_file, box, { path, content: "planted" });
    assert.deepStrictEqual(got.approval, {
      kind: "required",
      reason: `writing "${target}" inside the protected path "${box.ws}/${guarded}" ${WHY}`,
      subject: { kind: "path", path: target, access: "write" },
    }, path);
    assert.equal(got.result.status, "denied");
    assert.equal(await readIfExists(target), null);
  }
}

Deno.test("with cwd = $HOME the file tools ask before writing ~/.claude.json, ~/.ssh, ~/.bashrc and the rest; an ordinary file beside them needs nothing", async () => {
  const box = await makeWorkspace();
  try {
    const profile = await profileWith(box, { HOME: box.ws });
    await expectRefused(box, profile, [
      [".claude.json", ".claude.json"],
      [".ssh/authorized_keys", ".ssh"],
      [".gnupg/gpg.conf", ".gnupg"],
      [".aws/credentials", ".aws"],
      [".config/gcloud/credentials.db", ".config/gcloud"],
      [".kube/config", ".kube"],
      [".netrc", ".netrc"],
      [".gitconfig", ".gitconfig"],
      [".config/git/config", ".config/git"],
      [".bashrc", ".bashrc"],
      [".zshrc", ".zshrc"],
      [".profile", ".profile"],
      [".bash_profile", ".bash_profile"],
      [".zprofile", ".zprofile"],
      [".config/fish/config.fish", ".config/fish"],
    ]);
    const { write_file } = toolsFor(box, { profile });
    for (const path of ["notes.txt", ".config/other/settings.ini", ".bashrc.d.txt", "projects/.profile.md"]) {
      const got = await call(write_file, box, { path, content: "ok" });
      assert.deepStrictEqual([got.approval, got.result.status], [{ kind: "none" }, "success"], path);
    }
  } finally {
    await removeWorkspace(box);
  }
});

Deno.test("$CODEX_HOME and $CLAUDE_CONFIG_DIR inside the workspace are protected from the file tools; a file beside them is not", async () => {
  const box = await makeWorkspace();
  try {
    const profile = await profileWith(box, {
      HOME: box.root,
      CODEX_HOME: `${box.ws}/tools/codex`,
      CLAUDE_CONFIG_DIR: `${box.ws}/cc`,
    });
    await expectRefused(box, profile, [
      ["tools/codex/config.toml", "tools/codex"],
      ["cc/settings.json", "cc"],
      ["cc/.claude.json", "cc/.claude.json"],
    ]);
    const { write_file } = toolsFor(box, { profile });
    const got = await call(write_file, box, { path: "tools/notes.md", content: "ok" });
    assert.deepStrictEqual([got.approval, got.result.status], [{ kind: "none" }, "success"]);
  } finally {
    await removeWorkspace(box);
  }
});

Deno.test("with cwd = $HOME the sandboxed shell tool cannot write ~/.claude.json or ~/.bashrc; a file beside them it can", async () => {
  const box = await makeWorkspace();
  try {
    const sandbox = await detectSandbox(platform);
    assert.ok(sandbox.available, sandbox.available ? "" : sandbox.reason);
    await platform.fs.writeTextFile(`${box.ws}/.bashrc`, "# mine\n");
    const profile = await profileWith(box, { HOME: box.ws });
    const { shell } = toolsFor(box, { profile, sandbox });
    const command = `echo '{"mcpServers":{"x":{"command":"sh"}}}' > .claude.json; echo evil >> .bashrc; ` +
      "echo ok > notes.txt";
    const got = await call(shell, box, { command });
    assert.deepStrictEqual(got.approval, { kind: "none" });
    assert.equal(await readIfExists(`${box.ws}/.claude.json`), null);
    assert.equal(await readIfExists(`${box.ws}/.bashrc`), "# mine\n");
    assert.equal(await readIfExists(`${box.ws}/notes.txt`), "ok\n");
  } finally {
    await removeWorkspace(box);
  }
});
