import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { events, runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

// Issue #21 items 12–14, 16 through the compiled binary: servers as they are published.
const PUBLISHED = new URL("../../fixtures/mcp/published_server.mjs", import.meta.url).pathname;
const SLOW = new URL("../../fixtures/mcp/slow_init.mjs", import.meta.url).pathname;

const server = (name: string, args: string[], extra = "") =>
  `[mcp_servers.${name}]\ncommand = "node"\nargs = ${JSON.stringify(args)}\n${extra}`;

Deno.test("e2e: exec --json keeps a malformed server, sends its instructions, ends every status; a dead server is named by its error line", async () => {
  const s = await e2eSetup();
  await Deno.writeTextFile(
    `${s.env.TRELLIS_HOME}/config.toml`,
    "mcp_startup_grace_sec = 0\n" +
      server("gitlab", [PUBLISHED, "gitlab"], "required = true\n") +
      server("notes", [PUBLISHED, "instructions"], "required = true\n") +
      server("slow", [SLOW, "never"], "startup_timeout_sec = 120\n"),
  );
  const model = await startFixtureModelServer({ script: [{ text: "done" }] });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(model.url), "hi"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const all = events(run.stdout);
    const sent = JSON.stringify(model.requests[0]);
    assert.ok(sent.includes("mcp__gitlab__create_issue"));
    assert.ok(sent.includes("## notes\\nAlways pass the project path as an absolute path."));
    const final = new Map(
      all.filter((e) => e.type === "mcp.server_status").map((e) => [e.server, e]),
    );
    assert.equal(final.get("gitlab")?.status, "ready");
    assert.equal(final.get("slow")?.status, "cancelled");
    const summary = all.filter((e) => e.type === "mcp.startup_complete");
    assert.equal(summary.length, 1);
    assert.deepEqual(summary[0].cancelled.includes("slow"), true);
    assert.ok(all.some((e) => e.type === "warning" && /inputSchema lacks "type": "object"/.test(e.message)));

    // A server that dies at start: doctor names its error line and log; mcp list remembers it.
    await Deno.writeTextFile(`${s.env.TRELLIS_HOME}/config.toml`, server("crash", [PUBLISHED, "crash"]));
    const doctor = await runTrellis(["doctor"], { env: s.env, cwd: s.workspace });
    const reason = "Error: GITLAB_PERSONAL_ACCESS_TOKEN environment variable is not set";
    assert.ok(
      (doctor.stdout + doctor.stderr).includes(`server process exited (code 1): ${reason}`),
      doctor.stdout,
    );
    const list = await runTrellis(["mcp", "list"], { env: s.env, cwd: s.workspace });
    assert.match(
      list.stdout,
      /crash: last start failed \(.*\): server process exited \(code 1\): Error: GITLAB/,
    );
    assert.ok(list.stdout.includes(`stderr: ${s.env.TRELLIS_HOME}/logs/mcp/crash.log`));
  } finally {
    await model.close();
    await Deno.remove(s.root, { recursive: true });
  }
});
