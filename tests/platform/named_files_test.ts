import assert from "node:assert/strict";
import { namedFiles, platform } from "../../lib/platform/mod.ts";

async function sh(args: string[]) {
  const { code } = await new Deno.Command(args[0], { args: args.slice(1) }).output();
  assert.equal(code, 0, args.join(" "));
}

Deno.test("namedFiles() names a file by its bytes, a missing path as missing, a FIFO unopened; bare words naming nothing and directories are left out (#20 item 7)", async () => {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-named-"));
  await platform.fs.mkdir(`${root}/scripts`);
  await platform.fs.writeTextFile(`${root}/scripts/run.sh`, "echo hi\n");
  await platform.fs.writeTextFile(`${root}/tool`, "x");
  await sh(["mkfifo", `${root}/scripts/pipe`]);
  await sh(["ln", "-s", `${root}/nowhere`, `${root}/scripts/dangling`]);
  await sh(["ln", "-s", `${root}/scripts/run.sh`, `${root}/scripts/link.sh`]);
  const named = namedFiles(
    "bash scripts/run.sh && scripts/pipe; scripts/gone.sh; scripts/dangling; scripts/link.sh; scripts/; bash nothing-here; sh tool",
    { cwd: root, roots: [root] },
  );
  const states = Object.fromEntries(named.map((f) => [f.path.slice(root.length + 1), f.state.split(":")[0]]));
  assert.deepStrictEqual(states, {
    "scripts/dangling": "missing",
    "scripts/gone.sh": "missing",
    "scripts/link.sh": "- sha256",
    "scripts/pipe": "special fifo",
    "scripts/run.sh": "- sha256",
    tool: "- sha256", // a bare script name counts when it is there, is left out when not
  });
  const [run] = named.filter((f) => f.path.endsWith("run.sh"));
  assert.equal(named.find((f) => f.path.endsWith("link.sh"))!.state, run.state); // the content, followed
  // A path under a file (ENOTDIR) is missing too; outside the roots nothing counts.
  assert.deepStrictEqual(
    namedFiles("sh tool/inner.sh /etc/passwd", { cwd: root, roots: [root] }).map((f) => [f.path, f.state]),
    [[`${root}/tool/inner.sh`, "missing"]],
  );
});
