import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { call, makeWorkspace, readIfExists, removeWorkspace, toolsFor } from "./_workspace.ts";

// Issue #13 item 5: the file tools write protected paths inside writable roots only with an
// approval of that write, the reason naming the protected path.

const WHY = "(it configures what runs outside the sandbox)";

Deno.test("write_file() needs approval, naming the protected path, for .trellis, .mcp.json, .claude, .codex, .agents and .git", async () => {
  const box = await makeWorkspace();
  const { write_file } = toolsFor(box);
  const targets = [
    [".trellis/config.toml", ".trellis"],
    [".mcp.json", ".mcp.json"],
    [".claude/settings.json", ".claude"],
    [".codex/config.toml", ".codex"],
    [".agents/skills/x/SKILL.md", ".agents"],
    [".git/hooks/pre-commit", ".git"],
    ["sub/repo/.git/config", "sub/repo/.git"],
    // #20 item 2: a layer a later `trellis` in sub/ would load, at any depth.
    ["sub/.trellis/config.toml", "sub/.trellis"],
    ["a/b/.claude/settings.json", "a/b/.claude"],
    [`${box.tmp}/.mcp.json`, `${box.tmp}/.mcp.json`],
  ];
  for (const [path, guarded] of targets) {
    const target = path.startsWith("/") ? path : `${box.ws}/${path}`;
    const protectedPath = guarded.startsWith("/") ? guarded : `${box.ws}/${guarded}`;
    const got = await call(write_file, box, { path, content: "planted" });
    assert.deepStrictEqual(got, {
      approval: {
        kind: "required",
        reason: `writing "${target}" inside the protected path "${protectedPath}" ${WHY}`,
        subject: { kind: "path", path: target, access: "write" },
      },
      result: {
        status: "denied",
        output:
          `Cannot write "${path}": writing "${target}" inside the protected path "${protectedPath}" ${WHY} requires approval`,
      },
    });
    assert.equal(await readIfExists(target), null);
  }
  await removeWorkspace(box);
});

Deno.test("edit_file() needs approval inside .git and writes once that exact write is approved", async () => {
  const box = await makeWorkspace();
  await platform.fs.mkdir(`${box.ws}/.git`);
  await platform.fs.writeTextFile(`${box.ws}/.git/config`, "[core]\n\tbare = false\n");
  const { edit_file } = toolsFor(box);
  const args = { path: ".git/config", old_string: "false", new_string: "true" };
  const denied = await call(edit_file, box, args);
  assert.equal(denied.result.status, "denied");
  assert.equal(await readIfExists(`${box.ws}/.git/config`), "[core]\n\tbare = false\n");
  const approved = await call(edit_file, box, args, { escalated: true });
  assert.deepStrictEqual(approved.result, {
    status: "success",
    output: `Edited ${box.ws}/.git/config (1 replacement)`,
  });
  assert.equal(await readIfExists(`${box.ws}/.git/config`), "[core]\n\tbare = true\n");
  await removeWorkspace(box);
});

Deno.test("write_file() keeps $TRELLIS_HOME read-only when the workspace is $HOME, and reads none of its secrets", async () => {
  const box = await makeWorkspace();
  const home = `${box.ws}/.trellis`;
  await platform.fs.mkdir(`${home}/credentials`);
  await platform.fs.writeTextFile(`${home}/credentials/mcp-docs.json`, '{"tokens":"secret"}');
  await platform.fs.writeTextFile(`${home}/config.toml`, 'model = "gpt-5"\n');
  const { write_file, read_file } = toolsFor(box, { profile: { trellisHome: home } });
  const write = await call(write_file, box, {
    path: ".trellis/config.toml",
    content: 'sandbox_mode = "danger-full-access"',
  });
  const read = await call(read_file, box, { path: ".trellis/credentials/mcp-docs.json" });
  assert.deepStrictEqual([write.approval, read.approval], [
    {
      kind: "required",
      reason: `writing "${home}/config.toml" inside the protected path "${home}" ${WHY}`,
      subject: { kind: "path", path: `${home}/config.toml`, access: "write" },
    },
    {
      kind: "required",
      reason: `reading "${home}/credentials/mcp-docs.json": "${home}/credentials" holds Trellis's secrets`,
      subject: { kind: "path", path: `${home}/credentials/mcp-docs.json`, access: "read" },
    },
  ]);
  assert.deepStrictEqual([write.result.status, read.result.status], ["denied", "denied"]);
  assert.equal(await readIfExists(`${home}/config.toml`), 'model = "gpt-5"\n');
  await removeWorkspace(box);
});

Deno.test("write_file() writes ordinary files whose names only resemble protected ones without approval", async () => {
  const box = await makeWorkspace();
  const { write_file } = toolsFor(box);
  for (const path of [".gitignore", "docs/.mcp.json.example", "src/claude.ts", ".github/workflows/ci.yml"]) {
    assert.deepStrictEqual((await call(write_file, box, { path, content: "x" })).approval, { kind: "none" });
  }
  await removeWorkspace(box);
});

Deno.test("write_file() writes a protected path without asking when the sandbox mode is danger-full-access", async () => {
  const box = await makeWorkspace();
  const { write_file } = toolsFor(box, { profile: { sandboxMode: "danger-full-access" } });
  const got = await call(write_file, box, { path: ".mcp.json", content: "{}" });
  assert.deepStrictEqual([got.approval, got.result.status], [{ kind: "none" }, "success"]);
  await removeWorkspace(box);
});

Deno.test("shell() needs approval, naming it, when a protected name is a symbolic link the sandbox cannot hold", async () => {
  const box = await makeWorkspace();
  try {
    await platform.fs.mkdir(`${box.ws}/dotfiles`);
    await platform.fs.symlink("dotfiles", `${box.ws}/.claude`);
    const { shell } = toolsFor(box, { sandbox: { available: true, bwrap: "/usr/bin/bwrap", flags: [] } });
    const why = `sandbox unavailable (protected path "${box.ws}/.claude" is a symbolic link, ` +
      "which the sandbox cannot keep read-only)";
    const got = await call(shell, box, { command: "rm .claude && mkdir .claude" });
    assert.deepStrictEqual(got, {
      approval: {
        kind: "required",
        reason: `${why}: the command would run without one`,
        subject: {
          kind: "command",
          command: "rm .claude && mkdir .claude",
          cwd: box.ws,
          sandbox: "unavailable",
        },
      },
      result: { status: "denied", output: `Cannot run "rm .claude && mkdir .claude": ${why}` },
    });
    assert.equal((await platform.fs.lstat(`${box.ws}/.claude`))?.isSymlink, true);
  } finally {
    await removeWorkspace(box);
  }
});
