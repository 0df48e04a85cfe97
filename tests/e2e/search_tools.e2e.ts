import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { events, runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

// The binary loads its glob matcher (picomatch) on first use: a glob and a grep include must work
// from the compiled bundle, with the base-name rule, [!…] classes and an unbalanced { as a literal.
Deno.test("exec: glob and grep's include match through the binary's glob matcher", async () => {
  const s = await e2eSetup();
  await Deno.mkdir(`${s.workspace}/src/a`, { recursive: true });
  for (const file of ["src/a/x.ts", "src/a/y.js", "src/{draft", "src/a/z.ts"]) {
    await Deno.writeTextFile(`${s.workspace}/${file}`, "needle\n");
  }
  const calls = [
    { name: "glob", arguments: { pattern: "*.ts" } },
    { name: "glob", arguments: { pattern: "src/a/[!x].*" } },
    { name: "grep", arguments: { pattern: "needle", include: "{draft" } },
  ];
  const order = calls.map((c) => JSON.stringify(c.arguments));
  const server = await startFixtureModelServer({ script: [{ tool_calls: calls }, { text: "done" }] });
  try {
    const run = await runTrellis(["exec", "--json", ...s.flags(server.url), "search"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    // Parallel calls complete in any order: listed here in call order.
    const outputs = events(run.stdout)
      .filter((e) => e.type === "item.completed" && e.item.type === "tool_call")
      .map((e) => [e.item.name, e.item.status, e.item.output, e.item.arguments])
      .sort((a, b) => order.indexOf(a[3]) - order.indexOf(b[3]))
      .map((e) => e.slice(0, 3));
    assert.deepEqual(outputs, [
      ["glob", "completed", "src/a/x.ts\nsrc/a/z.ts"],
      ["glob", "completed", "src/a/y.js\nsrc/a/z.ts"],
      ["grep", "completed", "src/{draft:1: needle"],
    ]);
  } finally {
    await server.close();
    await Deno.remove(s.root, { recursive: true });
  }
});
