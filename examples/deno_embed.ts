/**
 * Trellis embedded in a Deno program: each argument is one turn of one session, run with the
 * config Trellis reads in the current directory (`$TRELLIS_HOME/config.toml`, a trusted project's
 * `.trellis/config.toml`), its MCP servers, skills, hooks and plugins.
 *
 *     deno run -A examples/deno_embed.ts "What is in this directory?" "Summarize README.md"
 *
 * The agent's messages go to stderr as they complete; the last line on stdout is a JSON summary.
 * tests/examples_test.ts runs it against the fixture model server.
 */
import { Trellis, TrellisError, type TrellisEvent } from "../mod.ts";

const prompts = Deno.args.length > 0 ? Deno.args : ["Say hello."];
const trellis = await Trellis.open();
for (const m of trellis.configMessages()) console.error(`${m.level}: ${m.message}`);

const turnIds: string[] = [];
const onEvent = (event: TrellisEvent) => {
  if (event.type === "turn.started") turnIds.push(event.turn_id);
  if (event.type === "item.completed" && event.item.type === "agent_message") console.error(event.item.text);
};
// SessionStart hooks have run (and added their context) when openSession returns.
// A user's mistake (no API key, an unknown model provider) is a TrellisError with a message meant
// for a person: print it, no stack trace.
const session = await trellis.openSession({
  events: onEvent,
  // Approvals the config asks for: this program allows nothing beyond what the policy allows.
  approve: () => Promise.resolve(false),
}).catch((error) => {
  if (!(error instanceof TrellisError)) throw error;
  console.error(`error: ${error.message}`);
  Deno.exit(1);
});
const outcomes = [];
try {
  for (const prompt of prompts) outcomes.push(await session.runTurn(prompt, { maxSteps: 20 }));
} finally {
  await session.close();
}
console.log(JSON.stringify({
  runtime: `deno ${Deno.version.deno}`,
  session: session.id,
  turns: turnIds,
  skills: (await trellis.skills()).filter((s) => s.enabled).map((s) => s.name),
  hooks: (await trellis.hooks()).map((h) => `${h.event}:${h.trust}`),
  outcomes: outcomes.map((o) => ({ status: o.status, lastMessage: o.lastMessage, steps: o.steps })),
}));
