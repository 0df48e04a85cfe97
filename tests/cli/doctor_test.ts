import assert from "node:assert/strict";
import type { DoctorReport } from "../../lib/app/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { pluginSandbox } from "../plugins/_helpers.ts";
import { trustEntry } from "../helpers/trust_project.ts";

// `trellis doctor` (#17 item 5): the subsystems' own checks as one table, a fix per failing row.

const FIXTURE = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;

async function workspace(userConfig: string) {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    `[skills.bundled]\nenabled = false\n${userConfig}`,
  );
  return { root, env: { ...env, SHELL: "/bin/sh" } as Record<string, string>, cwd };
}

async function doctor(t: { env: Record<string, string>; cwd: string }, ...argv: string[]) {
  const run = await runCliCaptured(["doctor", "--json", ...argv], t);
  return { code: run.code, report: JSON.parse(run.stdout) as DoctorReport, stderr: run.stderr };
}

Deno.test("doctor on a healthy tree: every check ok, exit 0", async () => {
  const t = await workspace(`[mcp_servers.good]\ncommand = "node"\nargs = [${JSON.stringify(FIXTURE)}]\n`);
  const { code, report, stderr } = await doctor(t);
  assert.equal(code, 0, stderr + JSON.stringify(report, null, 2));
  assert.equal(report.failed, false);
  assert.deepEqual(report.rows.map((r) => r.check), [
    "config user",
    "trust",
    "sandbox",
    "mcp good",
    "hooks",
    "skills",
    "plugins",
  ]);
  assert.ok(report.rows.every((r) => r.status === "ok"), JSON.stringify(report.rows));
  assert.match(report.rows[3].detail, /^started in \d+ ms, \d+ tools \(.*config\.toml\)$/);
  assert.match(report.rows[2].detail, /bwrap .* passed the self-check/);
});

Deno.test("doctor names a broken config layer, a failing MCP server, a failing hook and a broken skill, each with a fix; exit 1", async () => {
  const t = await workspace(
    `[mcp_servers.bad]\ncommand = "/nonexistent/mcp-server"\n` +
      `[mcp_servers.good]\ncommand = "node"\nargs = [${JSON.stringify(FIXTURE)}]\n`,
  );
  await platform.fs.writeTextFile(
    `${t.env.TRELLIS_HOME}/hooks.json`,
    JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: "command", command: `${t.root}/missing-hook.sh` }] }] },
    }),
  );
  assert.equal((await runCliCaptured(["hooks", "trust", "--all"], t)).code, 0);
  await platform.fs.mkdir(`${t.cwd}/.trellis`);
  await platform.fs.writeTextFile(`${t.cwd}/.trellis/config.toml`, "model = [\n");
  // A trusted project whose own config does not parse: the load leaves it out, doctor names it.
  await platform.fs.appendTextFile(`${t.env.TRELLIS_HOME}/config.toml`, trustEntry(t.cwd));
  const skill = `${t.env.HOME}/.agents/skills/broken`;
  await platform.fs.mkdir(skill);
  await platform.fs.writeTextFile(`${skill}/SKILL.md`, "no front matter here\n");

  const { code, report } = await doctor(t);
  assert.equal(code, 1);
  assert.equal(report.failed, true);
  const failing = report.rows.filter((r) => r.status === "fail");
  assert.deepEqual(
    failing.map((r) => r.check).sort(),
    [
      "config project",
      `hook ${t.env.TRELLIS_HOME}/hooks.json:stop:0:0`,
      "mcp bad",
      "skill broken",
    ].sort(),
    JSON.stringify(report.rows, null, 2),
  );
  for (const r of failing) assert.ok(r.fix && r.fix.length > 0, `${r.check} has a fix`);
  const config = failing.find((r) => r.check === "config project")!;
  assert.match(config.detail, /Invalid TOML in .*\/ws\/\.trellis\/config\.toml:2/);
  assert.match(config.fix!, /\/ws\/\.trellis\/config\.toml:2/);
  assert.equal(report.rows.filter((r) => r.check === "hooks").length, 0, "no 'all hooks work' row");
  const bad = failing.find((r) => r.check === "mcp bad")!;
  assert.match(bad.detail, /nonexistent\/mcp-server/);
  assert.match(bad.fix!, /trellis mcp tools bad/);
  assert.equal(report.rows.find((r) => r.check === "mcp good")!.status, "ok");
  assert.equal(report.rows.find((r) => r.check === "config user")!.status, "ok");

  const text = await runCliCaptured(["doctor"], t);
  assert.equal(text.code, 1);
  const lines = text.stdout.split("\n");
  assert.match(lines[0], /^STATUS\s+CHECK\s+DETAIL$/);
  const badLine = lines.findIndex((l) => /^FAIL\s+mcp bad\s+/.test(l));
  assert.ok(badLine > 0, text.stdout);
  assert.match(lines[badLine + 1], /^\s+fix: run `trellis mcp tools bad`/);
  assert.match(text.stdout, /\n\d+ checks: \d+ ok, \d+ warning\(s\), 4 failed, \d+ skipped\n$/);
});

Deno.test("doctor reports an untrusted project's config as skipped and the trust row says how to trust it", async () => {
  const t = await workspace("");
  await platform.fs.mkdir(`${t.cwd}/.trellis`);
  await platform.fs.writeTextFile(`${t.cwd}/.trellis/config.toml`, 'model = "gpt-5"\n');
  const { code, report } = await doctor(t);
  assert.equal(code, 0);
  const project = report.rows.find((r) => r.check === "config project")!;
  assert.equal(project.status, "skip");
  const trust = report.rows.find((r) => r.check === "trust")!;
  assert.equal(trust.status, "warn");
  assert.match(trust.fix!, /trellis project trust/);
});

Deno.test("doctor with a broken user config.toml: trust is unknown and the fix points at that file, not project trust", async () => {
  const t = await workspace("model = [\n");
  await platform.fs.mkdir(`${t.cwd}/.trellis`);
  await platform.fs.writeTextFile(`${t.cwd}/.trellis/config.toml`, 'model = "gpt-5"\n');
  const { code, report } = await doctor(t);
  assert.equal(code, 1);
  assert.equal(report.rows.find((r) => r.check === "config user")!.status, "fail");
  const trust = report.rows.find((r) => r.check === "trust")!;
  assert.deepEqual([trust.status, trust.fix], [
    "fail",
    `fix ${t.env.TRELLIS_HOME}/config.toml first (see its config row)`,
  ]);
  assert.match(trust.detail, /^unknown: .*config\.toml, which records project trust, did not load$/);
});

Deno.test("doctor --timeout must be a positive number of seconds", async () => {
  const t = await workspace("");
  const run = await runCliCaptured(["doctor", "--timeout", "soon"], t);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /Cannot use --timeout "soon"/);
});

Deno.test("doctor starts MCP servers in parallel, each bounded by --timeout: two that never answer both fail", async () => {
  const slow = new URL("../../fixtures/mcp/slow_init.mjs", import.meta.url).pathname;
  const t = await workspace(
    `[mcp_servers.stuck1]\ncommand = "node"\nargs = [${JSON.stringify(slow)}, "never"]\n` +
      `[mcp_servers.stuck2]\ncommand = "node"\nargs = [${JSON.stringify(slow)}, "never"]\n`,
  );
  const { code, report } = await doctor(t, "--timeout", "1");
  assert.equal(code, 1);
  for (const name of ["stuck1", "stuck2"]) {
    const r = report.rows.find((r) => r.check === `mcp ${name}`)!;
    assert.equal(r.status, "fail");
    assert.match(r.detail, /did not start within 1 s|timed out/);
  }
});

Deno.test("doctor runs plugin verify: a plugin changed since install fails with how to reinstall it", async () => {
  const box = await pluginSandbox();
  assert.equal((await box.cli("plugin", "install", "demo@test")).code, 0);
  const t = { env: { ...box.env, SHELL: "/bin/sh" } as Record<string, string>, cwd: box.root };
  const clean = await doctor(t);
  assert.equal(
    clean.report.rows.find((r) => r.check === "plugins")!.detail,
    "1 installed plugin(s) verified",
  );
  assert.equal(clean.report.rows.some((r) => r.check === "plugin demo@test"), false);
  await platform.fs.writeTextFile(
    `${box.env.TRELLIS_HOME}/plugins/cache/test/demo/1.0.0/hooks/check.sh`,
    "#!/bin/sh\ncurl evil\n",
  );
  const { code, report } = await doctor(t);
  assert.equal(code, 1);
  const row = report.rows.find((r) => r.check === "plugin demo@test")!;
  assert.equal(row.status, "fail");
  assert.match(row.detail, /^modified since install \(expected sha256:[0-9a-f]+\)$/);
  assert.match(row.fix!, /trellis plugin install demo@test/);
});

Deno.test("doctor's fix for a failing server from ~/.claude.json names that file and `mcp disable` (#21 item 9)", async () => {
  const t = await workspace("");
  await platform.fs.writeTextFile(
    `${t.env.HOME}/.claude.json`,
    JSON.stringify({ mcpServers: { broken: { command: "/nonexistent/server-bin" } } }),
  );
  const { code, report } = await doctor(t, "--timeout", "5");
  assert.equal(code, 1);
  const row = report.rows.find((r) => r.check === "mcp broken")!;
  assert.equal(row.status, "fail");
  assert.match(
    row.fix!,
    /fix it in .*\.claude\.json, or switch it off for Trellis only with `trellis mcp disable broken`/,
  );
});
