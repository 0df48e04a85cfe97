import assert from "node:assert/strict";
import { complete } from "../../../lib/cli/interactive/completion.ts";
import { platform } from "../../../lib/platform/mod.ts";

async function sources() {
  const cwd = await Deno.makeTempDir();
  await Deno.mkdir(`${cwd}/src`);
  await Deno.writeTextFile(`${cwd}/notes.md`, "x");
  await Deno.writeTextFile(`${cwd}/notice.txt`, "x");
  await Deno.writeTextFile(`${cwd}/.hidden`, "x");
  await Deno.writeTextFile(`${cwd}/src/main.ts`, "x");
  return {
    commands: () => ["/help", "/hooks", "/status", "/lint:fix"],
    skills: () => Promise.resolve(["deploy-app", "deploy-docs", "lint:fix"]),
    fs: platform.fs,
    cwd,
  };
}

Deno.test("complete() finishes a command, a skill and a path, or lists what remains", async () => {
  const s = await sources();
  assert.deepEqual(await complete("/st", true, s), { replacement: "/status ", candidates: [] });
  assert.equal(await complete("/st", false, s), null, "a slash command only at the start");
  assert.deepEqual(await complete("/h", true, s), { replacement: "/h", candidates: ["/help", "/hooks"] });
  assert.deepEqual(await complete("$dep", false, s), {
    replacement: "$deploy-",
    candidates: ["$deploy-app", "$deploy-docs"],
  });
  assert.deepEqual(await complete("$lint", false, s), { replacement: "$lint:fix ", candidates: [] });
  assert.deepEqual(await complete("@no", false, s), {
    replacement: "@not",
    candidates: ["@notes.md", "@notice.txt"],
  });
  assert.deepEqual(await complete("@sr", false, s), { replacement: "@src/", candidates: [] });
  assert.deepEqual(await complete("@src/m", false, s), { replacement: "@src/main.ts ", candidates: [] });
  assert.deepEqual(await complete("@.h", false, s), { replacement: "@.hidden ", candidates: [] });
  assert.equal(await complete("plain", false, s), null);
});
