import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";

const MUTATE = new URL("../../scripts/mutate.ts", import.meta.url).pathname;

/**
 * A small project in a temp dir: one module, one test that checks add() but not label. JavaScript,
 * so its test runs skip the type check and this test stays quick.
 */
async function project(mutants: unknown[], extraFiles: Record<string, string> = {}) {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-mutate-fixture-"));
  const files: Record<string, string> = {
    "lib/add.js": 'export const add = (a, b) => a + b;\nexport const label = "sum";\n',
    "tests/add_test.js": 'import { add } from "../lib/add.js";\n' +
      'Deno.test("add", () => { if (add(2, 3) !== 5) throw new Error("add is broken"); });\n',
    "scripts/mutate/mutants/m.json": JSON.stringify(mutants),
    ...extraFiles,
  };
  for (const [file, text] of Object.entries(files)) {
    await platform.fs.mkdir(`${root}/${file.slice(0, file.lastIndexOf("/"))}`);
    await platform.fs.writeTextFile(`${root}/${file}`, text);
  }
  const git = await new Deno.Command("git", { args: ["init", "-q"], cwd: root }).output();
  assert.ok(git.success);
  return root;
}

async function mutate(root: string, ...args: string[]) {
  const out = await new Deno.Command(platform.execPath(), {
    args: ["run", "-A", MUTATE, "--root", root, ...args],
    env: { ...platform.envAll(), NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, out: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr) };
}

const KILLABLE = {
  file: "lib/add.js",
  find: "a + b",
  replace: "a - b",
  why: "add subtracts",
  tests: ["tests/"],
};
const SURVIVING = {
  file: "lib/add.js",
  find: '"sum"',
  replace: '"total"',
  why: "the label changes",
  tests: ["tests/add_test.js"],
};

Deno.test("deno task mutate reports each mutant killed or survived, the total, and fails below 95 %; the tree is untouched", async () => {
  const root = await project([KILLABLE, SURVIVING]);
  try {
    const before = await platform.fs.readTextFile(`${root}/lib/add.js`);
    const { code, out } = await mutate(root);
    assert.equal(code, 1, out);
    assert.match(
      out,
      /\[1\/2\] killed +m\.json#0 lib\/add\.js: add subtracts\n +tests\/: 1 failed \(first: add\)/,
    );
    assert.match(out, /\[2\/2\] SURVIVED m\.json#1 lib\/add\.js: the label changes\n +tests passed/);
    assert.match(out, /^1\/2 mutants killed \(50\.0 %\), 1 survived \([\d.]+ s\)$/m);
    assert.match(out, /below 95 % killed/);
    assert.equal(await platform.fs.readTextFile(`${root}/lib/add.js`), before);
    const scratches = out.match(/ in scratch copies ((?:\/\S+ ?)+)\n/)?.[1].trim().split(" ") ?? [];
    assert.ok(scratches.length, out);
    for (const scratch of scratches) {
      assert.equal(await platform.fs.stat(scratch), null, `scratch copy ${scratch} left behind`);
    }
    // Named mutants only: the killed one alone is 100 %.
    const one = await mutate(root, "m.json#0");
    assert.equal(one.code, 0, one.out);
    assert.match(one.out, /^1\/1 mutants killed \(100\.0 %\), 0 survived /m);
  } finally {
    await platform.fs.remove(root, { recursive: true });
  }
});

Deno.test("deno task mutate refuses a stale list, naming every problem, before running anything", async () => {
  const root = await project([
    { ...KILLABLE, find: "a * b" },
    { ...KILLABLE, find: "a" },
    { ...KILLABLE, file: "lib/gone.js" },
    { ...KILLABLE, tests: ["tests/nope_test.ts"] },
    { ...KILLABLE, test: ["tests/"] },
  ]);
  try {
    const { code, out } = await mutate(root);
    assert.equal(code, 2, out);
    assert.match(out, /m\.json#0: "find" occurs 0 times in lib\/add\.js \(must be exactly once\): "a \* b"/);
    assert.match(out, /m\.json#1: "find" occurs 4 times in lib\/add\.js/);
    assert.match(out, /m\.json#2: lib\/gone\.js does not exist/);
    assert.match(out, /m\.json#3: test path tests\/nope_test\.ts does not exist/);
    assert.match(out, /m\.json#4: unknown field "test"/);
    assert.doesNotMatch(out, /baseline|killed/);
  } finally {
    await platform.fs.remove(root, { recursive: true });
  }
});

Deno.test("deno task mutate stops when the named tests fail without any mutant", async () => {
  const root = await project([KILLABLE], {
    "tests/broken_test.js": 'Deno.test("broken", () => { throw new Error("always"); });\n',
  });
  try {
    const { code, out } = await mutate(root);
    assert.equal(code, 2, out);
    assert.match(out, /the tests fail without any mutant \(tests\/: 1 failed \(first: broken\)\)/);
  } finally {
    await platform.fs.remove(root, { recursive: true });
  }
});
