import assert from "node:assert/strict";
import { startProtectedServer } from "../mcp/_oauth_fixture.ts";
import { runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

Deno.test("MCP-17 `mcp probe --oauth-headless --call-all` authorizes without a browser and calls every tool", async () => {
  const setup = await e2eSetup();
  const fixture = await startProtectedServer();
  try {
    const result = await runTrellis(["mcp", "probe", "--call-all", "--oauth-headless", fixture.url], {
      env: setup.env,
      cwd: setup.workspace,
      timeoutMs: 30_000,
    });
    assert.deepStrictEqual({ code: result.code, stdout: result.stdout }, {
      code: 0,
      stdout: 'server: protected 1\ncapabilities: {"tools":{"listChanged":true}}\n' +
        "tools (1):\n  whoami: Says who\ncall whoami: ok\n",
    }, result.stderr);
    assert.deepStrictEqual(fixture.seen.authorize, 1);
  } finally {
    await fixture.close();
    await Deno.remove(setup.root, { recursive: true });
  }
});
