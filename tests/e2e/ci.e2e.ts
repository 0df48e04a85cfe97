/**
 * #25 item 3 (CI): `exec` outside a git repository, `--skip-git-repo-check`, `--full-auto`, and the
 * exit codes a CI job reads (0 done, 1 turn failed, 2 usage or config error).
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { runTrellis, trellisArgv } from "./_binary.ts";
import { e2eSetup, modelFixture } from "./_setup.ts";

/** Codex 0.171's sentence, byte for byte (captured from `codex exec hi` in a directory without git). */
const REFUSAL = "Not inside a trusted directory and --skip-git-repo-check was not specified.";

/** The binary without the test harnesses' `--skip-git-repo-check`: the refusal itself is under test. */
async function runUnchecked(args: string[], options: { env: Record<string, string>; cwd: string }) {
  const [bin, ...pre] = trellisArgv();
  const out = await new Deno.Command(bin, {
    args: [...pre, ...args],
    cwd: options.cwd,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...options.env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

function sessionFiles(home: string): string[] {
  try {
    return [...Deno.readDirSync(`${home}/sessions`)].map((e) => e.name);
  } catch {
    return [];
  }
}

Deno.test("exec outside a git repo refuses as codex exec does: exit 1, Codex's sentence, no model call, no transcript (#25 item 3)", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({ script: [{ text: "never" }] });
  try {
    // A trusted project is refused too: Codex 0.171 refuses a trusted directory without git.
    await Deno.writeTextFile(
      `${s.env.TRELLIS_HOME}/config.toml`,
      `[projects.${JSON.stringify(s.workspace)}]\ntrust_level = "trusted"\n`,
    );
    const run = await runUnchecked(["exec", ...s.flags(server.url), "hi"], { env: s.env, cwd: s.workspace });
    assert.equal(run.code, 1, run.stderr);
    assert.ok(run.stderr.includes(REFUSAL), run.stderr);
    assert.doesNotMatch(run.stderr, /\s+at\s/);
    assert.equal(run.stdout, "");
    assert.equal(server.requests.length, 0);
    assert.deepEqual(sessionFiles(s.env.TRELLIS_HOME), []);
    // The neighbours it must also stop: `exec resume`, and -C from inside a repo into a directory outside it.
    const resumed = await runUnchecked(["exec", "resume", "--last", ...s.flags(server.url), "hi"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(resumed.code, 1, resumed.stderr);
    assert.ok(resumed.stderr.includes(REFUSAL), resumed.stderr);
    await Deno.mkdir(`${s.root}/repo/.git`, { recursive: true });
    const away = await runUnchecked(["exec", "-C", s.workspace, ...s.flags(server.url), "hi"], {
      env: s.env,
      cwd: `${s.root}/repo`,
    });
    assert.equal(away.code, 1, away.stderr);
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});

Deno.test("exec runs inside a git repo (a .git directory or a worktree's .git file, at any ancestor) and anywhere with --skip-git-repo-check (#25 item 3)", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({
    script: [{ text: "one" }, { text: "two" }, { text: "three" }],
  });
  try {
    await Deno.mkdir(`${s.root}/repo/.git`, { recursive: true });
    await Deno.mkdir(`${s.root}/repo/src/deep`, { recursive: true });
    const inRepo = await runUnchecked(["exec", ...s.flags(server.url), "hi"], {
      env: s.env,
      cwd: `${s.root}/repo/src/deep`,
    });
    assert.deepEqual([inRepo.code, inRepo.stdout], [0, "one\n"], inRepo.stderr);
    await Deno.mkdir(`${s.root}/worktree`);
    await Deno.writeTextFile(`${s.root}/worktree/.git`, `gitdir: ${s.root}/repo/.git/worktrees/w\n`);
    const inWorktree = await runUnchecked(["exec", ...s.flags(server.url), "hi"], {
      env: s.env,
      cwd: `${s.root}/worktree`,
    });
    assert.deepEqual([inWorktree.code, inWorktree.stdout], [0, "two\n"], inWorktree.stderr);
    // After `resume` too: Codex's flag is global to exec's subcommands.
    const skipped = await runUnchecked(
      ["exec", "resume", "--last", "--skip-git-repo-check", ...s.flags(server.url), "again"],
      { env: s.env, cwd: s.workspace },
    );
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.equal(skipped.stdout, "three\n");
    assert.ok(!skipped.stderr.includes(REFUSAL));
  } finally {
    await server.close();
  }
});

Deno.test("--full-auto runs under the workspace-write sandbox with Codex's deprecation warning; beside another -s it is a usage error (#25 item 3)", async () => {
  const s = await e2eSetup();
  const home = s.env.HOME;
  const server = await startFixtureModelServer({ script: modelFixture("shell_touch") });
  try {
    // $HOME defaults to read-only (#20 item 5): only the sandbox --full-auto picks lets `touch` write.
    const run = await runTrellis(["exec", "--full-auto", ...s.flags(server.url), "touch it"], {
      env: s.env,
      cwd: home,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(
      run.stderr.includes("warning: `--full-auto` is deprecated; use `--sandbox workspace-write` instead."),
      run.stderr,
    );
    assert.ok(await Deno.stat(`${home}/approved.txt`));
    const clash = await runTrellis(["exec", "--full-auto", "-s", "read-only", ...s.flags(server.url), "x"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(clash.code, 2);
    assert.match(clash.stderr, /Cannot use --full-auto with --sandbox read-only/);
    // The same sandbox named twice is no contradiction.
    const same = await runTrellis([
      "exec",
      "--full-auto",
      "-s",
      "workspace-write",
      ...s.flags(server.url),
      "x",
    ], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(same.code, 0, same.stderr);
  } finally {
    await server.close();
  }
});

Deno.test("exec's exit codes: 0 done, 1 turn failed (the model's error), 2 usage or config error (#25 item 3)", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({
    script: [{ text: "fine" }, { fail: { status: 400, body: '{"error":{"message":"bad request"}}' } }],
  });
  try {
    const done = await runTrellis(["exec", ...s.flags(server.url), "hi"], { env: s.env, cwd: s.workspace });
    assert.deepEqual([done.code, done.stdout], [0, "fine\n"], done.stderr);
    const failed = await runTrellis(["exec", ...s.flags(server.url), "hi"], { env: s.env, cwd: s.workspace });
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /bad request/);
    const usage = await runTrellis(["exec", "--no-such-flag", "hi"], { env: s.env, cwd: s.workspace });
    assert.equal(usage.code, 2);
    const config = await runTrellis(["exec", "-c", "model_provider=nope", "hi"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(config.code, 2);
    assert.doesNotMatch(usage.stderr + config.stderr, /\s+at\s/);
  } finally {
    await server.close();
  }
});
