import assert from "node:assert/strict";
import { platform, runCommand } from "../../lib/platform/mod.ts";
import { isKnownSafeCommand } from "../../lib/tools/mod.ts";
import { makeWorkspace, removeWorkspace, toolsFor } from "./_workspace.ts";

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
    "bash -c ls",
    "(ls)",
    "ls\nrm x",
    "",
  ];
  assert.deepStrictEqual(unsafe.filter((c) => isKnownSafeCommand(c)), []);
});

// Issue #13 item 7: `find *` over a file named `-delete` deletes, and `git log *` over `--output=x`
// writes: the check judged the words before the shell expanded them.
Deno.test("isKnownSafeCommand() rejects find, git and rg arguments the shell expands, when real files named -delete and --output=x turn into options", async () => {
  const box = await makeWorkspace();
  try {
    await platform.fs.writeTextFile(`${box.ws}/-delete`, "");
    await platform.fs.writeTextFile(`${box.ws}/--output=x`, "");
    const expanded = await runCommand(platform, {
      cmd: ["bash", "-c", "printf '%s\\n' * -dele\\te -{delete,print}"],
      cwd: box.ws,
      env: { PATH: "/usr/bin:/bin", LC_ALL: "C" },
    });
    assert.equal(expanded.stdout, "--output=x\n-delete\nREADME.md\ndocs\nsrc\n-delete\n-delete\n-print\n");
    const unsafe = [
      "find *",
      "find . -name x -o *",
      "find . -delet?",
      "find . -dele\\te",
      "find . -{delete,print}",
      "find . $OPTS",
      'find . "$OPTS"',
      "git log *",
      "git log -- *",
      "rg TODO *",
      "ls; find *",
      "f*nd .",
    ];
    assert.deepStrictEqual(unsafe.filter((c) => isKnownSafeCommand(c)), []);
    const { shell } = toolsFor(box, {
      sandbox: { available: true, bwrap: "/usr/bin/bwrap", flags: [] },
      profile: { approvalPolicy: "untrusted" },
    });
    assert.deepStrictEqual(shell.approval(shell.parseArguments({ command: "find *" }), { cwd: box.ws }), {
      kind: "required",
      reason: "approval policy untrusted: command is not known to be read-only",
      policyOnly: true,
      subject: { kind: "command", command: "find *", cwd: box.ws, sandbox: "inside" },
    });
  } finally {
    await removeWorkspace(box);
  }
});

Deno.test("isKnownSafeCommand() still accepts globs for programs no option of which writes, and quoted patterns", () => {
  const safe = [
    "ls *",
    "cat *.md | wc -l",
    "grep -rn TODO *",
    "head -n 3 src/*.ts",
    "find . -name '*.ts'",
    'git log -- "*.md"',
    "rg -g '*.ts' TODO",
  ];
  assert.deepStrictEqual(safe.filter((c) => !isKnownSafeCommand(c)), []);
});

// #16 item 7: the words are read by shell-quote, as bash reads them; these are the issue 13 item 7
// attacks and their spellings that only a real shell reader sees through.
Deno.test("isKnownSafeCommand() reads quoting as bash does: quoted and escaped option names, ANSI-C strings, comments and operators are judged after quote removal", () => {
  const unsafe = [
    "find . '-dele'te",
    'find . "-delete"',
    "find . $'\\x2ddelete'",
    'find . $"-delete"',
    "git log '--output'=x",
    "rg --'pre' ./evil foo",
    "echo a#b; rm x",
    "ls ;; rm x",
    "ls |& rm x",
    "ls 2>&1",
    "cat <(rm x)",
    "ls >| x",
    "echo ok\rrm x",
  ];
  assert.deepStrictEqual(unsafe.filter((c) => isKnownSafeCommand(c)), []);
  const safe = [
    "echo 'a\\' ; ls",
    "ls 'a b' \"c;d\"",
    "grep -n 'x|y' file | wc -l",
    // bash refuses an unterminated quote before running any of the line (no newline gets this far)
    "echo 'unterminated",
  ];
  assert.deepStrictEqual(safe.filter((c) => !isKnownSafeCommand(c)), []);
});

Deno.test("isKnownSafeCommand() refuses rg's -z inside a short-flag cluster (rg -iz runs decompressors) but not other clusters", () => {
  assert.deepStrictEqual(
    ["rg -iz foo", "rg -zi foo", "rg -niz foo .", "rg --search-zip=true foo"].filter((c) =>
      isKnownSafeCommand(c)
    ),
    [],
  );
  assert.deepStrictEqual(
    ["rg -in foo", "rg -A3 foo", "rg -g '*.zip' foo"].filter((c) => !isKnownSafeCommand(c)),
    [],
  );
});
