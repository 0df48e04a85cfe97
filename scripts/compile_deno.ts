/**
 * `deno task compile:deno [OUTFILE]`: dist/trellis through `deno compile`, for users with a network
 * (it downloads `denort`; `deno task check` is where types are checked). It compiles next to OUTFILE and renames only a finished executable over
 * it: `deno compile --output` deletes an existing file before it knows it can write a new one, so
 * offline it used to leave no binary at all where a working one had been (#16 item 8).
 */
const outfile = Deno.args[0] ?? "dist/trellis";
const staging = `${outfile}.compiling`;
const { code } = await new Deno.Command(Deno.execPath(), {
  args: ["compile", "-A", "--no-check", "--output", staging, new URL("../main.ts", import.meta.url).pathname],
  stdout: "inherit",
  stderr: "inherit",
}).output();
if (code !== 0) {
  await Deno.remove(staging).catch(() => {});
  console.error(`deno compile failed; ${outfile} is left as it was`);
  Deno.exit(code);
}
await Deno.rename(staging, outfile);
console.log(`built ${outfile}`);
