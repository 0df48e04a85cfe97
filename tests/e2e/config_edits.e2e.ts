import assert from "node:assert/strict";
import { prepareConfigWorkload } from "../../scripts/bench/_config_workload.ts";
import { runTrellis } from "./_binary.ts";

// #13 item 8: 20 parallel `project trust` kept 10 before edits were locked. Here 40 processes —
// project trust, hooks trust and mcp add, each writing its own key — edit one config at once.
Deno.test("40 concurrent config edits as separate processes lose none (#13 item 8)", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "trellis-e2e-edits-" }));
  const work = await prepareConfigWorkload(root, 40);
  const runs = await Promise.all(
    work.commands.map((args) => runTrellis(args, { env: work.env, cwd: work.cwd, timeoutMs: 120_000 })),
  );
  const failed = runs.filter((r) => r.code !== 0).map((r) => r.stderr);
  assert.deepStrictEqual(failed, []);
  assert.deepStrictEqual(work.missing(await Deno.readTextFile(work.file)), []);
  // The mode the file had (0644), less its group and other bits: it is in $TRELLIS_HOME (#20 item 13).
  assert.deepStrictEqual((await Deno.stat(work.file)).mode! & 0o777, 0o600, "the mode the file had, private");
  await Deno.remove(root, { recursive: true });
});
