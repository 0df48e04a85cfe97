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

Deno.test("hookTrustHash() keeps the hash of every hook without an `if`, so users' trust survives (#14)", () => {
  const securityGuidance =
    'bash "${CLAUDE_PLUGIN_ROOT}/hooks/sg-python.sh" "${CLAUDE_PLUGIN_ROOT}/hooks/security_reminder_hook.py"';
  // Pinned from the code before `if`, `async` and asyncRewake were read.
  assert.deepStrictEqual(
    [
      hookTrustHash(base),
      hookTrustHash({ event: "Stop", command: securityGuidance, timeoutSec: 600, onFailure: "ignore" }),
      hookTrustHash({
        event: "PostToolUse",
        matcher: "Edit|Write",
        command: "x",
        timeoutSec: 10,
        statusMessage: "checking",
        onFailure: "block",
      }),
    ],
    [
      "sha256:2623e1942dc9184e417e45906f09b45f9a9a65f7bdb1d930d02e276081a4c14c",
      "sha256:5d8880157e747997146b5eb0443a43909e23fb0203e64ae4895eff5a1b0282fa",
      "sha256:2bd308142646e454d88d8fc881bb5a82e3ee6d89559f07910d53ceed7a5a6667",
    ],
  );
});

Deno.test("hookTrustHash() tells apart two handlers that differ only in their `if` (#14, HK-5)", () => {
  const command =
    'bash "${CLAUDE_PLUGIN_ROOT}/hooks/sg-python.sh" "${CLAUDE_PLUGIN_ROOT}/hooks/security_reminder_hook.py"';
  const gated = (ifRule?: string) =>
    hookTrustHash({
      event: "PostToolUse",
      matcher: "Bash",
      command,
      timeoutSec: 600,
      onFailure: "ignore",
      ifRule,
    });
  const hashes = [gated(), gated("Bash(git commit:*)"), gated("Bash(git push:*)")];
  assert.deepStrictEqual(
    hashes[0],
    "sha256:ff051adf363232a355758bbc96941b87ab8b38bd47e6c5940b1232827a68b6d6",
  );
  assert.deepStrictEqual(new Set(hashes).size, 3);
  assert.notDeepStrictEqual(hookTrustHash({ ...base, async: true }), hookTrustHash(base));
});
