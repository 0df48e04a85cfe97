import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { bunCommand } from "../../scripts/lib/bun_path.ts";
import { call, makeWorkspace, removeWorkspace, toolsFor } from "./_workspace.ts";

const PROBE = new URL("./_glob_probe.ts", import.meta.url).pathname;

// [glob, relative path, matches]: the glob tool's and grep include's semantics.
const CASES: [string, string, boolean][] = [
  // No `/`: the base name, at any depth (ripgrep's --glob rule).
  ["*.ts", "a/b/c.ts", true],
  ["*.ts", "c.tsx", false],
  ["main.ts", "src/main.ts", true],
  // With `/`: the whole relative path.
  ["src/**/*.ts", "src/x.ts", true],
  ["src/**/*.ts", "src/a/b/x.ts", true],
  ["src/*.ts", "src/a/x.ts", false],
  ["src/**", "src/a/b", true],
  ["./src/*.ts", "src/x.ts", true],
  ["*.{js,ts}", "x.js", true],
  ["a+b.txt", "a+b.txt", true],
  ["(x)|y.md", "(x)|y.md", true],
  ["*", ".env", true],
  // `?` and `*` stay within a segment.
  ["a?b", "a/b", false],
  ["src/a?b", "src/a/b", false],
  ["src/a?b", "src/axb", true],
  ["src/a*b", "src/a/b", false],
  // Classes: `[!…]` negates and, like `?`, never matches `/`.
  ["f?.[ch]", "f1.c", true],
  ["f?.[!ch]", "f1.c", false],
  ["f?.[!ch]", "f1.o", true],
  ["a[!b]c", "a/c", false],
  ["src/a[!b]c", "src/a/c", false],
  ["src/a[^b]c", "src/a/c", false],
  ["src/a[!b]c", "src/axc", true],
  // `\` escapes a metacharacter.
  ["\\*.md", "*.md", true],
  ["\\*.md", "x.md", false],
  ["src/\\?.md", "src/?.md", true],
  ["src/\\?.md", "src/x.md", false],
  // An unbalanced `{` or `[` is a literal, never an error.
  ["{a,b", "{a,b", true],
  ["src/{a,b", "src/{a,b", true],
  ["src/{a,b", "src/a", false],
  ["[ab", "[ab", true],
  // A leading `!` is a literal.
  ["!x.md", "!x.md", true],
  ["!x.md", "y.md", false],
];

async function probe(cmd: string[]): Promise<(boolean | string)[]> {
  const dir = await platform.fs.makeTempDir("trellis-glob-");
  try {
    await platform.fs.writeTextFile(`${dir}/cases.json`, JSON.stringify(CASES.map(([g, p]) => [g, p])));
    const out = await new Deno.Command(cmd[0], {
      args: [...cmd.slice(1), PROBE, `${dir}/cases.json`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
  } finally {
    await platform.fs.remove(dir, { recursive: true });
  }
}

const table = (results: (boolean | string)[]) => CASES.map(([glob, path], i) => [glob, path, results[i]]);

for (
  const [name, cmd] of [["Deno", [platform.execPath(), "run", "-A"]], ["Bun", [bunCommand(), "run"]]] as const
) {
  Deno.test(`globMatcher() (${name}): base names without /, segments for ? * [!…], \\ escapes, unbalanced { literal`, async () => {
    assert.deepStrictEqual(table(await probe([...cmd])), CASES);
  });
}

Deno.test("glob and grep include: an unbalanced { is searched for literally, not an error; grep skips files outside include", async () => {
  const box = await makeWorkspace();
  try {
    await platform.fs.writeTextFile(`${box.ws}/docs/{draft`, "draft text\n");
    await platform.fs.writeTextFile(`${box.ws}/docs/draft.md`, "draft text\n"); // not included
    const { glob, grep } = toolsFor(box);
    const found = await call(glob, box, { pattern: "{draft" });
    const grepped = await call(grep, box, { pattern: "draft", include: "{draft" });
    assert.deepStrictEqual([found.result, grepped.result], [
      { status: "success", output: "docs/{draft" },
      { status: "success", output: "docs/{draft:1: draft text" },
    ]);
  } finally {
    await removeWorkspace(box);
  }
});
