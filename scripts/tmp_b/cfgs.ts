const [home, ...rest] = Deno.args;
const ws = await Deno.makeTempDir();
const med = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)];
const cfgs = [[], ["-c", "compat.claude_json=false"], ["-c", "compat.claude_plugins=false"], ["-c", "compat.claude_plugins=false", "-c", "compat.claude_json=false"]];
const res: Record<string, { w: number[]; c: number[] }> = {};
for (let round = 0; round < 7; round++) for (const cfg of cfgs) {
  const key = cfg.filter((x) => x !== "-c").join(" ") || "all";
  const h = key === "empty" ? rest[0] : home;
  const t = performance.now();
  const out = await new Deno.Command("/usr/bin/time", { args: ["-f", "%U %S", "-o", `${ws}/t`, new URL("../../dist/trellis", import.meta.url).pathname, "debug", "prompt", "hi", ...cfg], cwd: ws, env: { HOME: h, PATH: Deno.env.get("PATH")! }, clearEnv: true, stdout: "null", stderr: "null" }).output();
  const w = performance.now() - t;
  const [u, s] = Deno.readTextFileSync(`${ws}/t`).trim().split(/\s+/).map(Number);
  (res[key] ??= { w: [], c: [] }).w.push(w); res[key].c.push((u + s) * 1000);
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(50), "wall", med(v.w).toFixed(0), "cpu", med(v.c).toFixed(0));
