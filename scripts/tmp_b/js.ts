const f = Deno.args[0];
for (let i = 0; i < 6; i++) {
  let t = performance.now();
  const text = Deno.readTextFileSync(f);
  const r = performance.now() - t; t = performance.now();
  const v = JSON.parse(text);
  const p = performance.now() - t; t = performance.now();
  // scan: regex over structural chars
  const re = /["{}\[\]\\]/g; let m; let n = 0; let inStr = false;
  let depth = 0;
  for (let k = 0; k < text.length; k++) { const c = text.charCodeAt(k); if (inStr) { if (c === 92) k++; else if (c === 34) inStr = false; } else if (c === 34) inStr = true; else if (c === 123 || c === 91) depth++; else if (c === 125 || c === 93) depth--; }
  const s = performance.now() - t;
  console.log(`read ${r.toFixed(1)} parse ${p.toFixed(1)} charscan ${s.toFixed(1)} ${text.length} ${depth}`);
}
