import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { say, scriptedModel } from "../loop/_fakes.ts";

const EVERYTHING =
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url)
    .pathname;

Deno.test("a $mcp__server__prompt mention is expanded with prompts/get after the user's message (#14 item 10)", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.writeTextFile(
    `${env.TRELLIS_HOME}/config.toml`,
    `[mcp_servers.everything]\ncommand = "node"\nargs = [${
      JSON.stringify(EVERYTHING)
    }, "stdio"]\nrequired = true\n`,
  );
  await platform.fs.mkdir(`${root}/ws`);
  const loaded = await loadConfig(platform.fs, { cwd: `${root}/ws`, env: (name) => env[name] });
  const events: TrellisEventBody[] = [];
  const model = scriptedModel([[say("sunny")], [say("ok")]]);
  const session = await Session.open({
    platform,
    loaded,
    events: (e) => events.push(e),
    approver: noTtyApprover,
    model,
  });
  try {
    const listed = await session.mcpPrompts();
    assert.ok(
      listed.some((p) => p.modelName === "mcp__everything__args_prompt" && p.arguments[0].name === "city"),
    );
    assert.deepStrictEqual(await session.expandMcpPrompt("mcp__everything__args_prompt", "Oslo"), [
      { type: "message", role: "user", content: "What's weather in Oslo?" },
    ]);
    await session.runTurn({
      prompt: "Use $mcp__everything__args_prompt Paris TX\nthen summarise",
      maxSteps: 2,
      signal: new AbortController().signal,
    });
    const input = model.requests[0].input.flatMap((i) => i.type === "message" ? [[i.role, i.content]] : []);
    const at = input.findIndex(([, c]) => c === "Use $mcp__everything__args_prompt Paris TX\nthen summarise");
    assert.deepStrictEqual(input[at + 1], ["user", "What's weather in Paris, TX?"]);
    // A mention missing a required argument is a warning naming the prompt; the turn still runs.
    await session.runTurn({
      prompt: "$mcp__everything__args_prompt",
      maxSteps: 2,
      signal: new AbortController().signal,
    });
    assert.ok(
      events.some((e) => e.type === "warning" && /mcp__everything__args_prompt needs "city"/.test(e.message)),
    );
    assert.equal(model.requests.length, 2);
  } finally {
    await session.close();
  }
});
