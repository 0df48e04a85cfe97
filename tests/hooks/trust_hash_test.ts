import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { hookTrustHash } from "../../lib/hooks/mod.ts";
import { platform } from "../../lib/platform/mod.ts";

const base = {
  event: "PreToolUse" as const,
  matcher: "Bash",
  command: "echo guard",
  timeoutSec: 30,
  onFailure: "ignore" as const,
};

Deno.test("hookTrustHash() is the same for the same hook written in JSON and TOML (HK-3)", async () => {
  const json = JSON.parse(
    await platform.fs.readTextFile(
      new URL("../../fixtures/hooks/guards/hooks.json", import.meta.url).pathname,
    ),
  );
  const toml = parseToml(
    await platform.fs.readTextFile(
      new URL("../../fixtures/hooks/guards/config.toml", import.meta.url).pathname,
    ),
  ) as { hooks: typeof json.hooks };
  const fromJson = json.hooks.PreToolUse[0];
  const fromToml = toml.hooks.PreToolUse[0];
  const hashOf = (group: typeof fromJson) =>
    hookTrustHash({
      ...base,
      matcher: group.matcher,
      command: group.hooks[0].command,
      timeoutSec: group.hooks[0].timeout,
    });
  assert.deepStrictEqual(hashOf(fromJson), hashOf(fromToml));
  assert.match(hashOf(fromJson), /^sha256:[0-9a-f]{64}$/);
});

Deno.test("hookTrustHash() changes when command, matcher, timeout, event or on_failure change (HK-3)", () => {
  const variants = [
    base,
    { ...base, command: "echo guard2" },
    { ...base, matcher: "Bash|Edit" },
    { ...base, timeoutSec: 31 },
    { ...base, event: "PostToolUse" as const },
    { ...base, onFailure: "block" as const },
  ];
  const hashes = new Set(variants.map(hookTrustHash));
  assert.deepStrictEqual(hashes.size, variants.length);
});
