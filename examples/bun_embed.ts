/**
 * Trellis embedded in a Bun program: the same library as on Deno (mod.ts), run by Bun from the
 * sources. Each argument is one turn of one session, with the config Trellis reads in the current
 * directory, its MCP servers, skills, hooks and plugins.
 *
 *     node_modules/.bin/bun run examples/bun_embed.ts "What is in this directory?"
 *
 * The agent's messages go to stderr as they complete; the last line on stdout is a JSON summary.
 * tests/examples_test.ts runs it against the fixture model server.
 */
import process from "node:process";
import { Trellis, TrellisError, type TrellisEvent } from "../mod.ts";

const args = process.argv.slice(2);
const prompts = args.length > 0 ? args : ["Say hello."];
const trellis = await Trellis.open();
for (const m of trellis.configMessages()) console.error(`${m.level}: ${m.message}`);

const turnIds: string[] = [];
const onEvent = (event: TrellisEvent) => {
  if (event.type === "turn.started") turnIds.push(event.turn_id);
  if (event.type === "item.completed" && event.item.type === "agent_message") console.error(event.item.text);
};
// SessionStart hooks have run (and added their context) when openSession returns.
// A user's mistake (no API key, an unknown model provider) is a TrellisError meant for a person.
const session = await trellis.openSession({ events: onEvent, approve: () => Promise.resolve(false) })
  .catch((error) => {
    if (!(error instanceof TrellisError)) throw error;
    console.error(`error: ${error.message}`);
    process.exit(1);
  });
const outcomes = [];
try {
  for (const prompt of prompts) outcomes.push(await session.runTurn(prompt, { maxSteps: 20 }));
} finally {
  await session.close();
}
console.log(JSON.stringify({
  runtime: `bun ${process.versions.bun}`,
  session: session.id,
  turns: turnIds,
  skills: (await trellis.skills()).filter((s) => s.enabled).map((s) => s.name),
  hooks: (await trellis.hooks()).map((h) => `${h.event}:${h.trust}`),
  outcomes: outcomes.map((o) => ({ status: o.status, lastMessage: o.lastMessage, steps: o.steps })),
}));
