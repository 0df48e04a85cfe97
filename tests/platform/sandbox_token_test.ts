import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { makeBox, policyFor, removeBox, runInSandbox } from "./_sandbox_box.ts";

// Issue #20 item 3: `mcp-server --http` writes its bearer token under $TRELLIS_HOME/run. A sandboxed
// command (network on or not) that could read it could drive that server, outside the sandbox.

Deno.test("sandboxArgv() hides $TRELLIS_HOME/run (mcp-server's bearer tokens); the home's other files stay readable", async () => {
  const box = await makeBox();
  try {
    const home = `${box.root}/trellis-home`;
    await platform.fs.mkdir(`${home}/run`);
    await platform.fs.mkdir(`${home}/skills/s`);
    await platform.fs.writeFile(
      `${home}/run/mcp-server-1.token`,
      new TextEncoder().encode("secret-token\n"),
      {
        mode: 0o600,
      },
    );
    await platform.fs.writeTextFile(`${home}/skills/s/SKILL.md`, "skill\n");
    const result = await runInSandbox(
      policyFor(box, { trellisHome: home }),
      `cat ${home}/run/mcp-server-1.token 2>&1; ls ${home}/run; cat ${home}/skills/s/SKILL.md`,
    );
    assert.match(result.stdout, /mcp-server-1\.token: No such file or directory\nskill\n$/);
    assert.doesNotMatch(result.stdout, /secret-token/);
    assert.equal(await platform.fs.readTextFile(`${home}/run/mcp-server-1.token`), "secret-token\n");
  } finally {
    await removeBox(box);
  }
});
