import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import fc from "fast-check";
import { hookTrustHash } from "../../lib/hooks/mod.ts";
import { canonicalJson, canonicalText } from "../../lib/hooks/trust_hash.ts";
import { createHash } from "node:crypto";
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

// #26 item 5: Codex's hash computed as Codex computes it (codex-rs `command_hook_hash`, written here
// from its source, not from Trellis's code): the identity {event_name, matcher only for the events
// that use one, hooks: [{type, command, timeout, async, statusMessage?}]} goes through a TOML value
// (absent fields dropped) to JSON with every key sorted, compact, SHA-256.
const CODEX_MATCHER_EVENTS = new Set([
  "permission_request",
  "post_compact",
  "post_tool_use",
  "pre_compact",
  "pre_tool_use",
  "session_start",
]);
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return `{${
      Object.keys(record).sort().map((k) => `${JSON.stringify(k)}:${sortedJson(record[k])}`).join(",")
    }}`;
  }
  return JSON.stringify(value);
}
function codexHash(
  label: string,
  matcher: string | undefined,
  command: string,
  timeout = 600,
  status?: string,
) {
  const handler: Record<string, unknown> = { type: "command", command, timeout, async: false };
  if (status !== undefined) handler.statusMessage = status;
  const identity: Record<string, unknown> = { event_name: label, hooks: [handler] };
  if (matcher !== undefined && CODEX_MATCHER_EVENTS.has(label)) identity.matcher = matcher;
  return `sha256:${createHash("sha256").update(sortedJson(identity)).digest("hex")}`;
}

Deno.test("codexHash() (Codex's rule, written from its source) reproduces hashes a Codex user's config holds", () => {
  // Hashes a public project pinned against a real Codex build for its own hooks.
  const gwt = "'/Applications/GWT.app/Contents/MacOS/gwtd' hook event PostToolUse";
  assert.equal(
    codexHash("post_tool_use", "*", gwt),
    "sha256:9c3ce103f03f0b27a28bc4a30883f7e98a80b5df566b4572fcbb2955ebf5ba62",
  );
  const prompt =
    'gwt_bin="${GWT_BIN_PATH:-/Applications/GWT.app/Contents/MacOS/gwtd}"; "$gwt_bin" hook event UserPromptSubmit';
  assert.equal(
    codexHash("user_prompt_submit", "*", prompt),
    "sha256:1a86ba6796c5b5bf1601fd1af1d6094846287ec85e9f1ad4d39335c6b306e2fa",
  );
});

Deno.test("hookTrustHash() of a Codex-compatible hook is Codex's own hash, for every event and field (HK-3, #26 item 5)", () => {
  const cases = [
    { event: "PreToolUse", label: "pre_tool_use", matcher: "Bash" },
    { event: "PermissionRequest", label: "permission_request", matcher: "Bash" },
    { event: "PostToolUse", label: "post_tool_use", matcher: "Edit|Write" },
    { event: "PreCompact", label: "pre_compact", matcher: "auto" },
    { event: "PostCompact", label: "post_compact", matcher: "manual" },
    { event: "SessionStart", label: "session_start", matcher: "startup|resume" },
    // Codex ignores a matcher here and leaves it out of the hash: a matcher must not change it.
    { event: "UserPromptSubmit", label: "user_prompt_submit", matcher: "*" },
    { event: "Stop", label: "stop", matcher: "*" },
    { event: "Stop", label: "stop", matcher: undefined },
  ] as const;
  for (const c of cases) {
    for (const [timeoutSec, statusMessage] of [[600, undefined], [5, "checking"]] as const) {
      const command = `echo ${c.label} $HOME "quoted" 'single'`;
      assert.equal(
        hookTrustHash({
          event: c.event,
          matcher: c.matcher,
          command,
          timeoutSec,
          statusMessage,
          onFailure: "ignore",
        }),
        codexHash(c.label, c.matcher, command, timeoutSec, statusMessage),
        `${c.event} matcher=${c.matcher} timeout=${timeoutSec}`,
      );
    }
  }
});

Deno.test("hookTrustHash()'s native serialization writes exactly the sorted-key text for any value, or leaves it to the string builder (HK-3)", () => {
  // Keys that reorder (digits, case, "__proto__"), values JSON.stringify writes differently
  // (undefined, dates, -0, NaN), and nesting: every one must give canonicalJson's bytes.
  const key = fc.oneof(
    fc.constantFrom("a", "B", "b", "10", "9", "0", "01", "__proto__", "toJSON", "", "é", "a.b", "\u0000"),
    fc.string({ maxLength: 4 }),
  );
  const leaf = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(-0),
    fc.date({ noInvalidDate: true }),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: "small" }, leaf, tie("array"), tie("object")),
    array: fc.array(tie("node"), { maxLength: 4 }),
    object: fc.dictionary(key, tie("node"), { maxKeys: 5 }),
  })).node;
  fc.assert(
    fc.property(value, (v) => {
      assert.equal(canonicalText(v), canonicalJson(v));
    }),
    { numRuns: 2000 },
  );
  // The shapes a hook's identity has take the native path and keep their Codex hash.
  const identity = {
    event_name: "pre_tool_use",
    hooks: [{ type: "command", command: "x", timeout: 30, async: false }],
  };
  assert.equal(
    canonicalText(identity),
    '{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"x","timeout":30,"type":"command"}]}',
  );
  const withProto = JSON.parse('{"__proto__": {"b": 1}, "a": [1, {"10": 2, "9": 3}]}');
  assert.equal(canonicalText(withProto), '{"__proto__":{"b":1},"a":[1,{"10":2,"9":3}]}');
});
