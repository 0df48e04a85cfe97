import assert from "node:assert/strict";
import { shellTokens, splitQuotedWords } from "../../lib/shared/mod.ts";
import { expandCommandBody } from "../../lib/skills/mod.ts";

// #16 item 7: shell syntax is read by shell-quote in one place; a person's typed arguments are not
// shell syntax and keep `#`, `|`, `$` and `\` as text.

Deno.test("shellTokens() removes quoting as bash does and marks words the shell would expand", () => {
  assert.deepStrictEqual(shellTokens(`find . '-dele'te "$X" *.ts {a,b} 'q' | wc -l`), [
    { kind: "word", text: "find", expands: false },
    { kind: "word", text: ".", expands: false },
    { kind: "word", text: "-delete", expands: false },
    { kind: "word", text: "$X", expands: true },
    { kind: "word", text: "*.ts", expands: true },
    { kind: "word", text: "{a,b}", expands: true },
    { kind: "word", text: "q", expands: false },
    { kind: "operator", op: "|" },
    { kind: "word", text: "wc", expands: false },
    { kind: "word", text: "-l", expands: false },
  ]);
  assert.deepStrictEqual(shellTokens("ls # rm -rf x"), [
    { kind: "word", text: "ls", expands: false },
    { kind: "comment" },
  ]);
});

Deno.test("splitQuotedWords() groups quoted words and keeps #, |, $ and backslashes as typed", () => {
  assert.deepStrictEqual(splitQuotedWords(`city="New York" 'a b' #123 a|b $HOME C:\\x`), [
    "city=New York",
    "a b",
    "#123",
    "a|b",
    "$HOME",
    "C:\\x",
  ]);
});

Deno.test("a command body's $1 and $2 are whole quoted words, also when a quote starts mid-word", () => {
  assert.equal(
    expandCommandBody("[$1] [$2] [$ARGUMENTS[2]]", `city="New York" #12 'x y'`),
    "[city=New York] [#12] [x y]",
  );
});

Deno.test("shellTokens(): a line of plain words reads exactly as shell-quote reads it; a quote, $, glob, ~ or # takes the full reader (#24 figure)", async () => {
  const { parse } = await import("shell-quote");
  const plain = [
    "echo 0-1",
    "./hooks/check.sh --fast  -v",
    "python3 tools/lint.py a.py,b.py key=value @user 50%",
    "\tnode\t/opt/x.js ",
    "",
    "A=b env C=d ./run.sh",
  ];
  for (const line of plain) {
    assert.deepStrictEqual(
      shellTokens(line),
      (parse(line) as string[]).map((text) => ({ kind: "word", text, expands: false })),
      line,
    );
  }
  // The neighbours: what only the full reader gets right.
  assert.deepStrictEqual(shellTokens("echo 'a b'"), [
    { kind: "word", text: "echo", expands: false },
    { kind: "word", text: "a b", expands: false },
  ]);
  assert.equal(
    shellTokens("echo $HOME")[1].kind === "word" &&
      (shellTokens("echo $HOME")[1] as { expands: boolean }).expands,
    true,
  );
  assert.deepStrictEqual(shellTokens("ls *.ts").map((t) => t.kind === "word" && t.expands), [false, true]);
  assert.deepStrictEqual(shellTokens("a && b").map((t) => t.kind), ["word", "operator", "word"]);
  assert.deepStrictEqual(shellTokens("a # note").map((t) => t.kind), ["word", "comment"]);
  assert.deepStrictEqual(shellTokens("cat ~/x").map((t) => t.kind === "word" && t.text), ["cat", "~/x"]);
});
