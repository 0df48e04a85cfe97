import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { bunCommand } from "../../scripts/lib/bun_path.ts";

// The binary runs on Bun: the sandbox profile, its placeholders and the non-blocking reads must
// behave there as under Deno (directory entries, for one, differ between the two).

const PROBE = new URL("./_sandbox_runtime_probe.ts", import.meta.url).pathname;

async function probe(cmd: string[]): Promise<unknown> {
  const out = await new Deno.Command(cmd[0], {
    args: [...cmd.slice(1), PROBE],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
}

const expected = {
  fifo: "ENOTREG: not a regular file (a FIFO)",
  sizes: [...Array(12).fill(256 * 1024), 5],
  agentMasked: true,
  stdout: "CapEff:\t0000000000000000\n",
  outside: [],
  ws: ["big", "made", "pipe"],
};

Deno.test("sandboxArgv() and readRegularFile() under Deno: hardened, masked, placeholders gone, FIFO refused", async () => {
  assert.deepStrictEqual(await probe([platform.execPath(), "run", "-A"]), expected);
});

Deno.test("sandboxArgv() and readRegularFile() under Bun: the same", async () => {
  assert.deepStrictEqual(await probe([bunCommand(), "run"]), expected);
});
