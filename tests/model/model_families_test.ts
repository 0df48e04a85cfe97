import assert from "node:assert/strict";
import { knownContextWindow } from "../../lib/model/mod.ts";
import { resolveContextWindow } from "../../lib/app/mod.ts";

Deno.test("knownContextWindow() gives Codex's figures by model family, ignoring a provider prefix", () => {
  const cases: [string | undefined, number | undefined][] = [
    ["gpt-5", 272_000],
    ["gpt-5-codex", 272_000],
    ["gpt-5.1-codex-max", 272_000],
    ["GPT-5-mini", 272_000],
    ["openai/gpt-5", 272_000],
    ["codex-mini-latest", 200_000],
    ["o3", 200_000],
    ["o4-mini", 200_000],
    ["gpt-4.1", 1_047_576],
    ["gpt-4o-2024-08-06", 128_000],
    ["gpt-oss-120b", 96_000],
    ["claude-sonnet-4-5", 200_000],
    ["llama3.1:8b", undefined],
    ["fixture-model", undefined],
    [undefined, undefined],
  ];
  for (const [model, window] of cases) assert.equal(knownContextWindow(model), window, String(model));
});

Deno.test("resolveContextWindow(): model_context_window in config wins over the family table", () => {
  assert.equal(resolveContextWindow({ model: "gpt-5" }), 272_000);
  assert.equal(resolveContextWindow({ model: "gpt-5", model_context_window: 50_000 }), 50_000);
  assert.equal(resolveContextWindow({ model: "my-local-model" }), undefined);
});
