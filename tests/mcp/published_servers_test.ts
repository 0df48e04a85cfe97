import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { fixture, runContext, startRuntime, stdio } from "./_helpers.ts";

/** Servers as they are published (issue #21 items 12–14, 16), through a real subprocess each. */
const PUBLISHED = fixture("published_server.mjs");

function warnings(events: TrellisEventBody[], server: string): string[] {
  return events.flatMap((e) => e.type === "warning" && e.subject === server ? [e.message] : []);
}

Deno.test("a server whose schemas lack type: object is kept, repaired, and warned about once (#21 item 12)", async () => {
  const { runtime, events } = await startRuntime([stdio("gitlab", [PUBLISHED, "gitlab"])]);
  await runtime.awaitStartup({ graceMs: 60_000 });
  const step = runtime.captureStep();
  try {
    assert.equal(runtime.manager.servers.get("gitlab")!.connection.status.state, "ready");
    const byName = new Map(step.tools.map((t) => [t.name, t]));
    assert.deepEqual(byName.get("mcp__gitlab__create_issue")?.parameters, {
      type: "object",
      properties: {
        project_id: { type: "string", description: "Project ID or URL-encoded path" },
        title: { type: "string" },
      },
      required: ["project_id", "title"],
    });
    // No properties: an object with no parameters.
    assert.deepEqual(byName.get("mcp__gitlab__list_projects")?.parameters, {
      type: "object",
      description: "no parameters",
      properties: {},
    });
    const found = warnings(events, "gitlab");
    assert.deepEqual(found, [
      'MCP server \'gitlab\': tools create_issue, list_projects, get_file: inputSchema lacks "type": "object"; ' +
      "taken as an object schema",
    ]);
    // A repaired tool is callable.
    const tool = byName.get("mcp__gitlab__create_issue")!;
    const { ctx } = runContext();
    const result = await tool.run({ project_id: "a/b", title: "t" }, ctx);
    assert.equal(result.status, "success");
    assert.match(result.output, /called create_issue with \{"project_id":"a\/b","title":"t"\}/);
    // A re-listing that meets the same broken tools says nothing again.
    runtime.manager.servers.get("gitlab")!.connection.markToolsStale();
    await runtime.awaitToolLists();
    assert.equal(warnings(events, "gitlab").length, 1);
  } finally {
    step.release();
    await runtime.shutdown();
  }
});

Deno.test("tool schemas that are true, null, an array, 5 MB or a string type: each named, the rest loads (#21 item 12)", async () => {
  const { runtime, events } = await startRuntime([stdio("bad", [PUBLISHED, "bad_schemas"])]);
  await runtime.awaitStartup({ graceMs: 60_000 });
  const step = runtime.captureStep();
  try {
    const names = step.tools.map((t) => t.name).filter((n) => n.startsWith("mcp__"));
    assert.deepEqual(names.sort(), ["mcp__bad__bad_output", "mcp__bad__good", "mcp__bad__schema_true"]);
    const found = warnings(events, "bad").map((m) => m.replace("MCP server 'bad': ", ""));
    assert.deepEqual(found.sort(), [
      "tool #7: name is missing; the tool is not offered",
      "tool bad_output: outputSchema is an array, not an object schema; left out",
      "tool schema_array: inputSchema is an array, not a JSON schema object; the tool is not offered",
      "tool schema_huge: inputSchema is 5.0 MB, over the 2.0 MB limit; the tool is not offered",
      "tool schema_null: inputSchema is null, not a JSON schema object; the tool is not offered",
      'tool schema_string: inputSchema has type "string"; tool arguments must be an object; the tool is not offered',
      "tool schema_true: inputSchema is true (accept anything); taken as no parameters",
    ]);
    // Nothing of the 5 MB schema reaches a declaration.
    assert.ok(JSON.stringify(step.tools.map((t) => t.parameters)).length < 10_000);
  } finally {
    step.release();
    await runtime.shutdown();
  }
});

Deno.test("a server that dies at start is reported by its error line and its log, not its last frame (#21 item 14)", async () => {
  const { runtime, home } = await startRuntime([stdio("crash", [PUBLISHED, "crash"])]);
  await runtime.awaitStartup({ graceMs: 60_000 });
  const status = runtime.manager.servers.get("crash")!.connection.status;
  await runtime.shutdown();
  assert.equal(status.state, "failed");
  const error = status.state === "failed" ? status.error : "";
  const log = `${home}/logs/mcp/crash.log`;
  assert.equal(
    error,
    `server process exited (code 1): Error: GITLAB_PERSONAL_ACCESS_TOKEN environment variable is not set (stderr: ${log})`,
  );
  // The whole stack is in the log the message names.
  assert.match(await platform.fs.readTextFile(log), /at ModuleJob\.run[\s\S]*Node\.js v20/);
});

Deno.test("mcp list and doctor show how a server's last start failed; a later good start clears it (#21 item 14)", async () => {
  const { root, env } = await makeSandboxHome();
  const config = `${env.TRELLIS_HOME}/config.toml`;
  const write = (mode: string) =>
    platform.fs.writeTextFile(
      config,
      `[mcp_servers.gl]\ncommand = "node"\nargs = ["${PUBLISHED}", "${mode}"]\n`,
    );
  const cli = (...argv: string[]) => runCliCaptured(argv, { env, cwd: root });
  await write("crash");
  const reason = "Error: GITLAB_PERSONAL_ACCESS_TOKEN environment variable is not set";
  const doctor = await cli("doctor");
  assert.match(doctor.stdout + doctor.stderr, new RegExp(`mcp gl.*${reason}`));
  const listed = await cli("mcp", "list");
  assert.match(
    listed.stdout,
    new RegExp(`gl: last start failed \\(\\S+\\): server process exited \\(code 1\\): ${reason}`),
  );
  assert.match(listed.stdout, /stderr: .*logs\/mcp\/gl\.log/);
  const json = JSON.parse((await cli("mcp", "list", "--json")).stdout);
  assert.match(json[0].last_start_failure.error, new RegExp(reason));
  // The neighbour: the same server fixed starts ready, and the record is gone.
  await write("gitlab");
  await cli("doctor");
  const again = await cli("mcp", "list");
  assert.doesNotMatch(again.stdout, /last start failed/);
});
