import assert from "node:assert/strict";
import { createContext } from "../../lib/cli/context.ts";
import { humanEventPrinter } from "../../lib/cli/event_printer.ts";
import { type Platform, platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

/** The human printer's stderr for `events`. */
function printed(events: TrellisEventBody[]): string {
  let stderr = "";
  const fake: Platform = { ...platform, writeStderr: (text) => void (stderr += text) };
  const print = humanEventPrinter(createContext(fake));
  for (const event of events) print(event);
  return stderr;
}

const ESC = "\x1b";

Deno.test("humanEventPrinter() prints model, server and hook text with its escape sequences made visible (#13 item 11)", () => {
  const tool = {
    id: "i1",
    type: "tool_call" as const,
    name: "read_file",
    call_id: "c1",
    arguments: `{"command":"echo ${ESC}]52;c;aGk=${ESC}\\\\"}`,
    source: "builtin",
  };
  const out = printed([
    { type: "item.started", item: { ...tool, status: "in_progress", call_status: "in_progress" } },
    {
      type: "item.completed",
      item: { ...tool, status: "failed", call_status: "failed", output: `${ESC}[2J\rboom`, duration_ms: 3 },
    },
    { type: "item.completed", item: { id: "r", type: "reasoning", text: `think ${ESC}[31mred` } },
    { type: "item.completed", item: { id: "e", type: "error", message: `bad\n${ESC}[1Aup` } },
    { type: "warning", message: `server says ${ESC}[?1049h` },
    { type: "notice", message: "\u202eevil" },
    { type: "mcp.server_status", server: "docs", status: "failed", error: `${ESC}c reset` },
    {
      type: "mcp.elicitation",
      server: "docs",
      id: "e1",
      mode: "form",
      message: `fill ${ESC}]0;title${ESC}\\`,
    },
    {
      type: "hook.completed",
      run_id: "h1",
      event: "PreToolUse",
      source: "/h/guard.sh",
      status: "blocked",
      duration_ms: 1,
      display_order: 0,
      entries: [{ kind: "feedback", text: `no ${ESC}[8mhidden` }, { kind: "context", text: "for the model" }],
    },
    { type: "turn.failed", turn_id: "t1", error: { message: `fail ${ESC}[K` } },
  ]);
  assert.equal(
    out,
    [
      '→ read_file {"command":"echo ␛]52;c;aGk=␛\\\\"}',
      "✗ read_file failed (3 ms): ␛[2J boom",
      "· think ␛[31mred",
      "error: bad␊␛[1Aup",
      "warning: server says ␛[?1049h",
      "note: \\u202eevil",
      "mcp: docs failed: ␛c reset",
      "mcp: docs asks: fill ␛]0;title␛\\",
      "hook PreToolUse blocked (/h/guard.sh)",
      "  feedback: no ␛[8mhidden",
      "turn failed: fail ␛[K",
      "",
    ].join("\n"),
  );
});

Deno.test("humanEventPrinter() prints a denial once: no 'denied: denied:' (#16 item 8)", () => {
  const out = printed([
    {
      type: "approval.decided",
      call_id: "c1",
      decision: "denied",
      by: "policy",
      reason: 'writing "/x" outside the writable roots (approval_policy = "never" does not ask)',
    },
    { type: "approval.decided", call_id: "c2", decision: "denied", by: "user" },
    { type: "approval.decided", call_id: "c3", decision: "approved", by: "session" },
  ]);
  assert.equal(
    out,
    'denied: writing "/x" outside the writable roots (approval_policy = "never" does not ask)\n' +
      "denied: by user\n",
  );
});

Deno.test("a warning quoting a config's server name prints its escape sequences as text (#13 item 11)", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    '[mcp_servers."a\\u001b]52;c;aGk=\\u0007\\u001b[2Jb"]\ncommand = "x"\n',
  );
  const run = await runCliCaptured(["debug", "prompt", "--json", "hi"], { env, cwd: root });
  // A bad server entry is reported and that server is not started; the command still runs (#13).
  assert.equal(run.code, 0);
  assert.match(run.stderr, /invalid server name "a␛\]52;c;aGk=␇␛\[2Jb"/);
  // deno-lint-ignore no-control-regex -- no raw control may reach stderr
  assert.doesNotMatch(run.stderr, /[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
});

Deno.test("a config note naming a directory with escape sequences prints them as text (#13 item 11)", async () => {
  const { root, env } = await makeSandboxHome();
  const project = `${root}/p\x1b[2J`;
  await platform.fs.mkdir(`${project}/.git`);
  await platform.fs.mkdir(`${project}/.trellis`);
  await platform.fs.writeTextFile(`${project}/.trellis/config.toml`, 'model = "x"\n');
  const run = await runCliCaptured(["debug", "prompt", "--json", "hi"], { env, cwd: project });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /^note: Skipped .*\/p␛\[2J\/\.trellis\/config\.toml: this project is not trusted/m,
  );
  // deno-lint-ignore no-control-regex -- no raw control may reach stderr
  assert.doesNotMatch(run.stderr, /[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
});
