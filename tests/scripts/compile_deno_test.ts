import assert from "node:assert/strict";

const SCRIPT = new URL("../../scripts/compile_deno.ts", import.meta.url).pathname;

// #16 item 8: `deno compile --output` deletes the file it is about to replace before it knows it can
// write the new one; offline (no denort to download) that left no binary where a working one had been.
Deno.test("compile:deno leaves a working binary in place when deno compile cannot finish", async () => {
  const dir = await Deno.makeTempDir({ prefix: "trellis-compile-deno-" });
  try {
    const outfile = `${dir}/trellis`;
    await Deno.copyFile("/bin/true", outfile);
    const before = await Deno.readFile(outfile);
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", SCRIPT, outfile],
      // A denort that does not exist makes the compile fail here exactly as an offline download does.
      env: { DENORT_BIN: `${dir}/no-denort` },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.notEqual(run.code, 0);
    assert.match(new TextDecoder().decode(run.stderr), /is left as it was/);
    assert.deepEqual(await Deno.readFile(outfile), before);
    assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name), ["trellis"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
