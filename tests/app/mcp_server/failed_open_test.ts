import assert from "node:assert/strict";
import { connectStdio, serverSetup, waitFor } from "./_harness.ts";

const FX = new URL("../../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;

/** Processes whose command line holds `token`. */
async function processesWith(token: string): Promise<number[]> {
  const pids: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (cmdline.includes(token)) pids.push(Number(entry.name));
  }
  return pids;
}

Deno.test("mcp-server: a thread whose session fails to open leaves no MCP server running behind it", async () => {
  const setup = await serverSetup("text_reply");
  const token = `trellis-leak-probe-${crypto.randomUUID()}`;
  await Deno.writeTextFile(
    `${setup.home}/config.toml`,
    `[mcp_servers.good]\ncommand = "node"\nargs = [${JSON.stringify(FX)}, "echo", ${
      JSON.stringify(token)
    }]\n\n` +
      `[mcp_servers.bad]\ncommand = "/nonexistent/server"\nrequired = true\n`,
  );
  const { client } = await connectStdio(setup);
  try {
    const result = await client.callTool({ name: "trellis", arguments: { prompt: "hi" } });
    assert.equal(result.isError, true);
    assert.match(
      (result.content as { text: string }[])[0].text,
      /^Cannot start required MCP server "bad" \(/,
    );
    // The server goes on serving; the good MCP server it started for that thread is gone.
    await waitFor(async () => (await processesWith(token)).length === 0, 10_000);
  } finally {
    await client.close();
    await setup.close();
  }
});
