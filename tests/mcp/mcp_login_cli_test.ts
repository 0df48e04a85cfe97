import assert from "node:assert/strict";
import * as path from "node:path";
import { browserCommand, openInBrowser, platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";
import { fixture } from "./_helpers.ts";
import { startProtectedServer } from "./_oauth_fixture.ts";

/** A fake `xdg-open` that records the URL, then plays the browser (login does not wait for it). */
async function fakeOpener(): Promise<{ bin: string; opened: string }> {
  const bin = await platform.fs.makeTempDir("trellis-opener-");
  const opened = path.join(bin, "opened.txt");
  const script = `#!/bin/sh\nprintf '%s\\n' "$1" > '${opened}'\n` +
    `exec node '${fixture("fake_browser.mjs")}' "$1"\n`;
  await platform.fs.writeTextFile(path.join(bin, "xdg-open"), script);
  await platform.fs.chmod(path.join(bin, "xdg-open"), 0o755);
  return { bin, opened };
}

Deno.test("browserCommand() picks the system opener, and none on a Linux box without a display", () => {
  assert.deepStrictEqual(
    [
      browserCommand({}, "linux"),
      browserCommand({ DISPLAY: ":0" }, "linux"),
      browserCommand({ WAYLAND_DISPLAY: "w" }, "freebsd"),
      browserCommand({}, "darwin"),
      browserCommand({}, "win32"),
    ],
    [undefined, ["xdg-open"], ["xdg-open"], ["open"], ["rundll32", "url.dll,FileProtocolHandler"]],
  );
});

Deno.test("openInBrowser() returns false, running nothing, when no browser is available", async () => {
  assert.deepStrictEqual(
    await openInBrowser(platform, new URL("http://x/"), { env: {}, os: "linux" }),
    false,
  );
});

Deno.test("trellis mcp login prints the authorization URL and opens it with xdg-open (MCP-17, MCP-18)", async () => {
  const server = await startProtectedServer();
  const { bin, opened } = await fakeOpener();
  const { root, env } = await makeSandboxHome();
  const sandboxEnv = { ...env, DISPLAY: ":0", PATH: `${bin}:${platform.env("PATH") ?? ""}` };
  const cli = (...argv: string[]) => runCliCaptured(argv, { env: sandboxEnv, cwd: root });
  try {
    assert.deepStrictEqual((await cli("mcp", "add", "prot", "--url", server.url)).code, 0);
    const login = await cli("mcp", "login", "prot");
    const url = (await platform.fs.readTextFile(opened)).trim();
    assert.match(url, /\/authorize\?/);
    assert.deepStrictEqual(login, {
      code: 0,
      stdout: "Logged in to MCP server 'prot'.\n",
      stderr: `Open this URL to authorize Trellis:\n${url}\n`,
    });
    assert.deepStrictEqual(server.seen.authorize, 1);
  } finally {
    await server.close();
  }
});
