import assert from "node:assert/strict";
import { runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

// #16 item 8: the binary prints completion scripts for its own command table; bash and fish load them.

Deno.test("the binary's bash and fish completion scripts complete `trellis mc` to mcp and mcp-server", async () => {
  const s = await e2eSetup();
  for (const shell of ["bash", "fish"]) {
    const run = await runTrellis(["completion", shell], { env: s.env, cwd: s.workspace });
    assert.equal(run.code, 0, run.stderr);
    await Deno.writeTextFile(`${s.root}/trellis.${shell}`, run.stdout);
  }
  const output = async (cmd: string[]) => {
    // HOME inside the setup's root: fish creates ~/.config/fish and ~/.local/share/fish.
    const out = await new Deno.Command(cmd[0], {
      args: cmd.slice(1),
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: s.env.HOME },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "").sort();
  };
  assert.deepStrictEqual(
    await output([
      "bash",
      "-c",
      `source "$1"; COMP_WORDS=(trellis mc); COMP_CWORD=1; _trellis; printf '%s\\n' "\${COMPREPLY[@]}"`,
      "bash",
      `${s.root}/trellis.bash`,
    ]),
    ["mcp", "mcp-server"],
  );
  assert.deepStrictEqual(
    (await output([
      "fish",
      "--no-config",
      "-c",
      "source $argv[1]; complete -C 'trellis mc'",
      `${s.root}/trellis.fish`,
    ]))
      .map((l) => l.split("\t")[0]),
    ["mcp", "mcp-server"],
  );
});
