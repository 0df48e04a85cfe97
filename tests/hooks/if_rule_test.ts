import assert from "node:assert/strict";
import { judgeIfRule, parseIfRule, type RuleCall } from "../../lib/hooks/mod.ts";

const call = (names: string[], input: unknown): RuleCall => ({ names, input, cwd: "/work", home: "/home/u" });
const bash = (command: string) => call(["Bash", "shell"], { command });
const edit = (file_path: string) => call(["Edit"], { file_path, old_string: "a", new_string: "b" });

async function matches(rule: string, target: RuleCall): Promise<boolean> {
  const parsed = parseIfRule(rule);
  if (!parsed.ok) throw new Error(parsed.error);
  return (await judgeIfRule(parsed.rule, target)).matches;
}

/** Each [rule, command, expected] with what the rule says about the command. */
async function judgeAll(cases: [string, string, boolean][]) {
  const out: [string, string, boolean][] = [];
  for (const [rule, command] of cases) out.push([rule, command, await matches(rule, bash(command))]);
  return out;
}

Deno.test("judgeIfRule() reads Bash rules as Claude Code does: prefix, glob, exact, any simple command (HK-5)", async () => {
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
  assert.deepStrictEqual(await judgeAll(cases), cases);
});

Deno.test("judgeIfRule() reads path rules gitignore-style against the tool's file_path", async () => {
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
  const out = [];
  for (const [rule, file] of cases) out.push([rule, file, await matches(rule, edit(file))]);
  assert.deepStrictEqual(out, cases);
});

Deno.test("judgeIfRule() matches MCP tools by server, wildcard or exact name", async () => {
  const tool = call(["mcp__github__create_issue"], { title: "x" });
  const rules = [
    "mcp__github",
    "mcp__github__*",
    "mcp__github__create_issue",
    "mcp__git",
    "mcp__github__list",
  ];
  assert.deepStrictEqual(
    await Promise.all(rules.map((r) => matches(r, tool))),
    [true, true, true, false, false],
  );
  assert.deepStrictEqual(
    await matches("WebFetch(domain:example.com)", call(["WebFetch"], { url: "https://example.com/x" })),
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

/** The verdict on `command`, with the reason when it could not be read. */
async function verdict(rule: string, command: string | string[]) {
  const parsed = parseIfRule(rule);
  if (!parsed.ok) throw new Error(parsed.error);
  return await judgeIfRule(parsed.rule, call(["Bash", "shell"], { command }));
}

Deno.test("judgeIfRule() sees `rm` in every form of issue #20 item 8: blocks, wrappers, paths, -c strings", async () => {
  const commands = [
    "{ rm x; }",
    "if true; then rm x; fi",
    "time rm x",
    "nohup rm x",
    "exec rm x",
    "env rm x",
    "command rm x",
    "/bin/rm x",
    'bash -c "rm x"',
    "xargs rm",
    "sudo rm x",
  ];
  const out = [];
  for (const command of commands) out.push([command, await verdict("Bash(rm:*)", command)]);
  // A certain match: no "unjudged" reason, so no warning either.
  assert.deepStrictEqual(out, commands.map((command) => [command, { matches: true }]));
});

Deno.test("judgeIfRule() looks through shell syntax and wrappers with their options (#20 item 8)", async () => {
  const fires = [
    "ls && (cd /tmp; rm x)",
    "while true; do rm x; done",
    "for f in a b; do rm $f; done",
    "case $x in a) rm x;; esac",
    "f() { rm x; }",
    "echo $(echo `rm x`)",
    "diff <(rm x) y",
    "cat <<EOF\n$(rm x)\nEOF",
    "X=$(rm x)",
    "export X=$(rm x)",
    "! rm x",
    "rm x 2>/dev/null | tee log &",
    "./rm x",
    "r\\m x",
    "'r'\"m\" x",
    "$'\\x72m' x",
    "sudo -u root -E -- rm x",
    "sudo -iu admin VAR=1 rm x",
    "doas -u root rm x",
    "env -i -u HOME FOO=1 - rm x",
    "nice -n 5 ionice -c 3 rm x",
    "nice -5 rm x",
    "timeout -s KILL 10s rm x",
    "stdbuf -oL -e 0 rm x",
    "chrt -f 10 setsid -f rm x",
    "strace -f -o /tmp/log -e trace=file rm x",
    "exec -a name rm x",
    "time -p rm x",
    "builtin command rm x",
    "xargs -0 -n 1 -I{} rm {}",
    "find . -name '*.o' -exec rm -f {} \\;",
    "watch -n 1 rm x",
    "watch -x rm x",
    "busybox rm x",
    "bash -euo pipefail -c 'rm x'",
    "sh -c 'sudo rm x' sh",
    "zsh -c 'env bash -c \"rm x\"'",
    "/usr/bin/sudo /usr/bin/env /bin/rm x",
    "su - root -c 'rm x'",
    "su -lc 'rm x' admin",
    "runuser -u admin --command='rm x'",
    "flock /tmp/lock -c 'rm x'",
    "flock -w 5 /tmp/lock rm x",
    "sg wheel 'rm x'",
    "chroot --userspec=1:1 /srv rm x",
    "unshare -r -w /tmp rm x",
    "nsenter -t 1 -m rm x",
    "bash <<'EOF'\nrm x\nEOF",
    "sudo sh <<< 'rm x'",
    "bash -s <<EOF\ncd x && rm y\nEOF",
  ];
  const spared = [
    "echo rm",
    "grep rm file",
    "ls",
    "rmdir x",
    "echo 'rm x'",
    "git rm x",
    "command -v rm",
    "cat <<'EOF'\n$(rm x)\nEOF",
    "bash rm.sh",
    "sudo ls rm",
    "xargs echo rm",
    "find . -name rm -print",
    "timeout 10 ls rm",
    "echo $HOME",
    "constructor rm",
    "su -g rm root",
    "su rm",
    "chroot /rm ls",
    "flock -w 5 /tmp/rm ls",
    "bash <<'EOF'\necho rm\nEOF",
    "cat <<'EOF'\nrm x\nEOF",
    "echo $((rm + 1))",
    "toString rm",
  ];
  const cases: [string, string, boolean][] = [
    ...fires.map((c): [string, string, boolean] => ["Bash(rm:*)", c, true]),
    ...spared.map((c): [string, string, boolean] => ["Bash(rm:*)", c, false]),
  ];
  assert.deepStrictEqual(await judgeAll(cases), cases);
  // Each fires for certain: not one of them comes with a warning.
  for (const command of fires) {
    assert.deepStrictEqual(await verdict("Bash(rm:*)", command), { matches: true });
  }
});

Deno.test("judgeIfRule() matches two-word prefix rules through wrappers, not their neighbours (#20 item 8)", async () => {
  const cases: [string, string, boolean][] = [
    ["Bash(git push:*)", "env git push", true],
    ["Bash(git push:*)", "sudo git push origin", true],
    ["Bash(git push:*)", "nohup /usr/bin/git push --force", true],
    ["Bash(git push:*)", "git -C repo -c push.default=current push", true],
    ["Bash(git push:*)", "bash -lc 'cd repo && git push'", true],
    ["Bash(git push:*)", "git pushd", false],
    ["Bash(git push:*)", "git status", false],
    ["Bash(git push:*)", "sudo git status", false],
    ["Bash(git push:*)", "env git -C push status", false],
    ["Bash(git push:*)", "echo git push", false],
    ["Bash(npm test)", "timeout 60 npm test", true],
    ["Bash(npm test)", "timeout 60 npm test --watch", false],
    ["Bash(git *)", "sudo git status", true],
    ["Bash(git *)", "sudo gitk", false],
  ];
  assert.deepStrictEqual(await judgeAll(cases), cases);
});

Deno.test("judgeIfRule() counts a command it cannot read as matching, and says why (#20 item 8, bad input)", async () => {
  const nest = (depth: number, inner: string): string =>
    depth === 0 ? inner : `bash -c '${nest(depth - 1, inner).replaceAll("'", `'\\''`)}'`;
  const unread = [
    ["if true; then ls", "syntax error at column 17: expected 'fi' to close 'if'"],
    ["echo 'unterminated", "syntax error at column 6: unterminated single quote"],
    ["echo )", "syntax error at column 6: unexpected token ')'"],
    ["ls\necho x; fi", "syntax error at line 2, column 9: unexpected token 'fi'"],
    ["echo $(ls; fi)", "syntax error at column 12: unexpected token 'fi'"],
    ["$CMD x", "$CMD is only known when the command runs"],
    ['"$(echo rm)" x', '"$(echo rm)" is only known when the command runs'],
    ["eval echo hi", "eval builds its command when it runs"],
    ['bash -c "$SCRIPT"', "the -c string of bash is only known when it runs"],
    ["curl -s x | sh", "sh reads its commands from standard input"],
    ["bash <<EOF\n$CMD x\nEOF", "bash reads its commands from standard input"],
    ["env -S 'echo hi'", "env -S splits its string into a command when it runs"],
    ["watch echo $X", "the command watch runs is only known when it runs"],
    [nest(7, "echo hi"), "shells nested deeper than 6"],
  ];
  const out = [];
  for (const [command] of unread) out.push(await verdict("Bash(rm:*)", command));
  assert.deepStrictEqual(out, unread.map(([, reason]) => ({ matches: true, unjudged: reason })));
  // The neighbours: read to the end, they are judged on what they run.
  assert.deepStrictEqual(await verdict("Bash(rm:*)", nest(6, "echo hi")), { matches: false });
  assert.deepStrictEqual(await verdict("Bash(rm:*)", nest(6, "rm x")), { matches: true });
  assert.deepStrictEqual(await verdict("Bash(rm:*)", "if true; then echo; fi"), { matches: false });
  // A line with an error still fires without a warning when what it does read is the guarded command.
  assert.deepStrictEqual(await verdict("Bash(rm:*)", "if true; then rm x"), { matches: true });
  assert.deepStrictEqual(await verdict("Bash(rm:*)", "rm $F"), { matches: true });
  // A word known at run time counts only where the rule looks: `$F` could be -rf, `$HOME` is no git.
  assert.deepStrictEqual(await verdict("Bash(rm -rf:*)", "rm $F"), {
    matches: true,
    unjudged: "$F is only known when the command runs",
  });
  assert.deepStrictEqual(await verdict("Bash(git push:*)", "echo $HOME"), { matches: false });
});

Deno.test("judgeIfRule() reads a command given as words (an argv) as one simple command", async () => {
  assert.deepStrictEqual(
    [
      await verdict("Bash(rm:*)", ["bash", "-lc", "cd x && rm y"]),
      await verdict("Bash(rm:*)", ["/bin/rm", "-rf", "x"]),
      await verdict("Bash(rm:*)", ["bash", "-lc", "echo rm"]),
    ],
    [{ matches: true }, { matches: true }, { matches: false }],
  );
});
