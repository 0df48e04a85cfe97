/**
 * Measures the skills subsystem's hand-written text handling against the `yaml` library, for the
 * header comments of simple_yaml.ts and frontmatter.ts (issue 16 item 7). Not a test: run it by hand,
 * `deno run -A tests/skills/_measure_parsers.ts [DIR...]` (default: fixtures/skills), where each DIR
 * is searched for SKILL.md files; the figures are per parse, best of 5 rounds.
 */
import * as path from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { extractFrontmatter } from "../../lib/shared/frontmatter.ts";
import { parseSimpleYaml } from "../../lib/shared/simple_yaml.ts";
import { platform } from "../../lib/platform/mod.ts";

async function skillFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await platform.fs.readDir(dir)) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory) out.push(...await skillFiles(full));
    else if (entry.name === "SKILL.md") out.push(full);
  }
  return out;
}

function best(label: string, items: string[], fn: (text: string) => unknown, total = 20_000): number {
  const rounds = 5;
  const repeat = Math.ceil(total / items.length);
  let min = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    for (let i = 0; i < repeat; i++) for (const item of items) fn(item);
    min = Math.min(min, (performance.now() - t) / (repeat * items.length));
  }
  console.log(`${label}: ${(min * 1000).toFixed(2)} µs per file`);
  return min;
}

const dirs = platform.args().length > 0
  ? platform.args()
  : [new URL("../../fixtures/skills", import.meta.url).pathname];
const files = (await Promise.all(dirs.map(skillFiles))).flat();
const texts = await Promise.all(files.map((f) => platform.fs.readTextFile(f)));
const yamls = texts.map((t) => extractFrontmatter(t)).flatMap((s) => (s.ok ? [s.yaml] : []));
const simple = yamls.filter((y) => parseSimpleYaml(y) !== null);
console.log(
  `${files.length} SKILL.md files, ${yamls.length} with frontmatter, ${simple.length} on the fast path`,
);
const fast = best("parseSimpleYaml (fast-path files)", simple, parseSimpleYaml);
const lib = best("yaml.parse      (same files)", simple, (y) => parse(y));
console.log(`yaml.parse / parseSimpleYaml = ${(lib / fast).toFixed(1)}x`);
const split = best("extractFrontmatter (whole files)", texts, extractFrontmatter);
const docs = best("yaml.parseAllDocuments, first document (whole files)", texts, (t) => {
  try {
    return parseAllDocuments(t)[0];
  } catch {
    return null;
  }
}, 100);
console.log(`parseAllDocuments / extractFrontmatter = ${(docs / split).toFixed(1)}x`);
