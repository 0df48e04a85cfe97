import assert from "node:assert/strict";
import { parseJsonText } from "../../lib/shared/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { trustEntry } from "../helpers/trust_project.ts";

// Issue #21 item 11: a broken settings file is named with the line and column of its first problem.

Deno.test("parseJsonText() gives the line and column of the first problem, in words", () => {
  const cases: [string, string][] = [
    ['{"a": 1,}', "line 1, column 9: expected a property name in double quotes"],
    ['{\n  "a": 1\n  "b": 2\n}', "line 3, column 3: expected a comma"],
    ['{\n  // note\n  "a": 1\n}', "line 2, column 3: comments are not allowed in JSON"],
    ["", "line 1, column 1: expected a value"],
    ["[1, 2", "line 1, column 6: expected ]"],
  ];
  for (const [text, message] of cases) {
    assert.deepStrictEqual(parseJsonText(text), { ok: false, message }, text);
  }
  // The neighbour: valid JSON parses as JSON.parse parses it.
  assert.deepStrictEqual(parseJsonText('{"a": [1, {"b": null}]}'), {
    ok: true,
    value: { a: [1, { b: null }] },
  });
});

Deno.test("a .mcp.json and a ~/.claude.json with a trailing comma are named with line and column", async () => {
  const { root, env } = await makeSandboxHome();
  const project = `${root}/p`;
  await platform.fs.mkdir(project);
  await platform.fs.writeTextFile(
    `${project}/.mcp.json`,
    '{\n  "mcpServers": {\n    "a": {"command": "x"},\n  }\n}\n',
  );
  await platform.fs.writeTextFile(`${env.TRELLIS_HOME}/config.toml`, trustEntry(project));
  await platform.fs.writeTextFile(`${env.HOME}/.claude.json`, '{"mcpServers": {"b": {"command": "y"}}\n');
  const run = await runCliCaptured(["mcp", "list"], { env, cwd: project });
  assert.match(
    run.stderr,
    /Cannot parse ".*\/p\/\.mcp\.json": line 4, column 3: expected a property name in double quotes/,
  );
  assert.match(run.stderr, /\.claude\.json.*not JSON \(line 2, column 1: expected }\)/);
});
