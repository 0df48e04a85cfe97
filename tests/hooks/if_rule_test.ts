import assert from "node:assert/strict";
import { ifRuleMatches, parseIfRule, type RuleCall } from "../../lib/hooks/mod.ts";

const call = (names: string[], input: unknown): RuleCall => ({ names, input, cwd: "/work", home: "/home/u" });
const bash = (command: string) => call(["Bash", "shell"], { command });
const edit = (file_path: string) => call(["Edit"], { file_path, old_string: "a", new_string: "b" });

function matches(rule: string, target: RuleCall): boolean {
  const parsed = parseIfRule(rule);
  if (!parsed.ok) throw new Error(parsed.error);
  return ifRuleMatches(parsed.rule, target);
}

Deno.test("ifRuleMatches() reads Bash rules as Claude Code does: prefix, glob, exact, any simple command (HK-5)", () => {
  const cases: [string, string, boolean][] = [
    ["Bash(git commit:*)", "git commit -m 'x'", true],
    ["Bash(git commit:*)", "git commit", true],
    ["Bash(git commit:*)", "git commit-tree x", false],
    ["Bash(git commit:*)", "git push", false],
    ["Bash(git push:*)", "ls && git push origin main", true],
    ["Bash(git push:*)", "FOO=bar git push", true],
    ["Bash(git push:*)", "echo $(git push)", true],
    ["Bash(git push:*)", "echo `git push`", true],
    ["Bash(git push:*)", "echo 'git push'", false],
    ["Bash(git *)", "git status", true],
    ["Bash(git *)", "gitk", false],
    ["Bash(ls*)", "lsof", true],
    ["Bash(npm test)", "npm test", true],
    ["Bash(npm test)", "npm test --watch", false],
    ["Bash", "anything at all", true],
    ["shell(git push:*)", "git push", true],
    ["Edit(src/**)", "git push", false],
  ];
  assert.deepStrictEqual(
    cases.map(([rule, command]) => [rule, command, matches(rule, bash(command))]),
    cases,
  );
});

Deno.test("ifRuleMatches() reads path rules gitignore-style against the tool's file_path", () => {
  const cases: [string, string, boolean][] = [
    ["Edit(src/**)", "/work/src/a/b.ts", true],
    ["Edit(src/**)", "src/a.ts", true],
    ["Edit(src/**)", "/work/lib/src/a.ts", false],
    ["Edit(**/src/**)", "/work/lib/src/a.ts", true],
    ["Edit(*.ts)", "/work/deep/x.ts", true],
    ["Edit(*.ts)", "/work/deep/x.md", false],
    ["Edit(//etc/**)", "/etc/hosts", true],
    ["Edit(~/.ssh/**)", "/home/u/.ssh/id_rsa", true],
    ["Edit(./docs/*.md)", "/work/docs/a.md", true],
    ["Read(src/**)", "/work/src/a.ts", false],
  ];
  assert.deepStrictEqual(
    cases.map(([rule, file]) => [rule, file, matches(rule, edit(file))]),
    cases,
  );
});

Deno.test("ifRuleMatches() matches MCP tools by server, wildcard or exact name", () => {
  const tool = call(["mcp__github__create_issue"], { title: "x" });
  assert.deepStrictEqual(
    ["mcp__github", "mcp__github__*", "mcp__github__create_issue", "mcp__git", "mcp__github__list"].map((r) =>
      matches(r, tool)
    ),
    [true, true, true, false, false],
  );
  assert.deepStrictEqual(
    matches("WebFetch(domain:example.com)", call(["WebFetch"], { url: "https://example.com/x" })),
    true,
  );
});

Deno.test("parseIfRule() names what is wrong with a rule that does not parse", () => {
  assert.deepStrictEqual(
    ["Bash(git commit", "(x)", "", "Bash()", 42].map((raw) => parseIfRule(raw)),
    [
      { ok: false, error: '"Bash(git commit" is not a permission rule (expected Tool or Tool(specifier))' },
      { ok: false, error: '"(x)" is not a permission rule (expected Tool or Tool(specifier))' },
      { ok: false, error: '"" is not a permission rule (expected Tool or Tool(specifier))' },
      { ok: false, error: '"Bash()" has an empty specifier (write Bash for every call)' },
      { ok: false, error: "expected a string, got 42" },
    ],
  );
  assert.deepStrictEqual(parseIfRule("Bash(git push:*)"), {
    ok: true,
    rule: { text: "Bash(git push:*)", tool: "Bash", specifier: "git push:*" },
  });
});
