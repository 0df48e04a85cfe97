import assert from "node:assert/strict";
import { isKnownSafeCommand } from "../../lib/tools/mod.ts";

Deno.test("isKnownSafeCommand() accepts read-only programs, pipelines and sequences", () => {
  const safe = [
    "ls -la",
    "cat README.md | head -n 5",
    "pwd && echo done",
    "grep -rn 'TODO' src; wc -l src/*.ts",
    "rg --files",
    'find . -name "*.ts"',
    "git status",
    "git log --oneline -5 || git diff HEAD~1",
    "tail -n 20 log.txt",
  ];
  assert.deepStrictEqual(safe.filter((c) => !isKnownSafeCommand(c)), []);
});

Deno.test("isKnownSafeCommand() rejects writes, substitutions and unknown programs", () => {
  const unsafe = [
    "rm -rf /",
    "echo hi > file",
    "cat a >> b",
    "ls $(whoami)",
    "ls `id`",
    "find . -delete",
    "find . -exec rm {} ;",
    "git push",
    "git -c core.pager=sh log",
    "git diff --output=x",
    "rg --pre ./evil foo",
    "ls & rm x",
    "ls |",
    "FOO=1 ls",
    "echo 'unterminated",
    "bash -c ls",
    "(ls)",
    "ls\nrm x",
    "",
  ];
  assert.deepStrictEqual(unsafe.filter((c) => isKnownSafeCommand(c)), []);
});
