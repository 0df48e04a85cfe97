/**
 * #23 item 3 through a real terminal: the model's plan (update_plan) is a block redrawn in place
 * while the turn runs, and request_user_input is asked in place — trellis in tmux against the real
 * fixture model; the answer reaches the model.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { e2eSetup } from "./_setup.ts";
import { TmuxTerminal } from "./_tmux.ts";

const PROMPT = /^›$/m;

Deno.test("interactive: the plan block updates in place while the model asks a question, then is committed; the answer reaches the model", async () => {
  const s = await e2eSetup();
  const server = await startFixtureModelServer({
    script: [
      {
        tool_calls: [
          {
            name: "update_plan",
            arguments: {
              plan: [{ step: "Pick a database", status: "in_progress" }, {
                step: "Write the schema",
                status: "pending",
              }],
            },
          },
          {
            name: "request_user_input",
            arguments: {
              questions: [{
                id: "db",
                header: "Database",
                question: "Which database should the service use?",
                options: [
                  { label: "Postgres", description: "The team runs it already" },
                  { label: "SQLite", description: "One file, no server" },
                ],
              }],
            },
          },
        ],
      },
      {
        tool_calls: [{
          name: "update_plan",
          arguments: {
            plan: [{ step: "Pick a database", status: "completed" }, {
              step: "Write the schema",
              status: "completed",
            }],
          },
        }],
      },
      { text: "Schema written for SQLite." },
    ],
  });
  const t = await TmuxTerminal.start({ cwd: s.workspace, env: s.env, args: s.flags(server.url) });
  try {
    await t.waitFor(PROMPT);
    await t.typeLine("set up the service");
    const asking = await t.waitFor(/Which database should the service use\?[\s\S]*Something else/);
    assert.match(asking, /Plan \(0\/2 done\)\n {2}\[>\] Pick a database\n {2}\[ \] Write the schema/);
    assert.match(asking, /Postgres — The team runs it already/);
    await t.press("Down", "Enter");
    const done = await t.waitFor(/Schema written for SQLite\./);
    assert.match(done, /✓ SQLite/);
    // One plan block is left: the final one, committed above the answer.
    assert.equal(done.match(/Plan \(\d\/2 done\)/g)?.length, 1, done);
    assert.match(done, /Plan \(2\/2 done\)\n {2}\[x\] Pick a database\n {2}\[x\] Write the schema/);
    const third = server.requests[2] as { input: { type: string; output?: string }[] };
    const answer = third.input.find((i) =>
      i.type === "function_call_output" && i.output?.includes("answers")
    );
    assert.equal(answer?.output, '{"answers":{"db":{"answers":["SQLite"]}}}');
  } finally {
    await t.close();
    await server.close();
  }
});
