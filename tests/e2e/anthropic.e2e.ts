/**
 * The Bun-compiled binary on the Anthropic Messages wire (#23 item 1): `model_provider =
 * "anthropic"` with ANTHROPIC_BASE_URL at the fixture model, a thinking tool-use turn whose signed
 * thinking goes back, and `debug context` counting through count_tokens (the SDK, loaded on demand).
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { runTrellis } from "./_binary.ts";
import { e2eSetup, modelFixture } from "./_setup.ts";

// The fixture calls read_file: Trellis's names pinned (auto would give Claude Code's Read).
const claude = ["-c", "model_provider=anthropic", "-c", "model=claude-sonnet-4-5", "-c", "tool_set=trellis"];

Deno.test("e2e: exec on the Anthropic wire runs a thinking tool-use turn; the signed thinking goes back (#23 item 1)", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({ script: modelFixture("anthropic_thinking_tool") });
  try {
    const env = {
      ...s.env,
      ANTHROPIC_API_KEY: "sk-ant-e2e",
      ANTHROPIC_BASE_URL: server.url.replace(/\/v1$/, ""),
    };
    const run = await runTrellis(["exec", ...claude, "-c", "model_reasoning_effort=high", "read the notes"], {
      env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /The notes say hello\./);
    const [first, second] = server.requests as Record<string, any>[];
    assert.deepEqual(first.thinking, { type: "enabled", budget_tokens: 31999 });
    assert.deepEqual(second.messages.at(-2).content.map((b: { type: string }) => b.type), [
      "thinking",
      "tool_use",
    ]);
    assert.match(JSON.stringify(second.messages.at(-1).content[0].content), /TODO: ship/);
  } finally {
    await server.close();
  }
});

Deno.test("e2e: debug context --json on the Anthropic wire carries the provider's exact total (#23 item 1)", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({ script: { steps: [] } });
  try {
    const env = { ...s.env, ANTHROPIC_API_KEY: "sk-ant-e2e", ANTHROPIC_BASE_URL: server.url };
    const run = await runTrellis(["debug", "context", "--json", ...claude, "hello"], {
      env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    const ledger = JSON.parse(run.stdout);
    assert.equal(ledger.encoding, "estimate");
    assert.equal(ledger.providerTotal.source, "count_tokens");
    assert.ok(ledger.providerTotal.tokens > 0);
  } finally {
    await server.close();
  }
});
