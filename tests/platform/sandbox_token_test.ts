import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeBox, NOBODY, policyFor, removeBox, runInSandbox } from "./_sandbox_box.ts";

// Issue #20 item 3: `mcp-server --http` writes its bearer token under $TRELLIS_HOME/run. A sandboxed
// command (network on or not) that could read it could drive that server, outside the sandbox.

for (const [who, as] of [["root", undefined], ["an unprivileged user", NOBODY]] as const) {
  Deno.test(`sandboxArgv() hides $TRELLIS_HOME/run (mcp-server's bearer tokens) from ${who}; the home's other files stay readable`, async () => {
    const box = await makeBox();
    try {
      const home = `${box.root}/trellis-home`;
      await platform.fs.mkdir(`${home}/run`);
      await platform.fs.mkdir(`${home}/skills/s`);
      // World-readable here, so a failed read as nobody is the sandbox's doing, not the file mode's.
      for (const dir of [home, `${home}/run`, `${home}/skills`, `${home}/skills/s`]) {
        await platform.fs.chmod(dir, 0o755);
      }
      await platform.fs.writeTextFile(`${home}/run/mcp-server-1.token`, "secret-token\n");
      await platform.fs.chmod(`${home}/run/mcp-server-1.token`, 0o644);
      await platform.fs.writeTextFile(`${home}/skills/s/SKILL.md`, "skill\n");
      await platform.fs.chmod(`${home}/skills/s/SKILL.md`, 0o644);
      const result = await runInSandbox(
        policyFor(box, { trellisHome: home }),
        `cat ${home}/run/mcp-server-1.token 2>&1; ls ${home}/run; cat ${home}/skills/s/SKILL.md`,
        as ? { as: [...as] } : {},
      );
      assert.match(result.stdout, /mcp-server-1\.token: No such file or directory\nskill\n$/, result.stderr);
      assert.doesNotMatch(result.stdout, /secret-token/);
      assert.equal(await platform.fs.readTextFile(`${home}/run/mcp-server-1.token`), "secret-token\n");
    } finally {
      await removeBox(box);
    }
  });
}
