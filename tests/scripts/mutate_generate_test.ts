import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { generateMutants, type Operator, sample } from "../../scripts/mutate/generate.ts";
import { planGenerated } from "../../scripts/mutate/generated_plan.ts";

const MUTATE = new URL("../../scripts/mutate.ts", import.meta.url).pathname;

/** The mutated texts `operator` derives from `source`. */
function mutated(source: string, operator: Operator): string[] {
  return generateMutants("x.ts", source).filter((m) => m.operator === operator)
    .map((m) => source.slice(0, m.start) + m.replace + source.slice(m.end));
}

Deno.test("generate: each operator derives the expected mutant from the syntax tree", () => {
  assert.deepEqual(mutated("if (a < b) f();", "flip-comparison"), ["if (a >= b) f();"]);
  assert.deepEqual(mutated("const ok = x === y;", "flip-comparison"), ["const ok = x !== y;"]);
  assert.deepEqual(mutated("if (ready) go();", "negate-condition"), ["if (!(ready)) go();"]);
  assert.deepEqual(mutated("const v = c ? 1 : 2;", "negate-condition"), ["const v = !(c) ? 1 : 2;"]);
  assert.deepEqual(mutated("const ok = a && b;", "drop-term"), ["const ok = a;", "const ok = b;"]);
  assert.deepEqual(mutated("const ok = a || b;", "drop-term"), ["const ok = a;", "const ok = b;"]);
  assert.deepEqual(mutated("const big = n > 10;", "shift-bound"), [
    "const big = n > 11;",
    "const big = n > 9;",
  ]);
  assert.deepEqual(
    mutated("function f(x) { if (x) return 1; throw new E(); }", "remove-exit"),
    ["function f(x) { if (x) {} throw new E(); }"],
    "the early return goes; the function's last statement is no early exit",
  );
  assert.deepEqual(mutated('join("a", "b", 3);', "swap-arguments"), ['join("b", "a", 3);']);
  assert.deepEqual(
    mutated('const s = "name"; f(`t`);', "empty-string"),
    ['const s = ""; f(`t`);', 'const s = "name"; f("");'],
  );
});

Deno.test("generate: imports, types, property names and directives are left alone", () => {
  const source = '"use strict";\nimport { a } from "./a.ts";\nexport * from "./b.ts";\n' +
    'type T = "x" | "y";\ninterface I { k: "v" }\nconst o = { "key": 1 };\nconst m = await import("./c.ts");\n';
  assert.deepEqual(generateMutants("x.ts", source), []);
});

Deno.test("generate: swap-arguments needs the same type, checked by the compiler; a seeded sample repeats", async () => {
  const dir = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-mutgen-"));
  try {
    await platform.fs.writeTextFile(
      `${dir}/lib.ts`,
      "export function f(a: string, b: string, n: number) { return a + b + n; }\n" +
        "export const p = (x: string, y: string, k: number) => f(x, y, k);\n" +
        "export const mid = (n: number) => n > 10 && n < 20;\n",
    );
    await platform.fs.mkdir(`${dir}/tests`);
    const plan = planGenerated(dir, ["lib.ts"], { seed: 1 });
    const swaps = plan.jobs.filter((j) => j.id.includes("swap-arguments"));
    // The seeded sample, drawn twice from the same file, is the same; it says how it was drawn.
    const drawn = planGenerated(dir, ["lib.ts"], { seed: 3, sample: 2 });
    assert.deepEqual(
      planGenerated(dir, ["lib.ts"], { seed: 3, sample: 2 }).jobs.map((j) => j.id),
      drawn.jobs.map((j) => j.id),
    );
    assert.equal(drawn.jobs.length, 2);
    assert.ok(
      drawn.notes.includes(`sampled 2 of ${plan.jobs.length} distinct mutants with --seed 3`),
      drawn.notes.join("\n"),
    );
    assert.deepEqual(swaps.map((j) => j.diff?.after), [
      "export const p = (x: string, y: string, k: number) => f(y, x, k);",
    ]);
  } finally {
    await platform.fs.remove(dir, { recursive: true });
  }
});

Deno.test("generate: the same seed draws the same sample, another seed another one", () => {
  const items = Array.from({ length: 50 }, (_, i) => i);
  const first = sample(items, 10, 7);
  assert.deepEqual(sample(items, 10, 7), first);
  assert.equal(new Set(first).size, 10);
  assert.notDeepEqual(sample(items, 10, 8), first);
  assert.deepEqual(first, [...first].sort((a, b) => a - b), "the sample keeps file and position order");
});

/** A small TypeScript project in a temp dir with git (the scratch copy holds git's view of it). */
async function project(files: Record<string, string>) {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-mutgen-fixture-"));
  for (const [file, text] of Object.entries(files)) {
    await platform.fs.mkdir(`${root}/${file.slice(0, file.lastIndexOf("/"))}`);
    await platform.fs.writeTextFile(`${root}/${file}`, text);
  }
  assert.ok((await new Deno.Command("git", { args: ["init", "-q"], cwd: root }).output()).success);
  return root;
}

/** Runs `mutate --generate` on a fixture; without `cache` the baseline is measured afresh (--no-cache). */
async function mutate(root: string, ...args: string[]) {
  return await mutateWith(null, root, ...args);
}

async function mutateWith(cache: string | null, root: string, ...args: string[]) {
  const out = await new Deno.Command(platform.execPath(), {
    args: [
      "run",
      "-A",
      MUTATE,
      "--root",
      root,
      "--generate",
      "--serial",
      ...(cache ? [] : ["--no-cache"]),
      ...args,
    ],
    env: { ...platform.envAll(), NO_COLOR: "1", ...(cache ? { TRELLIS_MUTATE_CACHE: cache } : {}) },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, out: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr) };
}

async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(`${root}/${dir}`)) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.name === ".git") continue;
      if (entry.isDirectory) await walk(rel);
      else out[rel] = await platform.fs.readTextFile(`${root}/${rel}`);
    }
  };
  await walk("");
  return out;
}

Deno.test("mutate --generate: a file with no mutable spot says so, and a bad flag is named", async () => {
  const root = await project({ "lib/types.ts": "export type Name = string;\nexport const n = 1;\n" });
  try {
    const { code, out } = await mutate(root, "lib/types.ts");
    assert.equal(code, 0, out);
    assert.match(out, /lib\/types\.ts: no mutable spot/);
    assert.match(out, /nothing to mutate/);
    const missing = await mutate(root, "lib/gone.ts");
    assert.equal(missing.code, 2, missing.out);
    assert.match(missing.out, /mutate: no such file: lib\/gone\.ts/);
    const badSample = await mutate(root, "lib/types.ts", "--sample", "ten");
    assert.equal(badSample.code, 2, badSample.out);
    assert.match(badSample.out, /--sample must be a positive whole number, got "ten"/);
  } finally {
    await platform.fs.remove(root, { recursive: true });
  }
});

const PICK =
  'export function pick(x: string | undefined): string {\n  if (x === undefined) return "none";\n' +
  "  return x;\n}\n";
const PICK_TEST = 'import { pick } from "../lib/pick.ts";\n' +
  'Deno.test("pick", () => {\n  if (pick(undefined) !== "none") throw new Error("no default");\n' +
  '  if (pick("a") !== "a") throw new Error("value lost");\n});\n';

Deno.test("mutate --generate: a mutant the type check rejects is killed by the compiler, counted apart; duplicates are dropped and said", async () => {
  const root = await project({
    "lib/pick.ts": PICK,
    "lib/same.ts": "export const both = (a: boolean) => a && a;\n",
    "tests/pick_test.ts": PICK_TEST,
  });
  try {
    const before = await snapshot(root);
    const { code, out } = await mutate(root, "lib/pick.ts", "lib/same.ts");
    assert.equal(code, 0, out);
    assert.match(
      out,
      /dropped 1 duplicate mutant \(same mutated text as another\): lib\/same\.ts:1:37:drop-term:2/,
    );
    assert.match(out, /lib\/pick\.ts: 1 test file\(s\) import it/);
    assert.match(out, /lib\/same\.ts: no test imports it, running every unit test/);
    // Removing the early return leaves `string | undefined` where a string is due.
    assert.match(
      out,
      /compiler lib\/pick\.ts:2:24:remove-exit lib\/pick\.ts: remove-exit: "return \\"none\\";" → "{}"\n +tests\/pick_test\.ts: type check failed: TS2322/,
    );
    // So does flipping its condition (x is no longer narrowed to a string); the empty default fails a test.
    assert.match(out, /compiler lib\/pick\.ts:2:9:flip-comparison/);
    assert.match(
      out,
      /killed +lib\/pick\.ts:2:31:empty-string .*\n +tests\/pick_test\.ts: 1 failed \(first: pick\)/,
    );
    // `a && a` → `a` is no change the tests can see: it survives and is shown with its line.
    assert.match(out, /SURVIVED lib\/same\.ts:1:37:drop-term/);
    assert.match(out, /^4\/5 mutants killed \(80\.0 %\): 1 by the tests, 3 by the type check, 1 survived /m);
    assert.match(
      out,
      /survived: lib\/same\.ts:1:37:drop-term .*\n +- export const both = \(a: boolean\) => a && a;\n +\+ export const both = \(a: boolean\) => a;/,
    );
    assert.deepEqual(await snapshot(root), before);
  } finally {
    await platform.fs.remove(root, { recursive: true });
  }
});

Deno.test("mutate --generate: SIGINT half way through leaves the tree as it was and removes the scratch copy", async () => {
  const ready = "MUTATE_FIXTURE_READY";
  const root = await project({
    "lib/clamp.ts": "export function clamp(n: number): number {\n  if (n > 10) return 10;\n  return n;\n}\n",
    // Mutated (clamp no longer clamps), the test says so through a file and then hangs: the run is
    // then certainly half way, a mutant applied in the scratch copy.
    "tests/clamp_test.ts": 'import { clamp } from "../lib/clamp.ts";\n' +
      'Deno.test("clamp", async () => {\n  if (clamp(20) !== 10) {\n' +
      `    Deno.writeTextFileSync(Deno.env.get("${ready}")!, "mutant running");\n` +
      "    await new Promise((r) => setTimeout(r, 600_000));\n  }\n});\n",
  });
  const flag = `${root}.ready`;
  try {
    const before = await snapshot(root);
    const child = new Deno.Command(platform.execPath(), {
      args: ["run", "-A", MUTATE, "--root", root, "--generate", "--serial", "--no-cache", "lib/clamp.ts"],
      env: { ...platform.envAll(), NO_COLOR: "1", [ready]: flag },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = Promise.all([child.stdout, child.stderr].map((s) => new Response(s).text()));
    while ((await platform.fs.stat(flag)) === null) await new Promise((r) => setTimeout(r, 100));
    child.kill("SIGINT");
    const status = await child.status;
    const out = (await output).join("");
    assert.equal(status.code, 130, out);
    assert.match(out, /interrupted; the working tree was never written and the scratch copy is removed/);
    assert.doesNotMatch(out, /mutants killed/);
    assert.deepEqual(await snapshot(root), before);
    const scratches = out.match(/ in scratch copies ((?:\/\S+ ?)+)\n/)?.[1].trim().split(" ") ?? [];
    assert.ok(scratches.length, out);
    for (const scratch of scratches) {
      assert.equal(await platform.fs.stat(scratch), null, `scratch copy ${scratch} left behind`);
    }
  } finally {
    await platform.fs.remove(root, { recursive: true });
    await platform.fs.remove(flag).catch(() => {});
  }
});

Deno.test("mutate --generate: a mutant runs only the test files that ran its line; a line no test runs survives unrun", async () => {
  const root = await project({
    "lib/pair.ts": "export function big(n: number): boolean {\n  return n > 10;\n}\n" +
      "export function small(n: number): boolean {\n  return n < 0;\n}\n",
    // Both import the file; only the first calls big(); nothing calls small().
    "tests/big_test.ts": 'import { big } from "../lib/pair.ts";\n' +
      'Deno.test("big", () => {\n  if (!big(20) || big(3)) throw new Error("big is wrong");\n});\n',
    "tests/other_test.ts": 'import "../lib/pair.ts";\nDeno.test("other", () => {});\n',
  });
  try {
    const before = await snapshot(root);
    const { code, out } = await mutate(root, "lib/pair.ts", "--jobs", "2");
    assert.equal(code, 0, out);
    assert.match(out, /2 at a time/);
    assert.match(out, /baseline: 2 test paths pass unmutated, each alone with coverage/);
    // big()'s comparison: run against big_test.ts alone (other_test.ts never runs that line).
    assert.match(out, /killed +lib\/pair\.ts:2:12:flip-comparison .*\n +tests\/big_test\.ts: 1 failed/);
    // small()'s comparison: no test runs line 5, so it survives without a test run (the type check passes).
    assert.match(
      out,
      /SURVIVED lib\/pair\.ts:5:12:flip-comparison .*\n +no test runs this line; the type check passed/,
    );
    assert.match(out, /survived \(\d+ on lines no test runs\)/);
    assert.match(out, /tests: none runs line 5 \(of tests\/big_test\.ts tests\/other_test\.ts\)/);
    assert.deepEqual(await snapshot(root), before);
  } finally {
    await platform.fs.remove(root, { recursive: true });
  }
});

Deno.test("mutate --generate: the coverage baseline is remembered outside the tree until the code or that test changes; --only re-runs named mutants", async () => {
  const root = await project({
    "lib/pair.ts": "export function big(n: number): boolean {\n  return n > 10;\n}\n" +
      "export function small(n: number): boolean {\n  return n < 0;\n}\n",
    "tests/big_test.ts": 'import { big } from "../lib/pair.ts";\n' +
      'Deno.test("big", () => {\n  if (!big(20) || big(3)) throw new Error("big is wrong");\n});\n',
    "tests/other_test.ts": 'import "../lib/pair.ts";\nDeno.test("other", () => {});\n',
  });
  const cache = await platform.fs.makeTempDir("trellis-mutgen-cache-");
  const unrun = /SURVIVED lib\/pair\.ts:5:12:flip-comparison .*\n +no test runs this line/;
  try {
    const before = await snapshot(root);
    const first = await mutateWith(cache, root, "lib/pair.ts");
    assert.equal(first.code, 0, first.out);
    assert.match(
      first.out,
      /baseline: 2 test paths pass unmutated, each alone with coverage \(.*; 0 remembered/,
    );
    assert.equal([...Deno.readDirSync(cache)].filter((e) => e.name.endsWith(".json")).length, 2);
    assert.deepEqual(await snapshot(root), before, "nothing of the cache is written into the tree");

    // Same tree: nothing measured again, the same verdicts from the remembered lines.
    const second = await mutateWith(cache, root, "lib/pair.ts");
    assert.equal(second.code, 0, second.out);
    assert.match(second.out, /; 2 remembered from /);
    assert.doesNotMatch(second.out, /baseline: tests\//);
    assert.match(
      second.out,
      /killed +lib\/pair\.ts:2:12:flip-comparison .*\n +tests\/big_test\.ts: 1 failed/,
    );
    assert.match(second.out, unrun);

    // One test changes (it now calls small()): that test alone is measured again, and its new
    // coverage counts (a stale entry would still say no test runs line 5).
    await platform.fs.writeTextFile(
      `${root}/tests/other_test.ts`,
      'import { small } from "../lib/pair.ts";\n' +
        'Deno.test("other", () => {\n  if (!small(-1) || small(0)) throw new Error("small is wrong");\n});\n',
    );
    const third = await mutateWith(cache, root, "lib/pair.ts");
    assert.equal(third.code, 0, third.out);
    assert.match(third.out, /; 1 remembered from /);
    assert.match(third.out, /baseline: tests\/other_test\.ts \(/);
    assert.match(
      third.out,
      /killed +lib\/pair\.ts:5:12:flip-comparison .*\n +tests\/other_test\.ts: 1 failed/,
    );

    // The code changes: every test is measured again.
    await platform.fs.writeTextFile(
      `${root}/lib/pair.ts`,
      (await platform.fs.readTextFile(`${root}/lib/pair.ts`)) + "\n",
    );
    const fourth = await mutateWith(cache, root, "lib/pair.ts", "--only", "lib/pair.ts:5:12:flip-comparison");
    assert.equal(fourth.code, 0, fourth.out);
    assert.match(fourth.out, /; 0 remembered from /);
    assert.match(fourth.out, /--only: running 1 of the sample/);
    assert.match(fourth.out, /1\/1 mutants killed/);

    const unknown = await mutateWith(cache, root, "lib/pair.ts", "--only", "lib/pair.ts:9:1:flip-comparison");
    assert.equal(unknown.code, 2, unknown.out);
    assert.match(unknown.out, /--only: not in this sample: lib\/pair\.ts:9:1:flip-comparison/);
  } finally {
    await platform.fs.remove(root, { recursive: true });
    await platform.fs.remove(cache, { recursive: true });
  }
});
