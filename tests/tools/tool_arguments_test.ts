import assert from "node:assert/strict";
import { TrellisError } from "../../lib/shared/mod.ts";
import { truncateOutput } from "../../lib/tools/mod.ts";
import { toolsFor } from "./_workspace.ts";

const box = { root: "/w", ws: "/w/ws", outside: "/w/outside", tmp: "/w/tmp" };
const tools = toolsFor(box);

function parseError(tool: string, raw: unknown): { message: string; code: string; field: unknown } {
  try {
    tools[tool].parseArguments(raw);
  } catch (error) {
    assert.ok(error instanceof TrellisError);
    return { message: error.message, code: error.code, field: error.data.field };
  }
  throw new Error("expected parseArguments to throw");
}

Deno.test("parseArguments() throws a readable error naming the field when arguments are bad", () => {
  assert.deepStrictEqual(
    [
      parseError("read_file", {}),
      parseError("read_file", '{"path": "a", "offset": "3"}'),
      parseError("edit_file", { path: "a", old_string: "x", new_string: "x" }),
      parseError("shell", "{not json"),
      parseError("write_file", { path: "a" }),
    ],
    [
      {
        message:
          'Cannot parse arguments for "read_file": path: Invalid input: expected string, received undefined',
        code: "tool_arguments",
        field: "path",
      },
      {
        message:
          'Cannot parse arguments for "read_file": offset: Invalid input: expected number, received string',
        code: "tool_arguments",
        field: "offset",
      },
      {
        message: 'Cannot parse arguments for "edit_file": new_string: new_string must differ from old_string',
        code: "tool_arguments",
        field: "new_string",
      },
      {
        message: 'Cannot parse arguments for "shell": arguments are not valid JSON',
        code: "tool_arguments",
        field: undefined,
      },
      {
        message:
          'Cannot parse arguments for "write_file": content: Invalid input: expected string, received undefined',
        code: "tool_arguments",
        field: "content",
      },
    ],
  );
});

Deno.test("createBuiltinTools() declares Claude Code hook names and JSON schemas for every tool", () => {
  const declared = Object.values(tools).map((t) => ({
    name: t.name,
    hookName: t.hookName,
    hookAliases: t.hookAliases,
    parallel: t.parallel,
    type: t.parameters.type,
    hasSchemaUri: "$schema" in t.parameters,
  }));
  const row = (name: string, hookName: string, parallel: boolean, hookAliases: string[] = []) => ({
    name,
    hookName,
    hookAliases,
    parallel,
    type: "object",
    hasSchemaUri: false,
  });
  assert.deepStrictEqual(declared, [
    row("read_file", "Read", true),
    row("list_dir", "LS", true),
    row("glob", "Glob", true),
    row("grep", "Grep", true),
    row("write_file", "Write", false),
    row("edit_file", "Edit", false),
    row("shell", "Bash", false, ["shell", "shell_command", "exec_command"]),
    // #23 item 3: hooks see the everyday tools under Claude Code's names.
    row("update_plan", "TodoWrite", false, ["update_plan"]),
    row("view_image", "Read", true, ["view_image"]),
    row("web_fetch", "WebFetch", true, ["web_fetch"]),
    row("request_user_input", "AskUserQuestion", false, ["request_user_input"]),
  ]);
});

Deno.test("toHookInput() gives Claude Code's tool_input shape and fromHookInput() reverses it (HK-9)", () => {
  const cases: [string, unknown, unknown][] = [
    ["read_file", { path: "a.ts", offset: 2, limit: 3 }, { file_path: "/w/ws/a.ts", offset: 2, limit: 3 }],
    ["write_file", { path: "a.ts", content: "x" }, { file_path: "/w/ws/a.ts", content: "x" }],
    [
      "edit_file",
      { path: "a.ts", old_string: "a", new_string: "b" },
      { file_path: "/w/ws/a.ts", old_string: "a", new_string: "b", replace_all: false },
    ],
    ["shell", { command: "ls" }, { command: "ls" }],
    ["glob", { pattern: "*.ts" }, { pattern: "*.ts" }],
    ["grep", { pattern: "x", include: "*.ts" }, { pattern: "x", glob: "*.ts" }],
    ["list_dir", { path: "src" }, { path: "/w/ws/src" }],
  ];
  for (const [name, raw, hookInput] of cases) {
    const tool = tools[name];
    const args = tool.parseArguments(raw);
    assert.deepStrictEqual(tool.toHookInput(args), hookInput, name);
    assert.deepStrictEqual(tool.toHookInput(tool.fromHookInput(tool.toHookInput(args))), hookInput, name);
  }
});

Deno.test("fromHookInput() validates a rewritten input when a PreToolUse hook returns updatedInput (HK-9)", () => {
  assert.deepStrictEqual(tools.shell.fromHookInput({ command: "echo safe", timeout: 5000 }), {
    command: "echo safe",
    timeout_ms: 5000,
  });
  assert.throws(
    () => tools.write_file.fromHookInput({ file_path: 3 }),
    /Cannot parse arguments for "write_file": path/,
  );
  assert.throws(() => tools.shell.fromHookInput("ls"), /hook input must be a JSON object/);
});

Deno.test("truncateOutput() keeps head and tail and counts omitted bytes when over budget", () => {
  const text = "a".repeat(50) + "é".repeat(50) + "z".repeat(50);
  const cut = truncateOutput(text, 60);
  const [head, note, tail] = cut.split("\n");
  assert.deepStrictEqual([head, tail], ["a".repeat(30), "z".repeat(30)]);
  assert.equal(note, `[… ${200 - 60} bytes omitted …]`);
  assert.equal(truncateOutput("short", 60), "short");
});
