const homes = Deno.args;
const ws = await Deno.makeTempDir();
const med = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)];
const res: Record<string, number[]> = {};
for (let round = 0; round < 9; round++) for (const h of homes) for (const cfg of [[], ["-c", "compat.claude_json=false"]]) {
  const out = await new Deno.Command("/usr/bin/time", { args: ["-f", "%U %S", "-o", `${ws}/t`, new URL("../../dist/trellis", import.meta.url).pathname, "debug", "prompt", "hi", ...cfg], cwd: ws, env: { HOME: h, PATH: Deno.env.get("PATH")! }, clearEnv: true, stdout: "null", stderr: "null" }).output();
  const [u, s] = Deno.readTextFileSync(`${ws}/t`).trim().split(/\s+/).map(Number);
  (res[h + " " + cfg.join(" ")] ??= []).push((u + s) * 1000);
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(60), "cpu", med(v).toFixed(0));
