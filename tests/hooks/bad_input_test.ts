/**
 * #24 "Bad input" cases not covered elsewhere, through the real CLI: a Copilot CLI hook file without
 * `version: 1` is one named warning and none of its hooks load, while a file beside it with the
 * version loads (the neighbour); a `version` other than 1 is refused the same way.
 */
import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

const fs = platform.fs;
const hookFile = (version: unknown, marker: string) =>
  JSON.stringify({
    ...(version === undefined ? {} : { version }),
    hooks: { sessionStart: [{ type: "command", bash: `echo ${marker}` }] },
  });

Deno.test("a Copilot hook file without version (or version 2) is one named warning and loads nothing; its versioned neighbour loads (#24 bad input)", async () => {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await fs.mkdir(`${ws}/.git`);
  await fs.mkdir(`${env.HOME}/.copilot/hooks`);
  await fs.writeTextFile(
    `${env.HOME}/.copilot/hooks/unversioned.json`,
    hookFile(undefined, "UNVERSIONED-HOOK"),
  );
  await fs.writeTextFile(`${env.HOME}/.copilot/hooks/future.json`, hookFile(2, "FUTURE-HOOK"));
  await fs.writeTextFile(`${env.HOME}/.copilot/hooks/good.json`, hookFile(1, "GOOD-HOOK"));
  const list = await runCliCaptured(["hooks", "list"], { env, cwd: ws });
  assert.equal(list.code, 0, list.stderr);
  const all = list.stdout + list.stderr;
  assert.match(
    all,
    /unversioned\.json": it has no "version" \(Copilot CLI hook files declare "version": 1\); not loaded/,
  );
  assert.match(all, /future\.json": "version" is 2, not 1; not loaded/);
  assert.match(list.stdout, /GOOD-HOOK/);
  assert.doesNotMatch(list.stdout, /UNVERSIONED-HOOK|FUTURE-HOOK/);
});
