import assert from "node:assert/strict";
import fc from "fast-check";
import { commandPathWords } from "../../lib/shared/mod.ts";

// #20 item 7: trust and "always" approvals cover the files a command runs — and only those, so an
// approval of `touch approved.txt` still covers its second call once the file exists.

Deno.test("commandPathWords() names the scripts a command runs", () => {
  const cases: [string, string[]][] = [
    ["./build.sh", ["./build.sh"]],
    ["bash scripts/x.sh one two", ["scripts/x.sh"]],
    ["python3 -u tool.py --flag", ["tool.py"]],
    ["sh ${ROOT}/run.sh", ["/plugin/run.sh"]],
    ["$ROOT/hooks/y.sh --quiet >> hook.log 2>&1", ["/plugin/hooks/y.sh"]],
    ["FOO=1 env -i nohup ./a.sh && . ./env.sh", ["./a.sh", "./env.sh"]],
    ["bash < setup.sh", ["setup.sh"]],
    ["cat x | sh ./inner.sh", ["./inner.sh"]],
  ];
  for (const [command, expected] of cases) {
    assert.deepStrictEqual(commandPathWords(command, { ROOT: "/plugin" }), expected, command);
  }
});

Deno.test("commandPathWords() leaves out what a command only reads or writes, inline code and unknowns", () => {
  const cases: [string, string[]][] = [
    ["touch approved.txt", []],
    ["tee -a log < input.txt", []],
    ["python3 -c 'print(1)' file.py", []],
    ["python3 -m http.server", []],
    ["git diff src/a.ts", []],
    ["$UNKNOWN/x.sh", []],
    ["sh ./*.sh", []],
  ];
  for (const [command, expected] of cases) {
    assert.deepStrictEqual(commandPathWords(command), expected, command);
  }
});

Deno.test("commandPathWords() reads a line of plain words exactly as the shell reader does (its fast path)", () => {
  // Plain words from the characters the fast path takes, interpreters and wrappers among them;
  // the same line with a trailing `;` goes through the shell reader, and must name the same files.
  const word = fc.oneof(
    fc.constantFrom(
      "bash",
      "sh",
      "python3",
      "env",
      "nohup",
      "-c",
      "-u",
      "--",
      ".",
      "A=1",
      "x.sh",
      "./run.sh",
    ),
    fc.stringMatching(/^[A-Za-z0-9_@%+=:,./-]{1,8}$/),
  );
  const line = fc.tuple(fc.array(word, { maxLength: 6 }), fc.constantFrom(" ", "  ", "\t"))
    .map(([words, gap]) => words.join(gap));
  fc.assert(
    fc.property(line, (l) => {
      assert.deepStrictEqual(commandPathWords(l), commandPathWords(`${l} ;`), l);
    }),
    { numRuns: 1000 },
  );
  assert.deepStrictEqual(commandPathWords("echo 0-1"), []);
  assert.deepStrictEqual(commandPathWords("env A=1 bash -u x.sh y.sh"), ["x.sh"]);
});
