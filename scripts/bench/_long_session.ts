/**
 * The long-conversation bench's session (#15 item 6 figure), run as its own process (under Bun, the
 * binary's runtime) so its memory is its own: `bun scripts/bench/_long_session.ts URL HOME CWD TURNS`
 * opens a Session on the fixture model server at URL, runs TURNS turns, and prints one JSON line:
 * RSS after turn 10 and after the last, compactions seen, the thread id.
 */
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";

const [url, home, cwd, turnsArg] = platform.args();
const turns = Number(turnsArg);
const env: Record<string, string> = { HOME: home, TRELLIS_HOME: `${home}/.trellis`, PATH: "/usr/bin:/bin" };
const loaded = await loadConfig(platform.fs, {
  cwd,
  env: (name) => env[name],
  overrides: [
    "model_provider=fixture",
    "tool_set=trellis",
    `model_providers.fixture.base_url=${JSON.stringify(url)}`,
    "model_context_window=3000",
    "skills.bundled.enabled=false",
  ],
});
let compactions = 0;
const session = await Session.open({
  platform: { ...platform, env: (name) => env[name], envAll: () => ({ ...env }) },
  loaded,
  events: (e) => {
    if (e.type === "item.completed" && e.item.type === "context_compaction") compactions++;
    if (e.type === "turn.failed" || e.type === "warning") throw new Error(JSON.stringify(e));
  },
  approver: noTtyApprover,
});
const rss = () => {
  (globalThis as { Bun?: { gc(force: boolean): void } }).Bun?.gc(true);
  return (globalThis as unknown as { process: { memoryUsage(): { rss: number } } }).process.memoryUsage().rss;
};
const signal = new AbortController().signal;
let rssAt10 = NaN;
for (let turn = 1; turn <= turns; turn++) {
  const result = await session.runTurn({
    prompt:
      `Note ${turn}: the run finished; compare its numbers with the previous one and list what changed.`,
    maxSteps: 3,
    signal,
  });
  if (result.status !== "completed") throw new Error(`turn ${turn}: ${JSON.stringify(result)}`);
  if (turn === 10) rssAt10 = rss();
}
const rssAtEnd = rss();
const threadId = session.threadId;
await session.close();
console.log(JSON.stringify({ rssAt10, rssAtEnd, compactions, threadId }));
