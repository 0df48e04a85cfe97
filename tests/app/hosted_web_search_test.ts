/**
 * #23 item 3: `tools.web_search` (Codex's key) declares the Responses API's hosted search after the
 * function tools, as Codex 0.171 sends it; unset, nothing is declared. `debug prompt` shows it too.
 */
import assert from "node:assert/strict";
import { execWithCalls } from "../tools/_everyday_exec.ts";

const lastTool = (run: { requests: Record<string, any>[] }) => run.requests[0].tools.at(-1);

Deno.test('tools.web_search = true declares {type:web_search} on Responses; "cached" without external access; unset: none', async () => {
  const live = await execWithCalls([], ["tools.web_search=true"]);
  assert.equal(live.code, 0, live.stderr);
  assert.deepEqual(lastTool(live), { type: "web_search", external_web_access: true });
  const cached = await execWithCalls([], ['tools.web_search="cached"']);
  assert.deepEqual(lastTool(cached), { type: "web_search", external_web_access: false });
  const off = await execWithCalls([], []);
  assert.equal(off.requests[0].tools.some((t: { type: string }) => t.type === "web_search"), false);
  const bad = await execWithCalls([], ['tools.web_search="sometimes"']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /tools\.web_search/);
});
