/**
 * `deno task bench`: runs every scripts/bench/*.ts module's `bench()` and writes one table to
 * bench/RESULTS.md. Speed is measured here, never asserted in tests.
 */
type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };

const only = Deno.args.filter((a) => !a.startsWith("-"));
const dir = new URL("./bench/", import.meta.url);
const files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
  n.endsWith(".ts") && !n.startsWith("_")
)
  .filter((n) => only.length === 0 || only.some((o) => n.includes(o))).sort();
const sections: string[] = [];
let failures = 0;
for (const file of files) {
  const started = performance.now();
  console.error(`bench: ${file} …`);
  let rows: BenchRow[];
  try {
    const mod = await import(new URL(file, dir).href);
    rows = await mod.bench();
  } catch (error) {
    rows = [{
      name: `${file} crashed: ${(error as Error).message}`,
      value: NaN,
      unit: "",
      target: "",
      pass: false,
    }];
  }
  failures += rows.filter((r) => !r.pass).length;
  const table = rows.map((r) =>
    `| ${r.name} | ${Number.isFinite(r.value) ? round(r.value) : "—"} ${r.unit} | ${r.target} | ${
      r.pass ? "yes" : "**no**"
    } |`
  );
  sections.push(
    `## ${file.replace(/\.ts$/, "")}\n\n| measure | value | target | met |\n|---|---|---|---|\n${
      table.join("\n")
    }\n\n` +
      `_(${((performance.now() - started) / 1000).toFixed(1)} s, run ${new Date().toISOString()})_\n`,
  );
  console.error(table.join("\n"));
}
const header = `# Benchmark results\n\nWritten by \`deno task bench\` on ${new Date().toISOString()} ` +
  `(${Deno.build.os}/${Deno.build.arch}, ${navigator.hardwareConcurrency} cores).\n\n`;
Deno.mkdirSync(new URL("../bench/", import.meta.url), { recursive: true });
const resultsFile = new URL("../bench/RESULTS.md", import.meta.url);
Deno.writeTextFileSync(
  resultsFile,
  header + keptSections(resultsFile, files, only).concat(sections).sort().join("\n"),
);
console.error(`bench: wrote bench/RESULTS.md (${failures} target${failures === 1 ? "" : "s"} not met)`);

/**
 * A run of some benches (`deno task bench mcp skills`) keeps the other sections of the last
 * RESULTS.md, each still headed by its own name, so one file holds every figure; a full run
 * rewrites it whole.
 */
function keptSections(file: URL, ran: string[], only: string[]): string[] {
  if (only.length === 0) return [];
  let previous: string;
  try {
    previous = Deno.readTextFileSync(file);
  } catch {
    return [];
  }
  const ranNames = new Set(ran.map((f) => f.replace(/\.ts$/, "")));
  return previous.split(/\n(?=## )/).slice(1)
    .filter((section) => !ranNames.has(section.slice(3, section.indexOf("\n")).trim()))
    .map((section) => section.endsWith("\n") ? section : `${section}\n`);
}

function round(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
}
