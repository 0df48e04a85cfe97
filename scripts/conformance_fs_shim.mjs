// Node 20 lacks fs.globSync, which @modelcontextprotocol/conformance imports (it only uses it for its
// tier check). `node --import ./scripts/conformance_fs_shim.mjs` registers this file as a loader
// that hands the conformance package an `fs` with a stub globSync; nothing else is touched.
import { register } from "node:module";

const SHIM = "trellis-shim:fs";

export function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL?.includes("/conformance/")) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}

export function load(url, context, next) {
  if (url !== SHIM) return next(url, context);
  const source = `import fs from "node:fs"; export * from "node:fs"; export default fs;
export const globSync = fs.globSync ?? (() => []);`;
  return { format: "module", source, shortCircuit: true };
}

if (!globalThis.__trellisFsShim) {
  globalThis.__trellisFsShim = true;
  register(import.meta.url);
}
