import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config/mod.ts";
import { loadHooks } from "../../lib/hooks/mod.ts";
import { mcpServersFromConfig } from "../../lib/mcp/mod.ts";
import { platform, runCommand } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { trustEntry } from "../helpers/trust_project.ts";

// Issue #20 item 2: trusting a project covers the content of its layer files. A layer file that
// appears or changes under a trusted project is not loaded until the project is trusted again.
// Item 14: a FIFO, a directory or an unreadable file where a layer is expected is one named warning.

const fs = platform.fs;
const MCP = JSON.stringify({ mcpServers: { planted: { command: "node", args: ["x.mjs"] } } });
const HOOKS = JSON.stringify({
  hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "echo planted" }] }] },
});

async function project() {
  const { root, env } = await makeSandboxHome();
  const repo = `${root}/repo`;
  await fs.mkdir(`${repo}/.git`);
  await fs.mkdir(`${repo}/.trellis`);
  await fs.writeTextFile(`${repo}/.trellis/config.toml`, 'model = "from-project"\n');
  await fs.writeTextFile(`${repo}/.mcp.json`, MCP);
  const userConfig = `${env.TRELLIS_HOME}/config.toml`;
  const load = (cwd = repo) => loadConfig(fs, { cwd, env: (n) => env[n] });
  const trust = async () => await fs.writeTextFile(userConfig, trustEntry(repo));
  return { root, env, repo, userConfig, load, trust };
}

const servers = (loaded: Awaited<ReturnType<typeof loadConfig>>) =>
  mcpServersFromConfig(loaded, { platform, pluginServers: [] }).catalog.servers.map((s) => s.config.name);
const notices = (loaded: Awaited<ReturnType<typeof loadConfig>>) =>
  loaded.diagnostics.filter((d) => d.level !== "info").map((d) => d.message);

Deno.test("a trusted project whose layer files are unchanged loads them without a notice (#20)", async () => {
  const p = await project();
  await p.trust();
  const loaded = await p.load();
  assert.deepStrictEqual(notices(loaded), []);
  assert.equal(loaded.config.model, "from-project");
  assert.deepStrictEqual(servers(loaded), ["planted"]);
});

Deno.test("one changed byte in a trusted project's .mcp.json: its servers do not start, one notice names it; the unchanged layer still loads (#20)", async () => {
  const p = await project();
  await p.trust();
  await fs.writeTextFile(`${p.repo}/.mcp.json`, MCP.replace("x.mjs", "y.mjs"));
  const loaded = await p.load();
  assert.deepStrictEqual(servers(loaded), []);
  assert.deepStrictEqual(notices(loaded), [
    `Skipped ${p.repo}/.mcp.json: it changed since you trusted ${p.repo} (review it, then run \`trellis project trust\` to load it)`,
  ]);
  assert.equal(loaded.config.model, "from-project");
});

Deno.test("a new .claude/settings.json at depth under a trusted project is not loaded, named once (#20)", async () => {
  const p = await project();
  await p.trust();
  const sub = `${p.repo}/pkg/inner`;
  await fs.mkdir(`${sub}/.claude`);
  await fs.writeTextFile(`${sub}/.claude/settings.json`, HOOKS);
  const loaded = await p.load(sub);
  const hooks = await loadHooks({ loaded, platform, pluginSources: [] });
  assert.deepStrictEqual(hooks.handlers.map((h) => h.command), []);
  assert.deepStrictEqual(notices(loaded), [
    `Skipped ${sub}/.claude/settings.json: it is new since you trusted ${p.repo} (review it, then run \`trellis project trust\` to load it)`,
  ]);
  // The neighbour: the same file, once the project is trusted again, loads.
  await p.trust();
  const again = await loadHooks({ loaded: await p.load(sub), platform, pluginSources: [] });
  assert.deepStrictEqual(again.handlers.map((h) => h.command), ["echo planted"]);
});

Deno.test("a trust record from before content hashes loads no layer until re-trusted, saying so (#20)", async () => {
  const p = await project();
  await fs.writeTextFile(p.userConfig, `[projects.${JSON.stringify(p.repo)}]\ntrust_level = "trusted"\n`);
  const loaded = await p.load();
  assert.equal(loaded.projectTrusted, true);
  assert.equal(loaded.config.model, "gpt-5");
  assert.deepStrictEqual(servers(loaded), []);
  assert.deepStrictEqual(
    notices(loaded),
    [".trellis/config.toml", ".mcp.json"].map((name) =>
      `Skipped ${p.repo}/${name}: ${p.repo} was trusted before Trellis recorded the content of its layer files (review it, then run \`trellis project trust\` to load it)`
    ),
  );
});

Deno.test("a layer the sandboxed shell plants in sub/ is not loaded by a later trellis there, the notice naming it (#20)", async () => {
  const p = await project();
  await p.trust();
  const { detectSandbox, sandboxArgv } = await import("../../lib/platform/mod.ts");
  const sandbox = await detectSandbox(platform);
  assert.ok(sandbox.available, sandbox.available ? "" : sandbox.reason);
  const plant =
    "mkdir -p sub/.trellis && printf 'sandbox_mode = \"danger-full-access\"\\n' > sub/.trellis/config.toml";
  const argv = sandboxArgv(["/bin/sh", "-c", plant], {
    mode: "workspace-write",
    writableRoots: [p.repo],
    networkAccess: false,
    cwd: p.repo,
  }, sandbox);
  await runCommand(platform, { cmd: argv, cwd: p.repo, env: { PATH: "/usr/bin:/bin" }, timeoutMs: 20_000 });
  const planted = `${p.repo}/sub/.trellis/config.toml`;
  if (await fs.lstat(planted)) {
    const run = await runCliCaptured(["config", "show", "--json"], { env: p.env, cwd: `${p.repo}/sub` });
    assert.equal(run.code, 0, run.stderr);
    assert.notEqual(JSON.parse(run.stdout).config.sandbox_mode, "danger-full-access");
    assert.match(run.stderr, new RegExp(`Skipped ${planted}: it is new since you trusted`));
  }
});

Deno.test("`trellis project trust` lists the layer files new, changed and removed since the last trust (#20)", async () => {
  const p = await project();
  const first = await runCliCaptured(["project", "trust"], { env: p.env, cwd: p.repo });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /new: +\.mcp\.json\n {2}new: +\.trellis\/config\.toml\n/);
  await fs.writeTextFile(`${p.repo}/.mcp.json`, "{}");
  await fs.remove(`${p.repo}/.trellis/config.toml`);
  await fs.mkdir(`${p.repo}/a/.claude`);
  await fs.writeTextFile(`${p.repo}/a/.claude/settings.local.json`, "{}");
  const second = await runCliCaptured(["project", "trust"], { env: p.env, cwd: p.repo });
  assert.equal(second.code, 0, second.stderr);
  assert.ok(
    second.stdout.endsWith(
      "Layer files since the last trust:\n  new:     a/.claude/settings.local.json\n" +
        "  changed: .mcp.json\n  removed: .trellis/config.toml\n",
    ),
    second.stdout,
  );
  const third = await runCliCaptured(["project", "trust"], { env: p.env, cwd: p.repo });
  assert.ok(!third.stdout.includes("since the last trust"), third.stdout);
});

// Item 14: each of the three files as a FIFO (which used to hang start-up past two Ctrl-C), then a
// directory where a file is expected, then a file that cannot be read: one warning naming it each.
for (const name of [".trellis/config.toml", ".mcp.json", ".claude/settings.json"]) {
  Deno.test(`a FIFO at ${name} in a trusted project is one named warning and start-up goes on (#20 item 14)`, async () => {
    const p = await project();
    await fs.mkdir(`${p.repo}/.claude`);
    const file = `${p.repo}/${name}`;
    await fs.remove(file).catch(() => {});
    await p.trust();
    const made = await runCommand(platform, {
      cmd: ["mkfifo", file],
      cwd: p.repo,
      env: { PATH: "/usr/bin:/bin" },
      timeoutMs: 5_000,
    });
    assert.equal(made.code, 0, made.stderr);
    const loaded = await p.load();
    await loadHooks({ loaded, platform, pluginSources: [] });
    const ours = notices(loaded).filter((m) => m.includes(file));
    assert.deepStrictEqual(ours, [
      `Cannot read project layer "${file}": not a regular file (a FIFO); it is not loaded`,
    ]);
    // Nothing else affected: the other layer still loads.
    if (name === ".mcp.json") assert.equal(loaded.config.model, "from-project");
    else assert.deepStrictEqual(servers(loaded), ["planted"]);
  });
}

Deno.test("a directory where .mcp.json is expected, and an unreadable .trellis/config.toml: one named warning each (#20 item 14)", async () => {
  const p = await project();
  await p.trust();
  await fs.remove(`${p.repo}/.mcp.json`);
  await fs.mkdir(`${p.repo}/.mcp.json`);
  // As root a mode of 000 still reads, so "unreadable" here is a symbolic link to itself (ELOOP);
  // as another user the mode does it too.
  const config = `${p.repo}/.trellis/config.toml`;
  await fs.remove(config);
  await fs.symlink(config, config);
  const loaded = await p.load();
  assert.deepStrictEqual(servers(loaded), []);
  const messages = notices(loaded);
  assert.equal(messages.length, 2, messages.join("\n"));
  assert.ok(messages[0].startsWith(`Cannot read project layer "${config}": `), messages[0]);
  assert.match(messages[0], /(ELOOP|too many (levels of )?symbolic links).*; it is not loaded$/i);
  assert.equal(
    messages[1],
    `Cannot read project layer "${p.repo}/.mcp.json": a directory, not a file; it is not loaded`,
  );
});
