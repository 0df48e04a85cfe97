import assert from "node:assert/strict";
import { platform, PROTECTED_NAMES, removeLeftoverPlaceholders } from "../../lib/platform/mod.ts";
import { type Box, makeBox, policyFor, removeBox, runInSandbox } from "./_sandbox_box.ts";

// Issue #20 item 15: a SIGKILLed run left the sandbox's placeholder files (an empty `sub/.git` then
// broke git there). The next start removes the placeholders an earlier run recorded and did not
// clean; a file of the same name that is not the recorded placeholder, or was written since, stays.

const PROBE = new URL("./_placeholder_holder_probe.ts", import.meta.url).pathname;

/** Runs the holder in a real subprocess until its placeholders exist, then SIGKILLs it. */
async function killedHolder(box: Box, home: string): Promise<void> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", PROBE, box.ws, home],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("ready\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the holder ended before its placeholders existed: ${seen}`);
    seen += value;
  }
  child.kill("SIGKILL");
  await child.status;
  reader.releaseLock();
  await child.stdout.cancel().catch(() => {});
}

async function leftIn(dir: string): Promise<string[]> {
  return (await platform.fs.readDir(dir)).map((e) => e.name).filter((n) => n !== "sub").sort();
}

async function withKilledRun(test: (box: Box, home: string) => Promise<void>) {
  const box = await makeBox();
  try {
    const home = `${box.root}/home`;
    await platform.fs.mkdir(home);
    await platform.fs.mkdir(`${box.ws}/sub`);
    await killedHolder(box, home);
    const names = [...PROTECTED_NAMES].sort();
    // What the killed run left: an empty file for every protected name, in ws and in ws/sub.
    assert.deepStrictEqual([await leftIn(box.ws), await leftIn(`${box.ws}/sub`)], [names, names]);
    await test(box, home);
  } finally {
    await removeBox(box);
  }
}

Deno.test("removeLeftoverPlaceholders() at the next start removes what a SIGKILLed run left, and keeps files that are not its placeholders", async () => {
  await withKilledRun(async (box, home) => {
    // The neighbours: a placeholder the user has written to since, and one the user replaced with an
    // empty file of their own (same name, not the recorded file).
    await platform.fs.writeTextFile(`${box.ws}/sub/.mcp.json`, '{"mcpServers":{}}\n');
    await platform.fs.remove(`${box.ws}/sub/.codex`);
    await platform.fs.writeTextFile(`${box.ws}/sub/.codex`, "");
    removeLeftoverPlaceholders(home);
    assert.deepStrictEqual([await leftIn(box.ws), await leftIn(`${box.ws}/sub`)], [[], [
      ".codex",
      ".mcp.json",
    ]]);
    assert.equal(await platform.fs.readTextFile(`${box.ws}/sub/.mcp.json`), '{"mcpServers":{}}\n');
  });
});

Deno.test("a process's first sandbox elsewhere removes what a SIGKILLed run left, too", async () => {
  await withKilledRun(async (box, home) => {
    const other = `${box.root}/other`;
    await platform.fs.mkdir(other);
    const result = await runInSandbox(
      policyFor(box, { writableRoots: [other], cwd: other, trellisHome: home }),
      "true",
    );
    assert.equal(result.code, 0, result.stderr);
    assert.deepStrictEqual([await leftIn(box.ws), await leftIn(`${box.ws}/sub`)], [[], []]);
    assert.deepStrictEqual(await leftIn(other), []);
  });
});
