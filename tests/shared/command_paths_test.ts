import assert from "node:assert/strict";
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
