import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { bunCommand } from "../../scripts/lib/bun_path.ts";
import { NOBODY } from "../platform/_sandbox_box.ts";

// Issue #20 item 16: run as another user with root's PATH, every shell call failed on
// `EACCES … stat '/root/.cargo/bin/bash'`. A PATH entry that user cannot search is skipped. Deno's
// binary here lives under /root, so the probe runs under Bun (the compiled binary's runtime).

const PROBE = new URL("./_shell_program_probe.ts", import.meta.url).pathname;

Deno.test("shell() as nobody skips a PATH entry it cannot search and a non-executable bash, and runs the next bash", async () => {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-shell-path-"));
  try {
    await platform.fs.chmod(root, 0o755);
    for (const dir of ["locked", "plain", "good", "ws"]) await platform.fs.mkdir(`${root}/${dir}`);
    for (const dir of ["plain", "good", "ws"]) await platform.fs.chmod(`${root}/${dir}`, 0o755);
    await platform.fs.chmod(`${root}/locked`, 0o700); // root's, as /root/.cargo/bin is to nobody
    await platform.fs.writeTextFile(`${root}/locked/bash`, "");
    await platform.fs.writeTextFile(`${root}/plain/bash`, "not a program\n"); // mode 0644
    await platform.fs.symlink("/bin/bash", `${root}/good/bash`);
    const out = await new Deno.Command(NOBODY[0], {
      args: [...NOBODY.slice(1), bunCommand(), "run", PROBE],
      cwd: `${root}/ws`,
      env: { PATH: `${root}/locked:${root}/plain:${root}/good:/usr/bin:/bin`, HOME: `${root}/ws` },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const result = JSON.parse(text.trim().split("\n").at(-1)!);
    assert.deepStrictEqual(result.program, [`${root}/good/bash`, "-lc"]);
    assert.equal(result.status, "success");
    assert.match(result.output, /\nshell-ran\n$/);
  } finally {
    await platform.fs.remove(root, { recursive: true });
  }
});
