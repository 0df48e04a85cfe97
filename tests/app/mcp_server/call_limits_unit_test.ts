import assert from "node:assert/strict";
import type { LoadedConfig } from "../../../lib/config/mod.ts";
import { callConfigProblem, callCwdProblem } from "../../../lib/app/mcp_server/call_limits.ts";

/** The operator's settings as `callConfigProblem` reads them: only the `-c` layer matters. */
function operatorWith(flags: Record<string, unknown>): LoadedConfig {
  return { config: {}, layers: [{ kind: "session", source: "-c", table: flags }] } as unknown as LoadedConfig;
}

const open = { workspace: "/srv/ws", allowConfigOverrides: true };
const shut = { workspace: "/srv/ws", allowConfigOverrides: false };

Deno.test("callConfigProblem(): a -c value is a cap at its own key, above it and below it; a sibling is free", () => {
  const operator = operatorWith({ model_providers: { fixture: { base_url: "http://a" } }, max_steps: 20 });
  const check = (config: Record<string, unknown>, limits = open) =>
    callConfigProblem(limits, { prompt: "x", config }, operator);
  const capped =
    /the operator set model_providers\.fixture\.base_url with -c \("http:\/\/a"\); a call cannot change it/;
  assert.match(check({ "model_providers.fixture.base_url": "http://b" })!, capped);
  assert.match(check({ model_providers: { fixture: { base_url: "http://b" } } })!, capped);
  assert.match(check({ "model_providers.fixture": "flat" })!, capped);
  assert.equal(check({ "model_providers.fixture.base_url": "http://a" }), null); // its own value
  assert.equal(check({ "model_providers.other.base_url": "http://b" }), null); // a sibling
  assert.match(
    check({ max_steps: 21 }, shut)!,
    /^Not allowed for trellis: "config\.max_steps": the operator set/,
  );
  assert.equal(check({ max_steps: 20 }, shut), null);
  // Without --allow-config-overrides the sibling is refused as an operator-only key.
  assert.match(
    check({ "model_providers.other.base_url": "http://b" }, shut)!,
    /adds or changes model providers/,
  );
  // A key nobody classified is the operator's.
  assert.match(
    check({ some_future_section: { x: 1 } }, shut)!,
    /"config\.some_future_section": is an operator setting/,
  );
});

Deno.test("callCwdProblem(): the workspace and below, not a sibling whose name starts the same", () => {
  assert.equal(callCwdProblem(shut, "/srv/ws"), null);
  assert.equal(callCwdProblem(shut, "/srv/ws/a/b"), null);
  assert.match(
    callCwdProblem(shut, "/srv/ws-other")!,
    /"cwd": \/srv\/ws-other is outside the server's workspace \/srv\/ws/,
  );
  assert.match(callCwdProblem(shut, "/srv")!, /is outside/);
});
