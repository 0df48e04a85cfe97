import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { openFixtureSession } from "../helpers/fixture_session.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";

// #24 item 3: an installed Gemini CLI extension's MCP servers and context files, read in place
// from ~/.gemini/extensions/<dir>/gemini-extension.json as Gemini CLI reads them (the shape of
// the public extensions: `mcpServers` with `${extensionPath}`, `contextFileName`, `excludeTools`).

const FIXTURE_MCP = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

async function withExtensions(
  compat: string[],
  prompt: string,
  check: (r: { bodies: Body[]; events: TrellisEventBody[]; cwd: string; ext: string }) => void,
  prepare?: (r: { cwd: string; ext: string }) => Promise<void>,
) {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  const exts = `${env.HOME}/.gemini/extensions`;
  const ext = `${exts}/tools-ext`;
  await platform.fs.mkdir(ext);
  // The server is started through a script in the extension: it runs only if `${extensionPath}` was filled in.
  await platform.fs.writeTextFile(`${ext}/run.sh`, `#!/bin/sh\nexec node ${FIXTURE_MCP} echo\n`);
  await platform.fs.chmod(`${ext}/run.sh`, 0o755);
  await platform.fs.writeTextFile(
    `${ext}/gemini-extension.json`,
    JSON.stringify({
      name: "tools-ext",
      version: "1.0.0",
      contextFileName: "CONTEXT.md",
      mcpServers: { gext: { command: "${extensionPath}${/}run.sh", excludeTools: ["pid"], timeout: 30000 } },
    }),
  );
  await platform.fs.writeTextFile(`${ext}/CONTEXT.md`, "EXT-CONTEXT: prefer the gext tools.\n");
  await platform.fs.mkdir(`${ext}/commands/git`);
  await platform.fs.writeTextFile(
    `${ext}/commands/review.toml`,
    `description = "Reviews a file"\nprompt = """\nREVIEW-PROMPT: check {{args}} for bugs.\n"""\n`,
  );
  await platform.fs.writeTextFile(
    `${ext}/commands/git/commit.toml`,
    'prompt = "COMMIT-PROMPT: write the message."\n',
  );
  await platform.fs.writeTextFile(`${ext}/commands/broken.toml`, 'description = "no prompt"\n');
  // An extension whose manifest is broken: hooks, MCP, instructions and commands all read the folder.
  await platform.fs.mkdir(`${exts}/broken-ext`);
  await platform.fs.writeTextFile(`${exts}/broken-ext/gemini-extension.json`, "{ not json");
  // A second extension, disabled for this directory by extension-enablement.json.
  await platform.fs.mkdir(`${exts}/off-ext`);
  await platform.fs.writeTextFile(
    `${exts}/off-ext/gemini-extension.json`,
    JSON.stringify({ name: "off-ext" }),
  );
  await platform.fs.writeTextFile(`${exts}/off-ext/GEMINI.md`, "OFF-CONTEXT\n");
  await platform.fs.writeTextFile(
    `${exts}/extension-enablement.json`,
    JSON.stringify({ "off-ext": { overrides: [`!${cwd}/*`] } }),
  );
  await prepare?.({ cwd, ext });
  const server = await startFixtureModelServer({
    script: {
      steps: [{ tool_calls: [{ name: "mcp__gext__echo", arguments: { text: "GEXT-ECHO" } }] }, {
        text: "done",
      }],
    },
  });
  const { session, events } = await openFixtureSession({
    cwd,
    env,
    url: server.url,
    overrides: [
      "approval_policy=never",
      ...compat,
    ],
  });
  try {
    await session.runTurn({ prompt, maxSteps: 4, signal: new AbortController().signal });
  } finally {
    await session.close();
    await server.close();
  }
  check({ bodies: server.requests as Body[], events, cwd, ext });
}

Deno.test("a Gemini extension's mcpServers start (${extensionPath} filled in, excludeTools applied) and its context file reaches the model; a disabled extension's does not (#24 item 3)", async () => {
  await withExtensions([], "go", ({ bodies, ext }) => {
    const [first, second] = bodies;
    const names = first.tools.map((t: Body) => t.name);
    assert.ok(names.includes("mcp__gext__echo"), names.join(", "));
    assert.ok(!names.includes("mcp__gext__pid"), "excludeTools leaves pid out");
    const input = JSON.stringify(first.input);
    assert.ok(
      input.includes(
        `--- Context from: ${ext}/CONTEXT.md ---\\nEXT-CONTEXT: prefer the gext tools.\\n--- End of Context from:`,
      ),
      input,
    );
    assert.ok(!input.includes("OFF-CONTEXT"), "the disabled extension's GEMINI.md is not read");
    const output = second.input.find((i: Body) => i.type === "function_call_output");
    assert.match(output.output, /GEXT-ECHO/);
  });
});

Deno.test("[compat] gemini = false reads neither the extension's servers nor its context (the switch)", async () => {
  await withExtensions(["compat.gemini=false"], "go", ({ bodies }) => {
    const names = bodies[0].tools.map((t: Body) => t.name);
    assert.ok(!names.some((n: string) => n.startsWith("mcp__gext__")), names.join(", "));
    assert.ok(!JSON.stringify(bodies[0].input).includes("EXT-CONTEXT"));
  });
});

Deno.test("a Gemini extension's commands/*.toml run as <extension>:<command>: {{args}} filled in, or the command appended when it has none; a command without prompt is named (#24 item 3)", async () => {
  await withExtensions(
    [],
    "$tools-ext:review src/main.ts\n$tools-ext:git:commit now",
    ({ bodies, events }) => {
      const input = JSON.stringify(bodies[0].input);
      assert.ok(input.includes("REVIEW-PROMPT: check src/main.ts for bugs."), input);
      assert.ok(input.includes("COMMIT-PROMPT: write the message.\\n\\n/tools-ext:git:commit now"), input);
      const warnings = events.filter((e) => e.type === "warning").map((e) => JSON.stringify(e)).join("\n");
      assert.match(warnings, /broken\.toml.*missing field `prompt`/);
    },
  );
});

Deno.test("a broken extension manifest is one warning naming it, though hooks, MCP, instructions and commands each read the extensions (#24 item 3)", async () => {
  await withExtensions([], "go", ({ events }) => {
    const named = events.filter((e) => e.type === "warning" && JSON.stringify(e).includes("broken-ext"));
    assert.equal(named.length, 1, JSON.stringify(named));
    assert.match(JSON.stringify(named[0]), /gemini-extension\.json.*invalid JSON/);
  });
});

Deno.test("a Gemini command's @{…} is filled with a file's text or a directory's files, from the workspace only; a path it cannot read stays as written, named (#24 item 3)", async () => {
  await withExtensions(
    [],
    "$tools-ext:brief ARG1\n$tools-ext:open",
    ({ bodies, events }) => {
      // Every text the first request carries, as the model reads it.
      const input = (bodies[0].input as Body[]).flatMap((i) =>
        typeof i.content === "string" ? [i.content] : (i.content ?? []).map((c: Body) => c.text ?? "")
      ).join("\n");
      assert.ok(input.includes("BRIEF ARG1\nNOTES: {{args}} stays @{docs}\n\n"), input);
      assert.ok(
        input.includes(
          "--- Start of content for directory: docs ---\n--- a.md ---\nDOC-A\n--- End of content for directory: docs ---",
        ),
        input,
      );
      for (const kept of ["@{/etc/passwd}", "@{escape}", "@{missing.md}"]) {
        assert.ok(input.includes(kept), kept);
      }
      assert.ok(input.includes("OPEN @{notes.md"), input);
      for (const never of ["SECRET", "GITX", "root:x:0"]) assert.ok(!input.includes(never), never);
      const warnings = events.filter((e) => e.type === "warning").map((e) =>
        (e as { message: string }).message
      );
      const about = (what: RegExp) => warnings.filter((w) => what.test(w));
      assert.equal(
        about(/\/tools-ext:brief: cannot fill @\{\/etc\/passwd\}: absolute path is outside the workspace/)
          .length,
        1,
      );
      assert.equal(about(/cannot fill @\{escape\}: .*leads outside the workspace/).length, 1);
      assert.equal(about(/cannot fill @\{missing\.md\}: path not found in the workspace/).length, 1);
      assert.equal(about(/@\{docs\/b\.bin\}: a binary file, left out/).length, 1);
      assert.equal(about(/\/tools-ext:open: the `@\{` at offset 5 is never closed/).length, 1);
    },
    async ({ cwd, ext }) => {
      await platform.fs.writeTextFile(`${cwd}/notes.md`, "NOTES: {{args}} stays @{docs}\n");
      await platform.fs.mkdir(`${cwd}/docs/.git`);
      await platform.fs.writeTextFile(`${cwd}/docs/a.md`, "DOC-A");
      await platform.fs.writeFile(`${cwd}/docs/b.bin`, new Uint8Array([0x7f, 0x45, 0, 1, 2]));
      await platform.fs.writeTextFile(`${cwd}/docs/.git/config`, "GITX");
      await platform.fs.writeTextFile(`${ext}/secret.txt`, "SECRET");
      await platform.fs.symlink(`${ext}/secret.txt`, `${cwd}/escape`);
      await platform.fs.writeTextFile(
        `${ext}/commands/brief.toml`,
        'prompt = """\nBRIEF {{args}}\n@{notes.md}\n@{docs}\n@{/etc/passwd}\n@{escape}\n@{missing.md}\n"""\n',
      );
      await platform.fs.writeTextFile(`${ext}/commands/open.toml`, 'prompt = "OPEN @{notes.md"\n');
    },
  );
});

// The file `!{touch …}` tries to write: in the test's home, outside every writable root.
const pwnedPath = (ext: string) => `${ext.slice(0, ext.indexOf("/.gemini/"))}/pwned`;

/** The extension's `shell` command: a printf of its arguments, then a touch of pwnedPath. */
const writeShellCommand = ({ ext }: { ext: string }) =>
  platform.fs.writeTextFile(
    `${ext}/commands/shell.toml`,
    `prompt = """\nSHELL {{args}}\n!{printf 'RAN:%s' {{args}}}\n!{touch ${pwnedPath(ext)}}\n"""\n`,
  );

// Every text the first request carries, as the model reads it.
const requestText = (body: Body) =>
  (body.input as Body[]).flatMap((i) =>
    typeof i.content === "string" ? [i.content] : (i.content ?? []).map((c: Body) => c.text ?? "")
  ).join("\n");

Deno.test("a Gemini command's !{…} runs as the shell tool's commands do: its output fills the prompt, {{args}} one word; it stays in the sandbox (#24 item 3)", async () => {
  let target = "";
  await withExtensions(
    ["sandbox_mode=read-only"],
    "$tools-ext:shell it's x",
    ({ bodies, ext }) => {
      target = pwnedPath(ext);
      const input = requestText(bodies[0]);
      assert.ok(input.includes("SHELL it's x\nRAN:it's x"), input);
      // approval_policy = "never" asks no one, and the command stays in the (read-only) sandbox.
      assert.ok(input.includes(`[Shell command 'touch ${target}' exited with code 1]`), input);
      assert.ok(!input.includes("!{"), input);
    },
    writeShellCommand,
  );
  assert.equal(await platform.fs.stat(target), null);
});

Deno.test("a Gemini command's !{…} is asked about each time: with no one to ask it does not run, and is named (#24 item 3)", async () => {
  let target = "";
  await withExtensions(
    ["approval_policy=on-request", "sandbox_mode=danger-full-access"],
    "$tools-ext:shell x",
    ({ bodies, events, ext }) => {
      target = pwnedPath(ext);
      const input = requestText(bodies[0]);
      assert.ok(input.includes("SHELL x\n!{printf 'RAN:%s' {{args}}}\n"), input);
      assert.ok(!input.includes("RAN:x"), input);
      const warnings = events.filter((e) => e.type === "warning").map((e) =>
        (e as { message: string }).message
      );
      const named = (command: string) =>
        warnings.filter((w) =>
          w.startsWith(`Gemini CLI command /tools-ext:shell: !{${command}} not run: not approved (`)
        );
      assert.equal(named("printf 'RAN:%s' 'x'").length, 1, warnings.join("\n"));
      assert.equal(named(`touch ${target}`).length, 1, warnings.join("\n"));
    },
    writeShellCommand,
  );
  // Not asked means not run, even with full access.
  assert.equal(await platform.fs.stat(target), null);
});

Deno.test("a Gemini command's !{…} is judged by the permission rules as a Bash call: deny refuses it, allow runs it unasked (#24 item 3)", async () => {
  let target = "";
  const warningsOf = (events: TrellisEventBody[]) =>
    events.filter((e) => e.type === "warning").map((e) => (e as { message: string }).message);
  // Under "never" nothing is asked, but a deny rule still refuses; the other command runs (sandboxed).
  await withExtensions(
    ["sandbox_mode=read-only", 'permissions.deny=["Bash(printf:*)"]'],
    "$tools-ext:shell x",
    ({ bodies, events, ext }) => {
      target = pwnedPath(ext);
      const input = requestText(bodies[0]);
      assert.ok(input.includes("!{printf 'RAN:%s' {{args}}}"), input);
      assert.ok(input.includes(`[Shell command 'touch ${target}' exited with code 1]`), input);
      assert.ok(
        warningsOf(events).some((w) =>
          w.includes(`!{printf 'RAN:%s' 'x'} not run: permission rule deny "Bash(printf:*)"`)
        ),
        warningsOf(events).join("\n"),
      );
    },
    writeShellCommand,
  );
  // With no one to ask, an allow rule runs its command; the other is still asked about, and refused.
  await withExtensions(
    ["approval_policy=on-request", "sandbox_mode=read-only", 'permissions.allow=["Bash(printf:*)"]'],
    "$tools-ext:shell x",
    ({ bodies, events, ext }) => {
      target = pwnedPath(ext);
      const input = requestText(bodies[0]);
      assert.ok(input.includes("RAN:x"), input);
      assert.ok(input.includes(`!{touch ${target}}`), input);
      assert.ok(warningsOf(events).some((w) => w.includes(`!{touch ${target}} not run: not approved`)));
    },
    writeShellCommand,
  );
});

Deno.test("a preview of the request (debug prompt) runs no Gemini command's !{…}", async () => {
  const { root, env } = await makeSandboxHome();
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(cwd);
  const ext = `${env.HOME}/.gemini/extensions/tools-ext`;
  await platform.fs.mkdir(`${ext}/commands`);
  await platform.fs.writeTextFile(`${ext}/gemini-extension.json`, JSON.stringify({ name: "tools-ext" }));
  await writeShellCommand({ ext });
  const server = await startFixtureModelServer({ script: { steps: [{ text: "done" }] } });
  const { session } = await openFixtureSession({
    cwd,
    env,
    url: server.url,
    overrides: ["approval_policy=never", "sandbox_mode=danger-full-access"],
  });
  try {
    const parts = await session.previewRequestParts("$tools-ext:shell x");
    assert.ok(JSON.stringify(parts).includes("!{touch "), "the command stays as written");
  } finally {
    await session.close();
    await server.close();
  }
  assert.equal(await platform.fs.stat(pwnedPath(ext)), null);
});
